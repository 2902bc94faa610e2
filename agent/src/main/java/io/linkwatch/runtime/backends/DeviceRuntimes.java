package io.linkwatch.runtime.backends;

import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.BackendUnavailableException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.ascend.AscendLibraries;
import io.linkwatch.runtime.ascend.AscendRuntime;
import io.linkwatch.runtime.calls.CallJournal;
import io.linkwatch.runtime.cuda.CudaLibraries;
import io.linkwatch.runtime.cuda.CudaRuntime;

/** Opens the {@link DeviceRuntime} of a backend: the one place that knows every vendor binding. */
public final class DeviceRuntimes {
  private DeviceRuntimes() {}

  public static DeviceRuntime open(Backend backend) {
    return open(backend, CallJournal.NONE);
  }

  /** A runtime whose every native call is marked in {@code journal} (a worker's). */
  public static DeviceRuntime open(Backend backend, CallJournal journal) {
    Backend b = resolve(backend);
    return switch (b.vendor()) {
      case ASCEND -> AscendRuntime.open(b, journal);
      case NVIDIA -> CudaRuntime.open(b, journal);
      case NONE -> throw new IllegalStateException("unresolved backend " + b.id());
    };
  }

  /**
   * Resolves the backend and loads its main library without touching a device, so a missing one
   * fails the start with its one-line message before anything runs.
   *
   * @return the backend {@code backend} stands for, never {@link Backend#AUTO}
   */
  public static Backend checkLoadable(Backend backend) {
    Backend b = resolve(backend);
    switch (b.vendor()) {
      case ASCEND -> AscendLibraries.load(b);
      case NVIDIA -> CudaLibraries.load(b, CallJournal.NONE);
      case NONE -> throw new IllegalStateException("unresolved backend " + b.id());
    }
    return b;
  }

  /**
   * {@link Backend#AUTO} becomes the backend whose vendor library the dynamic linker finds (CANN's
   * libascendcl.so, the NVIDIA driver's libcuda.so.1); any other backend is itself. A host with
   * neither, or with both, must be told which to use.
   *
   * @throws BackendUnavailableException naming what was looked for
   */
  public static Backend resolve(Backend backend) {
    if (backend != Backend.AUTO) {
      return backend;
    }
    boolean ascend = AscendLibraries.present();
    boolean cuda = CudaLibraries.driverPresent();
    if (ascend && cuda) {
      throw new BackendUnavailableException(
          "backend auto: both libascendcl.so and libcuda.so.1 are present; choose with --backend"
              + " ascend|cuda (or backend: in the config)",
          null);
    }
    if (ascend) {
      return Backend.ASCEND;
    }
    if (cuda) {
      return Backend.CUDA;
    }
    throw new BackendUnavailableException(
        "backend auto: neither libascendcl.so (CANN, after set_env.sh) nor libcuda.so.1 (NVIDIA"
            + " driver) was found; install one, or choose --backend sim or sim-cuda to run on the"
            + " simulator",
        null);
  }
}
