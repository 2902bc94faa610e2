package io.linkwatch.probe.result;

/** Median copy bandwidth from {@code src} to {@code dst} for one copy size. */
public record P2pBandwidth(
    int src, int dst, String link, long sizeBytes, double bytesPerSecond, double secondsPerCopy)
    implements Measurement {}
