package io.linkwatch.probe.result;

import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import java.util.Locale;

/**
 * Point-to-point bandwidth between one device on each of two hosts ({@code peer_p2p}), by ranks:
 * rank 0 is the prober's device, rank 1 the peer's. One way, {@code sizeBytes} from {@code
 * fromRank} to {@code toRank}; both ways at once, {@code sizeBytes} each way and {@code
 * bytesPerSecond} counting both ({@code 2 * sizeBytes / p50}), as the in-host {@code
 * p2p_bidirectional} does.
 *
 * @param rounds how many timed rounds the median is of
 */
public record PeerP2pBandwidth(
    int fromRank,
    int toRank,
    boolean bothWays,
    long sizeBytes,
    double bytesPerSecond,
    double p50Seconds,
    double p99Seconds,
    long rounds)
    implements Measurement {

  /** E.g. {@code rank 0->1 64MiB 12.3GB/s} or {@code ranks 0<->1 64MiB 23.9GB/s}. */
  @Override
  public String summary() {
    return String.format(
        Locale.ROOT,
        "%s %s %sGB/s",
        bothWays ? "ranks " + fromRank + "<->" + toRank : "rank " + fromRank + "->" + toRank,
        ByteSize.format(sizeBytes),
        Gbps.format(bytesPerSecond));
  }
}
