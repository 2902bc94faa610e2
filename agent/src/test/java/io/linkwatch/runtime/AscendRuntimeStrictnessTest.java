package io.linkwatch.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.linkwatch.probe.SimFaults;
import io.linkwatch.runtime.ascend.AscendRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The binding keeps the documented rules the sim enforces as CANN does (native/README.md, "As
 * strict as the documented runtime"): streams are destroyed in their own device's context, and
 * failure texts, which pile up per thread until aclGetRecentErrMsg reads them, are read after every
 * failure, HCCL's included, so none is handed out with a later error.
 */
class AscendRuntimeStrictnessTest {
  private static AscendRuntime runtime;

  @BeforeAll
  static void open() {
    runtime = AscendRuntime.open(Backend.SIM);
  }

  @AfterAll
  static void close() {
    SimFaults.clear();
    runtime.close();
  }

  /**
   * The runtime destroys a stream only in its own device's context (aclrtDestroyStream: "the stream
   * must be in the current context"); the sim refuses otherwise, as CANN does (107003). A stream
   * closed after another device became current on the thread is still destroyed.
   */
  @Test
  void aStreamIsDestroyedInItsOwnDevicesContextWhateverDeviceIsCurrent() throws Exception {
    long live = runtime.liveAllocations().orElseThrow();
    DeviceStream s0 = runtime.createStream(0);
    DeviceBuffer onDevice1 = runtime.allocate(1, 4096); // device 1 is now current on this thread
    s0.close();
    onDevice1.close();

    assertThat(runtime.liveAllocations()).contains(live);
  }

  @Test
  void anHcclFailureLeavesNoStaleTextForTheNextAscendClError() {
    SimFaults.set("fail HcclCommInitAll 7");
    DeviceException hccl =
        catchThrowableOfType(DeviceException.class, () -> runtime.initCollective(new int[] {0, 1}));
    SimFaults.clear(runtime);
    assertThat(hccl.getMessage())
        .isEqualTo(
            "HcclCommInitAll returned 7: resource unavailable"
                + " (injected fault: HcclCommInitAll returned 7)");

    DeviceException acl =
        catchThrowableOfType(DeviceException.class, () -> runtime.allocate(0, 1L << 50));

    assertThat(acl.getMessage())
        .startsWith("aclrtMallocWithCfg returned 207001")
        .doesNotContain("Hccl");
  }
}
