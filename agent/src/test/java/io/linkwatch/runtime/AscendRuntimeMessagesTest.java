package io.linkwatch.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.linkwatch.probe.SimFaults;
import io.linkwatch.runtime.ascend.AscendRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * AscendCL keeps the text of failed calls per thread until aclGetRecentErrMsg reads it, newest on
 * top (the sim too): a failure whose text is not read is handed out with the next error. HCCL
 * failures leave text there as well.
 */
class AscendRuntimeMessagesTest {
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

    assertThat(acl.getMessage()).startsWith("aclrtMalloc returned 207001").doesNotContain("Hccl");
  }
}
