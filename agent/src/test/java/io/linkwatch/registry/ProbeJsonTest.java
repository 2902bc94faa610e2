package io.linkwatch.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.activity.BusyPolicy;
import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.devicememory.DeviceMemoryBandwidth;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.Backend;
import io.linkwatch.util.Json;
import io.linkwatch.worker.WorkerRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The codec of what crosses the worker boundary: exact round trips and strict reading. */
class ProbeJsonTest {
  @Test
  void aRunWithAFailedFigureRoundTripsExactly() throws IOException {
    ProbeRun run =
        ProbeRun.of(
            "device_memory",
            List.of(
                TargetResult.success(
                    "0",
                    0.25,
                    List.of(
                        new DeviceMemoryBandwidth(0, 1L << 30, Double.NaN),
                        new DeviceMemoryBandwidth(1, 1L << 30, Double.POSITIVE_INFINITY),
                        new DeviceMemoryBandwidth(2, Long.MAX_VALUE, 1.5e12))),
                TargetResult.failure("3", Outcome.ERROR, "aclrtMemcpy failed: 507899", 0.5)));

    String json = ProbeKind.JSON.write(run);

    assertThat(json).contains("\"type\":\"DeviceMemoryBandwidth\"").contains("NaN");
    assertThat(ProbeKind.JSON.read(json, ProbeRun.class)).isEqualTo(run);
  }

  @Test
  void aRequestKeepsItsDurationsToTheNanosecondAndItsPaths() throws IOException {
    BusyPolicy busy = BusyPolicy.DEFAULTS.withPolicy(BusyPolicy.Mode.IGNORE);
    WorkerRequest request =
        new WorkerRequest(
            "p2p",
            ProbeKind.P2P.defaults(),
            Backend.SIM,
            new HostPaths(Path.of("/tmp/fixture/proc"), Path.of("/tmp/fixture/sys")),
            List.of("npu-smi", "info"),
            busy,
            List.of("0->1"),
            Map.of(0, 123L, 7, 1L << 40));

    WorkerRequest back = ProbeKind.JSON.read(ProbeKind.JSON.write(request), WorkerRequest.class);

    assertThat(back).isEqualTo(request);
    assertThat(ProbeKind.JSON.write(Duration.ofMillis(2500).plusNanos(7))).isEqualTo("2.500000007");
  }

  @Test
  void anUnknownFieldOrAMissingTypeIsAnErrorNotALostValue() {
    assertThatThrownBy(
            () ->
                ProbeKind.JSON.read(
                    "{\"type\":\"DeviceMemoryBandwidth\",\"device\":0,\"bytesPerSecnd\":1.0}",
                    Measurement.class))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("DeviceMemoryBandwidth has no field 'bytesPerSecnd'");
    assertThatThrownBy(() -> ProbeKind.JSON.read("{\"device\":0}", Measurement.class))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Measurement must start with its 'type' name");
    assertThatThrownBy(() -> ProbeKind.JSON.read("{\"probe\":", ProbeRun.class))
        .isInstanceOf(IOException.class);
  }

  @Test
  void onlyRecordsCanBeTagged() {
    assertThatThrownBy(
            () -> Json.tagging(Set.of(Measurement.class), Map.of("NotARecord", NotARecord.class)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is not a record");
  }

  static final class NotARecord implements Measurement {
    @Override
    public String summary() {
      return "";
    }
  }
}
