package io.linkwatch.config;

import io.linkwatch.passive.ExpectedPorts;
import io.linkwatch.passive.PassiveSource;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One row of the operator's {@code expected_ports} list: what this site's ports to other servers
 * should be, judged before the shipped rows (a row for a shipped product and reader overrides it).
 *
 * <pre>
 * expected_ports:
 *   - product: Ascend910B3     # the start of the device name the topology reports
 *     reader: hccn_tool        # each NPU's own RoCE port: every one held to the speed
 *     speed: 200Gb/s
 *   - product: NVIDIA H200
 *     reader: infiniband       # the adapters in sysfs: `count` ports up at `speed` or faster
 *     speed: 400Gb/s
 *     count: 8
 *     source: fabric design 2026-10
 * </pre>
 */
final class ExpectedPortsReader {
  private static final Pattern SPEED =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([GM])(?:b|bit)/s(?:ec)?", Pattern.CASE_INSENSITIVE);

  private ExpectedPortsReader() {}

  /** {@code 400Gb/s}, {@code 400 Gbit/s}, {@code 200000Mb/s} (hccn_tool's unit) in bits/s. */
  static double speed(String text) {
    Matcher m = SPEED.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a port speed: write it as 400Gb/s (or 400000Mb/s)");
    }
    double value =
        Double.parseDouble(m.group(1))
            * (m.group(2).toUpperCase(Locale.ROOT).equals("G") ? 1e9 : 1e6);
    if (value <= 0) {
      throw new IllegalArgumentException("must be above 0");
    }
    return value;
  }

  static Optional<ExpectedPorts> read(ConfigNode row) {
    String product = row.scalar("product", "", String::strip);
    String readerId = row.scalar("reader", "", String::strip);
    double speed = row.scalar("speed", -1.0, ExpectedPortsReader::speed);
    boolean infiniband = readerId.equals(PassiveSource.INFINIBAND.id());
    int count = row.integer("count", 0, 1, 4096);
    String source = row.scalar("source", "operator: linkwatch.yaml", String::strip);
    row.rejectUnknown();
    boolean ok = true;
    if (product.isEmpty()) {
      row.problem("product", "required: the start of the device name, e.g. Ascend910_93");
      ok = false;
    }
    PassiveSource reader =
        ExpectedPorts.READERS.stream()
            .filter(r -> r.id().equals(readerId))
            .findFirst()
            .orElse(null);
    if (reader == null) {
      row.problem(
          "reader",
          (readerId.isEmpty() ? "required" : "'" + readerId + "' reads no ports")
              + ": one of "
              + ExpectedPorts.READERS.stream().map(PassiveSource::id).toList());
      ok = false;
    }
    if (!row.has("speed")) {
      row.problem("speed", "required: the speed each port should train at, e.g. 400Gb/s");
      ok = false;
    } else if (speed <= 0) {
      ok = false; // the parser named the reason
    }
    if (infiniband && !row.has("count")) {
      // an adapter port may be a management port: only a count of ports at the speed is judged
      row.problem("count", "required for reader infiniband: how many ports should be up at speed");
      ok = false;
    }
    if (!ok) {
      return Optional.empty();
    }
    return Optional.of(new ExpectedPorts(product, reader, speed, count, source));
  }
}
