package io.linkwatch.runtime;

/** Element types for collectives, with their HCCL enum values and sizes in bytes. */
public enum DataType {
  INT32(2, 4),
  FP16(3, 2),
  FP32(4, 4);

  private final int hcclValue;
  private final int bytes;

  DataType(int hcclValue, int bytes) {
    this.hcclValue = hcclValue;
    this.bytes = bytes;
  }

  public int hcclValue() {
    return hcclValue;
  }

  public int bytes() {
    return bytes;
  }
}
