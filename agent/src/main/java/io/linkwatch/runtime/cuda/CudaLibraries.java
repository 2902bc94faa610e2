package io.linkwatch.runtime.cuda;

import com.sun.jna.Library;
import com.sun.jna.Native;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.BackendUnavailableException;
import io.linkwatch.runtime.binding.SimLibrary;
import io.linkwatch.runtime.calls.CallJournal;
import io.linkwatch.runtime.calls.TracedLibrary;
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
public final class CudaLibraries {
  static final String CUDA = "libcuda.so.1";
  static final String NVML = "libnvidia-ml.so.1";
  static final String NCCL = "libnccl.so.2";

  private final Backend backend;
  private final CudaLibrary cuda;
  private final Optional<SimLibrary> sim;
  private final String simPath;
  private final CallJournal journal;
  private NvmlLibrary nvml;
  private NcclLibrary nccl;

  private CudaLibraries(
      Backend backend,
      CudaLibrary cuda,
      Optional<SimLibrary> sim,
      String simPath,
      CallJournal journal) {
    this.backend = backend;
    this.cuda = TracedLibrary.wrap(CudaLibrary.class, cuda, journal);
    this.sim = sim;
    this.simPath = simPath;
    this.journal = journal;
  }

  public static CudaLibraries load(Backend backend, CallJournal journal) {
    if (backend == Backend.SIM_CUDA) {
      String path = SimLibrary.path();
      try {
        return new CudaLibraries(
            backend,
            Native.load(path, CudaLibrary.class),
            Optional.of(Native.load(path, SimLibrary.class)),
            path,
            journal);
      } catch (UnsatisfiedLinkError e) {
        throw BackendUnavailableException.simNotLoadable(e);
      }
    }
    if (backend != Backend.CUDA) {
      throw new IllegalArgumentException("not an NVIDIA backend: " + backend.id());
    }
    try {
      return new CudaLibraries(
          backend, Native.load(CUDA, CudaLibrary.class), Optional.empty(), null, journal);
    } catch (UnsatisfiedLinkError e) {
      throw new BackendUnavailableException(
          CUDA + " not found: install the NVIDIA driver, or use --backend sim-cuda", e);
    }
  }

  /** Whether the driver's library can be loaded here, without initializing it. */
  public static boolean driverPresent() {
    try {
      Native.load(CUDA, CudaLibrary.class);
      return true;
    } catch (UnsatisfiedLinkError e) {
      return false;
    }
  }

  public Backend backend() {
    return backend;
  }

  public CudaLibrary cuda() {
    return cuda;
  }

  public CallJournal journal() {
    return journal;
  }

  public Optional<SimLibrary> sim() {
    return sim;
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
    String actual = backend == Backend.SIM_CUDA ? simPath : name;
    try {
      return TracedLibrary.wrap(type, Native.load(actual, type), journal);
    } catch (UnsatisfiedLinkError e) {
      throw new BackendUnavailableException(name + " not found: " + hint, e);
    }
  }
}
