package io.linkwatch.probe.result;

/**
 * A copy within one device's own memory: the reference its links are compared to, shown in the
 * status page's device table.
 */
public interface LocalCopy extends Measurement {
  int device();

  long sizeBytes();

  double bytesPerSecond();
}
