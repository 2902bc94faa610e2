package io.linkwatch.config;

import io.linkwatch.registry.ProbeKind;
import io.linkwatch.util.ByteSize;
import io.linkwatch.verdict.ExpectedFigure;
import java.util.List;
import java.util.Optional;

/**
 * One row of the operator's {@code expected} list: a figure this site's links should reach, judged
 * before the shipped table (so a row for a shipped product and link overrides it). The shipped
 * table is rows of the same form, read by the same code ({@link ExpectedFigureTable}).
 *
 * <pre>
 * expected:
 *   - product: Ascend910_93      # the start of the device name the topology reports
 *     link: SIO                  # the link label: SIO, HCCS, NVLINK, PCIE, ...
 *     probe: p2p                 # a judged probe: p2p (default), p2p_bidirectional, ...
 *     size: 256MiB               # or min_size / max_size; default: every size
 *     floor_gbps: 130            # below this the link fails
 *     warn_gbps: 145             # below this it warns (default: the floor)
 *   - {product: Ascend910_93, link: pinned h2d, probe: host_transfer, floor_gbps: 50}
 *   - {product: Ascend910_93, link: 2 ranks, probe: allreduce, size: 1KiB, ceiling_us: 320}
 *     source: acceptance test 2026-11
 * </pre>
 */
final class ExpectedFigureReader {
  private ExpectedFigureReader() {}

  static Optional<ExpectedFigure> read(ConfigNode row) {
    String product = row.scalar("product", "", String::strip);
    String link = row.scalar("link", "", String::strip);
    String probe = row.scalar("probe", ProbeKind.defaultJudged().id(), String::strip);
    long size = row.scalar("size", -1L, ByteSize::parse);
    long min = row.scalar("min_size", size >= 0 ? size : 0L, ByteSize::parse);
    long max = row.scalar("max_size", size >= 0 ? size : Long.MAX_VALUE, ByteSize::parse);
    List<String> judged = ProbeKind.judged().stream().map(ProbeKind::id).toList();
    boolean latency =
        ProbeKind.byId(probe).map(k -> k.descriptor().judgedAsLatency()).orElse(false);
    // A bandwidth fails under floor_gbps; a latency (the p50, in microseconds) over ceiling_us.
    String failKey = latency ? "ceiling_us" : "floor_gbps";
    String warnKey = latency ? "warn_us" : "warn_gbps";
    double floor = row.number(failKey, -1, 0, 1e9);
    double warn = row.has(warnKey) ? row.number(warnKey, floor, 0, 1e9) : floor;
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
    if (!judged.contains(probe)) {
      row.problem("probe", "'" + probe + "' has no expected figures: use one of " + judged);
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
    if (!row.has(failKey)) {
      row.problem(
          failKey,
          latency
              ? "required: the microseconds above which the link fails"
              : "required: the GB/s below which the link fails");
      ok = false;
    } else if (floor <= 0) {
      if (floor == 0) {
        row.problem(failKey, "must be above 0");
      }
      ok = false;
    } else if (latency ? warn > floor : warn < floor) {
      row.problem(
          warnKey,
          warn
              + (latency ? " is above " : " is below ")
              + failKey
              + " "
              + floor
              + (latency ? ": it must be at most it" : ": it must be at least it"));
      ok = false;
    }
    if (!ok) {
      return Optional.empty();
    }
    double scale = latency ? 1e-6 : 1e9;
    return Optional.of(
        new ExpectedFigure(
            product,
            link,
            probe,
            min,
            max,
            latency ? ExpectedFigure.Quantity.LATENCY : ExpectedFigure.Quantity.BANDWIDTH,
            floor * scale,
            warn * scale,
            source));
  }
}
