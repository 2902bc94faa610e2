package io.linkwatch.runtime.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceEvent;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The binding keeps the driver's context rules, which the sim's CUDA face enforces
 * (native/README.md, "CUDA face"): work in "the current context" needs one current on the calling
 * thread (201, CUDA_ERROR_INVALID_CONTEXT), and a stream, an event or memory is used only while its
 * own device's context is current (400, CUDA_ERROR_INVALID_HANDLE). Each rule is shown broken
 * through the raw library first, so the runtime's passing calls mean it really switches contexts.
 */
class CudaRuntimeStrictnessTest {
  private static final int CUDA_ERROR_INVALID_CONTEXT = 201;
  private static final int CUDA_ERROR_INVALID_HANDLE = 400;

  private static CudaRuntime runtime;
  private static CudaLibrary raw;

  @BeforeAll
  static void open() {
    runtime = CudaRuntime.open(Backend.SIM_CUDA, CallJournal.NONE);
    raw = CudaLibraries.load(Backend.SIM_CUDA, CallJournal.NONE).cuda();
  }

  @AfterAll
  static void close() {
    runtime.close();
  }

  @Test
  void aStreamIsUsedAndDestroyedInItsOwnDevicesContextWhateverDeviceIsCurrent() {
    long live = runtime.liveAllocations().orElseThrow();
    int bytes = 1 << 20;
    try (DeviceStream s0 = runtime.createStream(0);
        DeviceEvent start = runtime.createEvent(0);
        DeviceEvent end = runtime.createEvent(0);
        DeviceBuffer a = runtime.allocate(0, bytes);
        DeviceBuffer b = runtime.allocate(0, bytes)) {
      runtime.allocate(1, 4096).close(); // device 1 is now current on this thread
      assertThat(raw.cuStreamSynchronize(new Pointer(s0.address())))
          .as("device 0's stream with device 1's context current")
          .isEqualTo(CUDA_ERROR_INVALID_HANDLE);

      runtime.record(start, s0);
      runtime.copyAsync(b, 0, a, 0, bytes, s0);
      runtime.record(end, s0);
      runtime.synchronize(s0);
      assertThat(runtime.elapsedMillis(start, end)).isPositive();
      runtime.allocate(1, 4096).close(); // and device 1 again, before everything of 0 is closed
    }

    assertThat(runtime.liveAllocations()).contains(live);
    assertThat(runtime.toleratedFailures()).isEmpty();
  }

  /** A rank's thread, like any new thread, starts with no context current. */
  @Test
  void aThreadThatNeverMadeAContextCurrentGetsItsDevicesForItsFirstCall() throws Exception {
    var thread = Executors.newSingleThreadExecutor();
    try {
      int unbound =
          CompletableFuture.supplyAsync(
                  () -> raw.cuStreamCreate(new PointerByReference(), 0), thread)
              .get(30, TimeUnit.SECONDS);
      assertThat(unbound).isEqualTo(CUDA_ERROR_INVALID_CONTEXT);

      var fresh = Executors.newSingleThreadExecutor();
      try {
        int device =
            CompletableFuture.supplyAsync(
                    () -> {
                      try (DeviceStream s = runtime.createStream(1)) {
                        runtime.synchronize(s);
                        return s.device();
                      }
                    },
                    fresh)
                .get(30, TimeUnit.SECONDS);
        assertThat(device).isEqualTo(1);
      } finally {
        fresh.shutdownNow();
      }
    } finally {
      thread.shutdownNow();
    }
  }
}
