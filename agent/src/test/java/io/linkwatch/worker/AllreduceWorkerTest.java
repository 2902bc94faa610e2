package io.linkwatch.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.SimFaults;
import io.linkwatch.probe.collective.AllreduceSettings;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.topology.CommandTopologySource;
import io.linkwatch.testing.SimFace;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A wedged collective call (HCCL, NCCL) is a worker timeout that names the call: the agent's JVM
 * kills the worker and carries on.
 */
class AllreduceWorkerTest {
  private final WorkerProcess worker = new WorkerProcess(List.of("-Xmx128m"));

  private static WorkerRequest request(SimFace face) {
    return new WorkerRequest(
        ProbeKind.ALLREDUCE.id(),
        new AllreduceSettings(List.of(1024L), 1, 3, List.of(0, 1)),
        face.backend(),
        HostPaths.system(),
        CommandTopologySource.DEFAULT_COMMAND);
  }

  @AfterEach
  void noFaults() {
    SimFaults.clear();
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void hangingAllreduceTimesOutAndTheNextRunSucceeds(SimFace face) {
    String call = face.symbol(SimFace.Call.ALLREDUCE);
    SimFaults.set("hang " + call);
    long started = System.nanoTime();

    ProbeRun hung = worker.run(request(face), Duration.ofSeconds(5), List.of("0,1"));

    assertThat((System.nanoTime() - started) / 1e9).isLessThan(15);
    assertThat(hung.targets()).hasSize(1);
    assertThat(hung.targets().get(0).target()).isEqualTo("0,1");
    assertThat(hung.targets().get(0).outcome()).isEqualTo(Outcome.TIMEOUT);
    // Both ranks wait in HcclAllReduce; the one that entered first is named, the other follows.
    assertThat(hung.targets().get(0).error())
        .matches(
            "timeout in "
                + call
                + " \\(device [01]\\) after [0-9.]+ s: the run passed its"
                + " deadline of 5s and the worker was killed; also in a call: "
                + call
                + " \\(device [01]\\)");
    assertThat(hung.targets().get(0).call()).isEqualTo(call);

    SimFaults.clear();
    ProbeRun next = worker.run(request(face), Duration.ofSeconds(60), List.of("0,1"));

    assertThat(next.targets()).hasSize(1);
    assertThat(next.targets().get(0).outcome())
        .as(next.targets().get(0).error())
        .isEqualTo(Outcome.SUCCESS);
    assertThat(next.targets().get(0).measurements()).hasSize(2);
  }
}
