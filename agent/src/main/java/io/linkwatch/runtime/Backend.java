package io.linkwatch.runtime;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Which device runtime the probes talk to. The sim is never loaded unless asked for by name. */
public enum Backend {
  /** The real AscendCL and HCCL libraries from CANN. */
  ASCEND,
  /** linkwatch's simulated runtime, which exports the same C symbols over host memory. */
  SIM;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Backend parse(String text) {
    for (Backend b : values()) {
      if (b.id().equals(text)) {
        return b;
      }
    }
    throw new IllegalArgumentException(
        "unknown backend '" + text + "' (expected one of " + ids() + ")");
  }

  public static String ids() {
    return Arrays.stream(values()).map(Backend::id).collect(Collectors.joining(", "));
  }
}
