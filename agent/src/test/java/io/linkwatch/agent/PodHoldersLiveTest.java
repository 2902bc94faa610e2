package io.linkwatch.agent;

import static io.linkwatch.testing.FakeKubelet.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.FakeKubelet;
import io.linkwatch.testing.JsonTrees;
import io.linkwatch.testing.SimFace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The agent process on the sim, with a fake kubelet on the configured pod-resources socket: a job
 * on device 1 is named by its pod in {@code linkwatch_device_busy_reason} and {@code
 * /api/v1/status} once the kubelet allocated that device to it (by phy_id as Huawei's plugin names
 * it, by NVML UUID as NVIDIA's does by default), and the pod's series go when the job ends.
 */
class PodHoldersLiveTest {
  static final Pattern PHY_ID =
      Pattern.compile("linkwatch_device_info\\{device=\"1\",[^}]*phy_id=\"(\\d+)\"");

  @TempDir Path dir;

  /** The CUDA face's NVML UUID of the GPU with this NVML index (native/src/nvml.c). */
  static String uuid(String nvmlIndex) {
    return String.format("GPU-51110000-0000-4000-8000-%012x", Integer.parseInt(nvmlIndex));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void aBusyDeviceIsNamedByThePodTheKubeletGaveItTo(SimFace face) throws Exception {
    Path socket = dir.resolve("kubelet.sock");
    String config =
        "busy:\n  retry: 1s\n  pod_resources_socket: "
            + socket
            + "\n  pod_resources_timeout: 1s\n"
            + """
            passive:
              interval: 2s
              deadline: 1s
            probes:
              topology:
                every: 60s
                deadline: 30s
              device_memory:
                every: 5s
                deadline: 4s
                size: 16MiB
                warmup: 1
                iterations: 2
            """;
    try (FakeKubelet kubelet = FakeKubelet.start(socket);
        AgentProcess agent =
            AgentProcess.start(dir, face, AgentProcess.onlyProbes(config), Map.of())) {
      String inventory =
          agent.awaitMetrics(Duration.ofSeconds(60), "linkwatch_device_info{device=\"1\"");
      Matcher phy = PHY_ID.matcher(inventory);
      assertThat(phy.find()).as("device 1's phy_id in\n%s", inventory).isTrue();
      kubelet.answer(
          face == SimFace.ASCEND
              ? pod("ml", "train-0", "trainer", "huawei.com/Ascend910", "Ascend910-" + phy.group(1))
              : pod("ml", "train-0", "trainer", "nvidia.com/gpu", uuid(phy.group(1))),
          pod("ml", "other-1", "trainer", "huawei.com/Ascend910", "Ascend910-999"));

      agent.faults("busy 1 pid 4242 util 80");
      String busy =
          agent.awaitMetrics(
              Duration.ofSeconds(60),
              "linkwatch_device_busy_reason{device=\"1\",namespace=\"ml\",pod=\"train-0\",reason=\"process\"} 1.0",
              "linkwatch_pod_resources_lookups_total{result=\"success\"}");
      assertThat(busy).doesNotContain("other-1");
      JsonNode status = JsonTrees.MAPPER.readTree(agent.get("/api/v1/status").body());
      assertThat(status.get("devices"))
          .filteredOn(d -> d.get("device").asInt() == 1)
          .singleElement()
          .satisfies(
              d -> {
                JsonNode holder = d.at("/holders/0");
                assertThat(
                        List.of(
                            holder.get("namespace").asText(),
                            holder.get("pod").asText(),
                            holder.get("container").asText()))
                    .containsExactly("ml", "train-0", "trainer");
              });
      assertThat(status.at("/pod_resources/result").asText()).isEqualTo("success");

      if (face == SimFace.ASCEND) {
        // A finding that appears while the pod holds its device names the pod as the job that
        // saw it (the naming is the store's, whatever the face).
        agent.faults("busy 1 pid 4242 util 80", "sio 0 crc-rx 50");
        JsonNode[] finding = new JsonNode[1];
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500))
            .until(
                () -> {
                  JsonNode now = JsonTrees.MAPPER.readTree(agent.get("/api/v1/status").body());
                  for (JsonNode f : now.path("findings")) {
                    if (f.path("code").asText().equals("LW-LINK-ERRORS")) {
                      finding[0] = f;
                      return true;
                    }
                  }
                  return false;
                });
        assertThat(finding[0].get("jobs"))
            .as("the jobs of %s", finding[0])
            .extracting(JsonNode::asText)
            .contains("pod ml/train-0");
        agent.faults("busy 1 pid 4242 util 80");
      }

      // The job ends: the next check finds the device idle and its pod's series are gone.
      agent.faults();
      String idle =
          agent.awaitMetrics(Duration.ofSeconds(60), "linkwatch_device_busy{device=\"1\"} 0.0");
      assertThat(idle).doesNotContain("train-0");
      assertThat(kubelet.calls())
          .isNotEmpty()
          .allSatisfy(c -> assertThat(c.method()).isEqualTo("v1.PodResourcesLister/List"));
    }
  }
}
