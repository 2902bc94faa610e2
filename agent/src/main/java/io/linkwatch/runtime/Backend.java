package io.linkwatch.runtime;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which device runtime the probes talk to. {@link #AUTO} stands for whichever vendor library the
 * host has and is resolved once at start ({@code DeviceRuntimes.resolve}); the sims are never
 * chosen unless asked for by name.
 */
public enum Backend {
  /** The backend whose vendor library is installed: ascend or cuda, never a sim. */
  AUTO("auto", Vendor.NONE, false),
  /** The real AscendCL and HCCL libraries from CANN. */
  ASCEND("ascend", Vendor.ASCEND, false),
  /** The NVIDIA driver's libcuda.so.1 and libnvidia-ml.so.1, and libnccl.so.2 where installed. */
  CUDA("cuda", Vendor.NVIDIA, false),
  /** linkwatch's simulated runtime through the AscendCL, HCCL and DCMI symbols it exports. */
  SIM("sim", Vendor.ASCEND, true),
  /** The same simulator through the CUDA driver, NVML and NCCL symbols it exports. */
  SIM_CUDA("sim-cuda", Vendor.NVIDIA, true);

  /** The device family a backend binds to. */
  public enum Vendor {
    NONE("NPU"),
    ASCEND("NPU"),
    NVIDIA("GPU");

    private final String deviceWord;

    Vendor(String deviceWord) {
      this.deviceWord = deviceWord;
    }

    /**
     * What the vendor's own tools call a device in their matrices: {@code NPU0} in {@code npu-smi
     * info -t topo}, {@code GPU0} in {@code nvidia-smi topo -m}.
     */
    public String deviceWord() {
      return deviceWord;
    }
  }

  private final String id;
  private final Vendor vendor;
  private final boolean simulated;

  Backend(String id, Vendor vendor, boolean simulated) {
    this.id = id;
    this.vendor = vendor;
    this.simulated = simulated;
  }

  public String id() {
    return id;
  }

  public Vendor vendor() {
    return vendor;
  }

  /** Whether this is linkwatch's simulator, whose figures are a model and not hardware. */
  public boolean simulated() {
    return simulated;
  }

  public static Backend parse(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    for (Backend b : values()) {
      if (b.id.equals(t)) {
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
