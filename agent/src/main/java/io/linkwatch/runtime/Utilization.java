package io.linkwatch.runtime;

import java.util.Locale;

/**
 * The utilization readings that tell a busy device, each a share of the last sampling period. AI
 * Core alone is not enough: it reads 0 while profiling is on, and copies do not use it.
 */
public enum Utilization {
  /** The compute cores (DCMI input type 2). */
  AICORE,
  /** HBM bandwidth (DCMI input type 10). */
  HBM_BANDWIDTH,
  /** The whole NPU (DCMI input type 13). */
  NPU;

  /** The {@code kind} label, e.g. {@code hbm_bandwidth}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
