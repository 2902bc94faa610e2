package io.linkwatch.passive;

/** How one passive read of one device by one source ended: the {@code result} label. */
public enum ReadResult {
  SUCCESS("success"),
  ERROR("error"),
  TIMEOUT("timeout"),
  /** Not read: an active probe was measuring the device (the vendor's polling would skew it). */
  SKIPPED_ACTIVE_PROBE("skipped_active_probe");

  private final String label;

  ReadResult(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
