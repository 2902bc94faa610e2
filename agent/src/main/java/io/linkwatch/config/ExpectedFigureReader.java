package io.linkwatch.config;

import io.linkwatch.util.ByteSize;
import io.linkwatch.verdict.ExpectedFigure;
import io.linkwatch.verdict.ExpectedFigures;
import java.util.Optional;

/**
 * One row of the operator's {@code expected} list: a figure this site's links should reach, judged
 * before the shipped table (so a row for a shipped product and link overrides it).
 *
 * <pre>
 * expected:
 *   - product: Ascend910_93      # the start of the device name the topology reports
 *     link: SIO                  # the link label: SIO, HCCS, NVLINK, PCIE, ...
 *     probe: p2p                 # p2p (default) or p2p_bidirectional
 *     size: 256MiB               # or min_size / max_size; default: every size
 *     floor_gbps: 130            # below this the link fails
 *     warn_gbps: 145             # below this it warns (default: the floor)
 *     source: acceptance test 2026-11
 * </pre>
 */
final class ExpectedFigureReader {
  private ExpectedFigureReader() {}

  static Optional<ExpectedFigure> read(ConfigNode row) {
    String product = row.scalar("product", "", String::strip);
    String link = row.scalar("link", "", String::strip);
    String probe = row.scalar("probe", "p2p", String::strip);
    long size = row.scalar("size", -1L, ByteSize::parse);
    long min = row.scalar("min_size", size >= 0 ? size : 0L, ByteSize::parse);
    long max = row.scalar("max_size", size >= 0 ? size : Long.MAX_VALUE, ByteSize::parse);
    double floor = row.number("floor_gbps", -1, 0, 1e6);
    double warn = row.has("warn_gbps") ? row.number("warn_gbps", floor, 0, 1e6) : floor;
    String source = row.scalar("source", "operator: linkwatch.yaml", String::strip);
    row.rejectUnknown();
    boolean ok = true;
    if (product.isEmpty()) {
      row.problem("product", "required: the start of the device name, e.g. Ascend910_93");
      ok = false;
    }
    if (link.isEmpty()) {
      row.problem("link", "required: the link label, e.g. SIO, HCCS or NVLINK");
      ok = false;
    }
    if (!ExpectedFigures.JUDGED_PROBES.contains(probe)) {
      row.problem(
          "probe",
          "'" + probe + "' has no expected figures: use one of " + ExpectedFigures.JUDGED_PROBES);
      ok = false;
    }
    if (size >= 0 && (row.has("min_size") || row.has("max_size"))) {
      row.problem("size", "give either size or min_size/max_size, not both");
      ok = false;
    }
    if (min > max) {
      row.problem("min_size", "larger than max_size");
      ok = false;
    }
    if (!row.has("floor_gbps")) {
      row.problem("floor_gbps", "required: the GB/s below which the link fails");
      ok = false;
    } else if (floor <= 0) {
      if (floor == 0) {
        row.problem("floor_gbps", "must be above 0");
      }
      ok = false;
    } else if (warn < floor) {
      row.problem("warn_gbps", warn + " is below floor_gbps " + floor + ": it must be at least it");
      ok = false;
    }
    if (!ok) {
      return Optional.empty();
    }
    return Optional.of(
        new ExpectedFigure(product, link, probe, min, max, floor * 1e9, warn * 1e9, source));
  }
}
