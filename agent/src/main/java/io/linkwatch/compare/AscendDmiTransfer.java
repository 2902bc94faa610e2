package io.linkwatch.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The host-device bandwidth tables {@code ascend-dmi --bw -t h2d} and {@code -t d2h} print
 * (MindCluster toolbox guide, "带宽测试", seed 002): a title per direction ("Host to Device Test",
 * "Device to Host Test"), then a table whose documented columns are {@code ID}, {@code
 * Size(Bytes)}, {@code Execute Times}, {@code Bandwidth(GB/s)} and {@code Elapsed Time(us)}, one
 * row per device and size (on an A3, every device when no {@code -d} is given). The guide shows the
 * table only as a picture, so the columns are found by those names, in whatever order the header
 * gives them, and cell borders ({@code |}) are ignored. Figures are GB/s (10^9 bytes per second).
 *
 * @param bandwidth bytes per second keyed by {@link #key}
 */
public record AscendDmiTransfer(Map<String, Double> bandwidth) {
  public static final AscendDmiTransfer NONE = new AscendDmiTransfer(Map.of());

  private static final List<String> COLUMNS =
      List.of("ID", "Size(Bytes)", "Execute Times", "Bandwidth(GB/s)", "Elapsed Time(us)");

  /** E.g. {@code h2d 0 268435456}. */
  public static String key(String direction, int device, long sizeBytes) {
    return direction + " " + device + " " + sizeBytes;
  }

  /**
   * Parses ascend-dmi's output. Lines outside the tables are ignored; a row of the wrong number of
   * cells, or a cell that is not a number, is an error naming the line.
   */
  public static AscendDmiTransfer parse(String text) {
    Map<String, Double> out = new LinkedHashMap<>();
    String direction = null;
    int[] order = null; // index in a row of ID, size, times, bandwidth, elapsed
    int lineNo = 0;
    for (String raw : text.split("\\R")) {
      lineNo++;
      String line = raw.replace('|', ' ');
      if (line.contains("Host to Device Test")) {
        direction = "h2d";
        order = null;
        continue;
      }
      if (line.contains("Device to Host Test")) {
        direction = "d2h";
        order = null;
        continue;
      }
      if (direction == null || line.isBlank()) {
        continue;
      }
      if (line.contains("Size(Bytes)") && line.contains("Bandwidth(GB/s)")) {
        order = columnOrder(line, lineNo);
        continue;
      }
      String[] cells = line.trim().split("\\s+");
      if (order == null || !cells[0].matches("[0-9.]+")) {
        continue; // "Device 0 : Ascend910", rules, or text before the header
      }
      if (cells.length != COLUMNS.size()) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "ascend-dmi output line %d: %d cells for the %d columns %s: %s",
                lineNo,
                cells.length,
                COLUMNS.size(),
                COLUMNS,
                line.trim()));
      }
      try {
        int device = Integer.parseInt(cells[order[0]]);
        long size = Long.parseLong(cells[order[1]]);
        double gbps = Double.parseDouble(cells[order[3]]);
        out.put(key(direction, device, size), gbps * 1e9);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT, "ascend-dmi output line %d: not a number: %s", lineNo, line.trim()));
      }
    }
    return new AscendDmiTransfer(Map.copyOf(out));
  }

  /** Where each documented column stands in the header; every one must be there. */
  private static int[] columnOrder(String header, int lineNo) {
    List<String> missing = new ArrayList<>();
    List<Integer> at = new ArrayList<>();
    for (String c : COLUMNS) {
      int i = c.equals("ID") ? idColumn(header) : header.indexOf(c);
      if (i < 0) {
        missing.add(c);
      }
      at.add(i);
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "ascend-dmi output line %d: the table header lacks %s: %s",
              lineNo,
              missing,
              header.trim()));
    }
    List<Integer> ranked = new ArrayList<>(List.of(0, 1, 2, 3, 4));
    ranked.sort(Comparator.comparing(at::get));
    int[] order = new int[COLUMNS.size()];
    for (int cell = 0; cell < ranked.size(); cell++) {
      order[ranked.get(cell)] = cell;
    }
    return order;
  }

  /** "ID" as a word of its own (not the "id" inside another name). */
  private static int idColumn(String header) {
    var m = java.util.regex.Pattern.compile("(?<![A-Za-z])ID(?![A-Za-z])").matcher(header);
    return m.find() ? m.start() : -1;
  }
}
