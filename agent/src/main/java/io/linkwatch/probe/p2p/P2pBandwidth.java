package io.linkwatch.probe.p2p;

import io.linkwatch.probe.result.Charted;

/** Median copy bandwidth from {@code src} to {@code dst} for one copy size. */
public record P2pBandwidth(
    int src, int dst, String link, long sizeBytes, double bytesPerSecond, double secondsPerCopy)
    implements Charted {
  @Override
  public String summary() {
    return String.format(
        java.util.Locale.ROOT,
        "%d->%d %s %.1fGB/s %s",
        src,
        dst,
        io.linkwatch.util.ByteSize.format(sizeBytes),
        bytesPerSecond / 1e9,
        link);
  }

  @Override
  public void chart(Sink sink) {
    sink.accept("bandwidth", sizeBytes(), BYTES_PER_SECOND, bytesPerSecond());
  }
}
