package io.linkwatch.status;

import io.linkwatch.probe.result.Measurement;
import java.time.Instant;
import java.util.List;

/**
 * The last two-host run of one probe with one partner, as this host (its prober) saw it ({@code
 * docs/peer-collective.md}).
 *
 * @param probe {@code peer_allreduce} or {@code peer_p2p}
 * @param srcHost this host's member name
 * @param dstHost the partner's
 * @param result how the last run ended: {@code success}, {@code error}, {@code timeout}, {@code
 *     skipped_peer}, {@code skipped_busy}, {@code lease_failed}, ...
 * @param error why, where it did not succeed; empty otherwise
 * @param lastRun when the last run ended
 * @param ok the last run that was not skipped measured (true) or failed (false); null before one
 * @param figuresAt when the figures below were measured; null before a success
 * @param figures the last successful run's figures
 */
public record PairEntry(
    String probe,
    String srcHost,
    String dstHost,
    String result,
    String error,
    Instant lastRun,
    Boolean ok,
    Instant figuresAt,
    List<Measurement> figures) {
  public PairEntry {
    figures = figures == null ? List.of() : figures.stream().map(UnencodedFigure::of).toList();
  }
}
