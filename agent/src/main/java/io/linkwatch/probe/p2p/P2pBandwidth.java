package io.linkwatch.probe.p2p;

import io.linkwatch.probe.result.Charted;
import io.linkwatch.probe.result.Judged;
import io.linkwatch.util.Gbps;

/** Median copy bandwidth from {@code src} to {@code dst} for one copy size. */
public record P2pBandwidth(
    int src, int dst, String link, long sizeBytes, double bytesPerSecond, double secondsPerCopy)
    implements Charted, Judged {
  @Override
  public Figure judged() {
    return new Figure(
        src, dst, link, sizeBytes, bytesPerSecond, link + " " + Judged.mib(sizeBytes), false);
  }

  @Override
  public String summary() {
    return String.format(
        java.util.Locale.ROOT,
        "%d->%d %s %sGB/s %s",
        src,
        dst,
        io.linkwatch.util.ByteSize.format(sizeBytes),
        Gbps.format(bytesPerSecond),
        link);
  }

  @Override
  public void chart(Sink sink) {
    sink.accept("bandwidth", sizeBytes(), BYTES_PER_SECOND, bytesPerSecond());
  }
}
