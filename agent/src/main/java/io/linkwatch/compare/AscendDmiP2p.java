package io.linkwatch.compare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The p2p bandwidth matrices {@code ascend-dmi --bw -t p2p} prints (MindCluster toolbox guide,
 * "带宽测试", seed 002): a title line per direction ("Unidirectional Peer to Peer Test Bandwidth
 * Matrix(GB/s)", "Bidirectional ..."), a header row of ids after a corner cell, then one row per
 * source with {@code ***} on the diagonal. The corner says what the ids are: {@code C\C} card ids
 * ({@code -m card}: on an A3 a card holds two dies, so these are not device pairs), any other
 * letter device ids (the default, {@code -m device}). Figures are GB/s (10^9 bytes per second); the
 * bidirectional figure is both directions together.
 *
 * @param cards whether the matrices are by card, not by device
 */
public record AscendDmiP2p(
    Map<String, Double> unidirectional, Map<String, Double> bidirectional, boolean cards) {
  /** No matrix at all. */
  public static final AscendDmiP2p NONE = new AscendDmiP2p(Map.of(), Map.of(), false);

  private static final Pattern UNI =
      Pattern.compile(
          "Unidirectional Peer to Peer Test Bandwidth Matrix", Pattern.CASE_INSENSITIVE);
  private static final Pattern BI =
      Pattern.compile("Bidirectional Peer to Peer Test Bandwidth Matrix", Pattern.CASE_INSENSITIVE);
  private static final Pattern CORNER = Pattern.compile("^\\s*([A-Za-z])\\\\[A-Za-z]\\s+(.*)$");

  /** The command that prints the matrices: {@code ascend-dmi --bw -t p2p -q}. */
  public static java.util.List<String> command(String ascendDmi) {
    // "p2p" is ascend-dmi's own name of its test
    return java.util.List.of(ascendDmi, "--bw", "-t", "p2p", "-q");
  }

  /** Bytes per second for {@code src->dst}, keyed "src->dst" as linkwatch names p2p targets. */
  public static String key(int src, int dst) {
    return src + "->" + dst;
  }

  /**
   * Parses ascend-dmi's output. Lines outside the two matrices are ignored; a matrix row whose
   * number of cells does not match the header is an error, as is a figure that is not a number.
   */
  public static AscendDmiP2p parse(String text) {
    Map<String, Double> uni = new LinkedHashMap<>();
    Map<String, Double> bi = new LinkedHashMap<>();
    Map<String, Double> into = null;
    List<Integer> columns = null;
    boolean cards = false;
    int lineNo = 0;
    for (String line : text.split("\\R")) {
      lineNo++;
      if (BI.matcher(line).find()) {
        into = bi;
        columns = null;
        continue;
      }
      if (UNI.matcher(line).find()) {
        into = uni;
        columns = null;
        continue;
      }
      if (into == null || line.isBlank()) {
        continue;
      }
      var corner = CORNER.matcher(line);
      if (corner.matches()) {
        cards |= corner.group(1).equalsIgnoreCase("C");
        columns = ids(corner.group(2), lineNo);
        continue;
      }
      if (columns == null) {
        continue;
      }
      String[] cells = line.trim().split("\\s+");
      if (!cells[0].matches("\\d+")) {
        into = null; // the matrix ended
        continue;
      }
      if (cells.length != columns.size() + 1) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "ascend-dmi output line %d: %d figures for %d columns: %s",
                lineNo,
                cells.length - 1,
                columns.size(),
                line.trim()));
      }
      int src = Integer.parseInt(cells[0]);
      for (int i = 1; i < cells.length; i++) {
        if (cells[i].equals("***")) {
          continue;
        }
        try {
          into.put(key(src, columns.get(i - 1)), Double.parseDouble(cells[i]) * 1e9);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "ascend-dmi output line " + lineNo + ": not a bandwidth: " + cells[i], e);
        }
      }
    }
    return new AscendDmiP2p(Map.copyOf(uni), Map.copyOf(bi), cards);
  }

  private static List<Integer> ids(String header, int lineNo) {
    try {
      return java.util.Arrays.stream(header.trim().split("\\s+")).map(Integer::valueOf).toList();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "ascend-dmi output line " + lineNo + ": not a header of device ids: " + header, e);
    }
  }
}
