package io.linkwatch.probe.p2p;

import io.linkwatch.probe.result.Charted;
import io.linkwatch.probe.result.Judged;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Gbps;
import java.util.Locale;

/**
 * Both directions of a device pair at once: {@code sizeBytes} each way, so {@code bytesPerSecond}
 * is {@code 2 x sizeBytes} over the median wall time of the pair of copies ({@code
 * secondsPerPair}), as ascend-dmi's "Bidirectional Peer to Peer Test Bandwidth Matrix" reports it.
 * {@code a < b}.
 */
public record P2pBidirectionalBandwidth(
    int a, int b, String link, long sizeBytes, double bytesPerSecond, double secondsPerPair)
    implements Charted, Judged {
  @Override
  public Figure judged() {
    return new Figure(
        a, b, link, sizeBytes, bytesPerSecond, link + " " + Judged.mib(sizeBytes), true);
  }

  /** E.g. {@code 0<->1 256MiB 311.6GB/s SIO}. */
  @Override
  public String summary() {
    return String.format(
        Locale.ROOT,
        "%d<->%d %s %sGB/s %s",
        a,
        b,
        ByteSize.format(sizeBytes),
        Gbps.format(bytesPerSecond),
        link);
  }

  @Override
  public void chart(Sink sink) {
    sink.accept("bandwidth", sizeBytes(), BYTES_PER_SECOND, bytesPerSecond());
  }
}
