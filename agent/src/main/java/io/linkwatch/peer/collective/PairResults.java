package io.linkwatch.peer.collective;

import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the two-host runs came to, on both ends ({@link PairMetrics} writes their series). The
 * figures are the prober's; both ends count their runs: {@code role="responder"} counts the runs
 * this host lent its devices to, and the leases it refused ({@code result="refused"}). Pairs keep
 * their last figures until the next success, so a dashboard shows what a pair last measured.
 */
public final class PairResults {
  /** A run's counted outcome: which probe, who ran it, with whom, how it ended. */
  public record Count(String probe, String role, String peer, String result)
      implements Comparable<Count> {
    @Override
    public int compareTo(Count o) {
      return key().compareTo(o.key());
    }

    private String key() {
      return probe + "\n" + role + "\n" + peer + "\n" + result;
    }
  }

  /** The last run of one probe with one partner, as its prober saw it. */
  public record Pair(
      String probe,
      String src,
      String dst,
      Instant at,
      String result,
      String error,
      List<Measurement> figures,
      Instant figuresAt,
      Boolean ok) {
    /** Results that say nothing of the path: the run did not take place, or was thrown away. */
    static boolean decides(String result) {
      return "success".equals(result) || "error".equals(result) || "timeout".equals(result);
    }
  }

  private final Clock clock;
  private final Map<Count, AtomicLong> counts = new TreeMap<>();
  private final Map<String, Pair> pairs = new TreeMap<>();
  private final AtomicLong version = new AtomicLong();

  public PairResults(Clock clock) {
    this.clock = clock;
  }

  /** Moves whenever something was recorded. */
  public long version() {
    return version.get();
  }

  /**
   * The prober's run of {@code probe} with {@code dst}: a result label ({@code success}, {@code
   * error}, {@code skipped_peer}, {@code skipped_busy}, ...), why where it did not succeed, and the
   * figures where it did.
   */
  public synchronized void probed(
      String probe,
      String src,
      String dst,
      String result,
      String error,
      List<Measurement> figures) {
    count(probe, "prober", dst, result);
    Instant now = clock.instant();
    String key = probe + "\n" + dst;
    Pair before = pairs.get(key);
    boolean measured = "success".equals(result);
    pairs.put(
        key,
        new Pair(
            probe,
            src,
            dst,
            now,
            result,
            error == null ? "" : error,
            measured ? List.copyOf(figures) : before == null ? List.of() : before.figures(),
            measured ? now : before == null ? null : before.figuresAt(),
            verdict(result, before)));
  }

  /** The pair's verdict after {@code result}: a skip keeps the one before (none at first). */
  private static Boolean verdict(String result, Pair before) {
    if (Pair.decides(result)) {
      return "success".equals(result);
    }
    return before == null ? null : before.ok();
  }

  /** This host's part of a run it lent its devices to; {@code run} null: it never started. */
  public synchronized void answered(String probe, String prober, ProbeRun run) {
    count(probe, "responder", prober, run == null ? "error" : outcome(run, 0).result());
  }

  /** A lease for {@code probe} this host refused to {@code prober}. */
  public synchronized void leaseRefused(String probe, String prober) {
    count(probe, "responder", prober, "refused");
  }

  private void count(String probe, String role, String peer, String result) {
    counts
        .computeIfAbsent(new Count(probe, role, peer, result), k -> new AtomicLong())
        .incrementAndGet();
    version.incrementAndGet();
  }

  /** As {@link #pairs()}, for the status document. */
  public List<io.linkwatch.status.PairEntry> entries() {
    return pairs().stream()
        .map(
            p ->
                new io.linkwatch.status.PairEntry(
                    p.probe(),
                    p.src(),
                    p.dst(),
                    p.result(),
                    p.error(),
                    p.at(),
                    p.ok(),
                    p.figuresAt(),
                    p.figures()))
        .toList();
  }

  /** Every probe and partner this host probed, by probe then partner. */
  public synchronized List<Pair> pairs() {
    return List.copyOf(pairs.values());
  }

  /** A worker's run of one side as a result label, an error and the time it took. */
  static LeaseWire.Outcome outcome(ProbeRun run, double seconds) {
    if (!run.skippedBecause().isEmpty()) {
      return new LeaseWire.Outcome("not_applicable", run.skippedBecause(), seconds);
    }
    if (run.targets().isEmpty()) {
      return new LeaseWire.Outcome("error", "the run measured nothing", seconds);
    }
    TargetResult t = run.targets().get(0);
    return new LeaseWire.Outcome(t.outcome().label(), t.error(), seconds);
  }

  /** The runs counted so far, by who ran them, with whom and how they ended. */
  public synchronized Map<Count, Long> counts() {
    Map<Count, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }
}
