package io.linkwatch.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One row of hccl_test's results table: the header names the columns {@code data_size(Bytes)},
 * {@code aveg_time(us)}, {@code alg_bandwidth(GB/s)} and {@code check_result}, and each row under
 * it gives them for one message size.
 */
public record HcclTestResult(
    long sizeBytes, double averageSeconds, double algBytesPerSecond, String check) {

  /** Every result row of hccl_test's output; none when it printed no table. */
  public static List<HcclTestResult> parse(String text) {
    List<HcclTestResult> rows = new ArrayList<>();
    boolean inTable = false;
    int lineNo = 0;
    for (String line : text.split("\\R")) {
      lineNo++;
      String l = line.trim();
      if (l.contains("data_size") && l.contains("aveg_time") && l.contains("alg_bandwidth")) {
        inTable = true;
        continue;
      }
      if (!inTable || l.isEmpty()) {
        continue;
      }
      String[] cells = l.split("[\\s|]+");
      if (cells.length < 4 || !cells[0].matches("\\d+")) {
        inTable = false; // the table ended
        continue;
      }
      try {
        rows.add(
            new HcclTestResult(
                Long.parseLong(cells[0]),
                Double.parseDouble(cells[1]) / 1e6,
                Double.parseDouble(cells[2]) * 1e9,
                cells[3]));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            String.format(Locale.ROOT, "hccl_test output line %d: not a result row: %s", lineNo, l),
            e);
      }
    }
    return List.copyOf(rows);
  }
}
