package io.linkwatch.runtime;

/** Element types for collectives, with their HCCL and NCCL enum values and sizes in bytes. */
public enum DataType {
  INT32(2, 2, 4),
  FP16(3, 6, 2),
  FP32(4, 7, 4);

  private final int hcclValue;
  private final int ncclValue;
  private final int bytes;

  DataType(int hcclValue, int ncclValue, int bytes) {
    this.hcclValue = hcclValue;
    this.ncclValue = ncclValue;
    this.bytes = bytes;
  }

  /** {@code HcclDataType}. */
  public int hcclValue() {
    return hcclValue;
  }

  /** {@code ncclDataType_t}. */
  public int ncclValue() {
    return ncclValue;
  }

  public int bytes() {
    return bytes;
  }
}
