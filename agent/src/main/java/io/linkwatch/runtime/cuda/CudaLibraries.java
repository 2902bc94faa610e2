package io.linkwatch.runtime.cuda;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.binding.NativeLibraries;
import io.linkwatch.runtime.binding.SimLibrary;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.Optional;

/**
 * Loads the libraries behind the NVIDIA backends. {@code cuda} binds the driver API in {@code
 * libcuda.so.1} rather than the CUDA runtime: the driver package installs libcuda and NVML on every
 * GPU host, while {@code libcudart} comes with the toolkit or inside applications, so a monitoring
 * agent that needs only the driver runs on a bare host. The versioned file names are loaded because
 * the unversioned {@code libcuda.so} link belongs to the development package. NVML and NCCL load on
 * first use: a host without NCCL still runs every probe but the collectives, and one whose NVML is
 * broken still measures. {@code sim-cuda} loads all three from {@code liblinkwatch-sim.so}.
 */
public final class CudaLibraries extends NativeLibraries {
  static final String CUDA = "libcuda.so.1";
  static final String NVML = "libnvidia-ml.so.1";
  static final String NCCL = "libnccl.so.2";

  private final CudaLibrary cuda;
  private NvmlLibrary nvml;
  private NcclLibrary nccl;

  private CudaLibraries(
      Backend backend,
      CudaLibrary cuda,
      Optional<SimLibrary> sim,
      String simPath,
      CallJournal journal) {
    super(backend, sim, simPath, journal);
    this.cuda = traced(CudaLibrary.class, cuda);
  }

  public static CudaLibraries load(Backend backend, CallJournal journal) {
    Make<CudaLibrary, CudaLibraries> make =
        (cuda, sim, path) -> new CudaLibraries(backend, cuda, sim, path, journal);
    if (backend == Backend.SIM_CUDA) {
      return loadSim(CudaLibrary.class, make);
    }
    if (backend != Backend.CUDA) {
      throw new IllegalArgumentException("not an NVIDIA backend: " + backend.id());
    }
    String missing = CUDA + " not found: install the NVIDIA driver, or use --backend sim-cuda";
    return loadVendor(CUDA, CudaLibrary.class, missing, make);
  }

  /** Whether the driver's library can be loaded here, without initializing it. */
  public static boolean driverPresent() {
    return loadable(() -> Native.load(CUDA, CudaLibrary.class));
  }

  public CudaLibrary cuda() {
    return cuda;
  }

  /** NVML, from the driver package. */
  public synchronized NvmlLibrary nvml() {
    if (nvml == null) {
      nvml = loadOptional(NVML, NvmlLibrary.class, "it comes with the NVIDIA driver");
    }
    return nvml;
  }

  /** NCCL, where installed (a package of its own, or inside a framework's environment). */
  public synchronized NcclLibrary nccl() {
    if (nccl == null) {
      nccl =
          loadOptional(NCCL, NcclLibrary.class, "install NCCL (libnccl2) to measure collectives");
    }
    return nccl;
  }

  private <T extends Library> T loadOptional(String name, Class<T> type, String hint) {
    return loadTraced(name, type, name + " not found: " + hint);
  }
}
