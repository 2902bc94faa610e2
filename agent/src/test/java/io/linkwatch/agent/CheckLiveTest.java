package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.linkwatch.testing.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code linkwatch check} as a prolog runs it: a child process per check on each face of the sim,
 * with faults from its own control file. Exit codes and first lines for OK, FAIL (a link under its
 * product's floor, a link down) and UNKNOWN (a busy device, a hung call past the timeout, no device
 * library), each format's codes, the JSON document, the operator's expected figures, a bad device
 * list.
 */
class CheckLiveTest {
  @TempDir Path dir;

  private Path control;
  private Path config;

  @BeforeEach
  void files() throws Exception {
    control = dir.resolve("control");
    config = dir.resolve("linkwatch.yaml");
    // The lock in this test's own directory: the check holds it (coordinated), no agent runs.
    Files.writeString(config, "coordination:\n  lock_file: " + dir.resolve("probes.lock") + "\n");
  }

  private JavaProcess.Result check(String faults, String... args) throws Exception {
    if (faults.isEmpty()) {
      Files.deleteIfExists(control);
    } else {
      Files.writeString(control, faults + "\n");
    }
    List<String> all = new ArrayList<>(List.of("check", "--config", config.toString()));
    // Nothing answers on port 1: the check runs as on a host without an agent.
    all.addAll(List.of("--url", "http://127.0.0.1:1"));
    all.addAll(List.of(args));
    return JavaProcess.run(
        Map.of("LINKWATCH_SIM_CONTROL", control.toString()),
        Duration.ofSeconds(120),
        all.toArray(String[]::new));
  }

  private static String first(JavaProcess.Result r) {
    String line = r.out().lines().findFirst().orElse("");
    assertThat(line).as(r.out() + r.err()).hasSizeLessThanOrEqualTo(80);
    return line;
  }

  @Test
  void ascendQuickOkFailAndUnknown() throws Exception {
    JavaProcess.Result ok = check("", "--backend", "sim");
    assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
    assertThat(first(ok)).isEqualTo("OK - 2 devices, 2 p2p figures, 2 links: as expected");
    assertThat(ok.out()).contains("checked (quick) in ", "probe lock: held " + dir);
    // The last check is kept beside the lock for the agent's /metrics.
    assertThat(dir.resolve("last-check-quick.json")).content().contains("\"state\":\"OK\"");
    // With no agent to ask, status stays UNKNOWN and shows the last saved check for a person.
    JavaProcess.Result status =
        JavaProcess.run(
            Map.of(),
            Duration.ofSeconds(30),
            "status",
            "--config",
            config.toString(),
            "--url",
            "http://127.0.0.1:1");
    assertThat(status.exit()).isEqualTo(2);
    assertThat(status.out())
        .containsPattern(
            "note: last check quick [0-9]+s ago: OK - 2 devices, 2 p2p figures, 2 links: as"
                + " expected");

    // 256 MiB at half the SIO link's rate: ~80 GB/s, under the A3's floor of 124.1 GB/s.
    JavaProcess.Result fail = check("link 0 1 scale 0.5", "--backend", "sim");
    assertThat(fail.exit()).as(fail.out() + fail.err()).isEqualTo(1);
    assertThat(first(fail)).startsWith("FAIL - p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR ");
    JavaProcess.Result nagios =
        check("link 0 1 scale 0.5", "--backend", "sim", "--format", "nagios");
    assertThat(nagios.exit()).isEqualTo(2);
    assertThat(first(nagios)).startsWith("CRITICAL - p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR ");

    // A job on device 1: not measured, so no verdict on its links (npd: 2 Unknown, one line).
    JavaProcess.Result busy =
        check("busy 1 pid 4242 util 80", "--backend", "sim", "--format", "npd");
    assertThat(busy.exit()).as(busy.out() + busy.err()).isEqualTo(2);
    assertThat(busy.out().lines()).hasSize(1);
    assertThat(first(busy)).startsWith("UNKNOWN - p2p 0->1: LW-DEVICE-BUSY device 1 is busy");
    // --force measures anyway: the job's share of the link makes the figure fail.
    JavaProcess.Result forced = check("busy 1 pid 4242 util 80", "--backend", "sim", "--force");
    assertThat(forced.exit()).as(forced.out()).isEqualTo(1);
    assertThat(first(forced)).contains("LW-BELOW-FLOOR");

    // A copy that never returns: the worker is killed at what is left of the timeout, and the
    // call is named; what did not fit is UNKNOWN too, never FAIL.
    long started = System.nanoTime();
    JavaProcess.Result hung =
        check("hang aclrtMemcpy\nhang aclrtMemcpyAsync", "--backend", "sim", "--timeout", "10s");
    double took = (System.nanoTime() - started) / 1e9;
    assertThat(hung.exit()).as(hung.out() + hung.err()).isEqualTo(2);
    assertThat(first(hung)).startsWith("UNKNOWN - p2p p2p: LW-TIMEOUT timeout in aclrtMemcpy");
    assertThat(hung.out()).contains("LW-TIMEOUT no time left for allreduce within 10s");
    assertThat(took).as("the whole check within its timeout, plus a JVM start").isLessThan(25);

    // No device library: UNKNOWN (this machine has no CANN), Nagios' 3.
    JavaProcess.Result none = check("", "--backend", "ascend", "--format", "nagios");
    assertThat(none.exit()).as(none.out() + none.err()).isEqualTo(3);
    assertThat(first(none)).startsWith("UNKNOWN - backend ascend: LW-NO-RUNTIME ");
  }

  @Test
  void nvidiaQuickOkAndLinkDown() throws Exception {
    JavaProcess.Result ok = check("", "--backend", "sim-cuda");
    assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
    assertThat(first(ok)).isEqualTo("OK - 8 devices, 56 p2p figures, 144 links: as expected");
    // One of GPU 0's 18 NVLinks down: its copies still pass the floor, the link state fails.
    JavaProcess.Result down = check("nvlink 0 3 down", "--backend", "sim-cuda", "--devices", "0-1");
    assertThat(down.exit()).as(down.out() + down.err()).isEqualTo(1);
    assertThat(first(down))
        .matches(
            "FAIL - dev0 NVLINK link 3 \\(to nvswitch\\): LW-LINK-DOWN down \\(read [0-9]+s ago\\)");
    // Only the job's devices are measured and judged.
    assertThat(down.out()).contains("p2p 0->1 ").doesNotContain("p2p 2->", "dev2 ");
    // The same host, its product declared to leave link 3 inactive by design: no finding, and a
    // note says which link was not judged.
    String plain = Files.readString(config);
    Files.writeString(
        config,
        plain
            + "inactive_links:\n"
            + "  - {product: NVIDIA, link: NVLINK, links: 3, source: not wired on this SKU}\n");
    JavaProcess.Result byDesign =
        check("nvlink 0 3 down", "--backend", "sim-cuda", "--devices", "0-1");
    Files.writeString(config, plain);
    // The sim's copies lose that link's share of the bandwidth (a warning against the H200's
    // shipped figure); the state of the link itself is no longer a failure.
    assertThat(byDesign.exit()).as(byDesign.out() + byDesign.err()).isZero();
    assertThat(first(byDesign)).doesNotStartWith("FAIL");
    assertThat(byDesign.out())
        .doesNotContain("LW-LINK-DOWN")
        .contains("inactive by design, not judged: NVIDIA NVLINK links 3 (not wired on this SKU)");

    // The same UNKNOWNs as on Ascend: a job on GPU 1 (NVML lists its process), a hung copy.
    JavaProcess.Result busy =
        check("busy 1 pid 4242 util 80", "--backend", "sim-cuda", "--devices", "0,1");
    assertThat(busy.exit()).as(busy.out() + busy.err()).isEqualTo(2);
    assertThat(first(busy)).startsWith("UNKNOWN - p2p 0->1: LW-DEVICE-BUSY device 1 is busy");
    JavaProcess.Result hung =
        check(
            "hang cuMemcpyPeerAsync\nhang cuMemcpyDtoDAsync_v2\nhang cuMemcpyPeer",
            "--backend",
            "sim-cuda",
            "--devices",
            "0,1",
            "--timeout",
            "10s");
    assertThat(hung.exit()).as(hung.out() + hung.err()).isEqualTo(2);
    assertThat(first(hung)).startsWith("UNKNOWN - p2p p2p: LW-TIMEOUT timeout in cuMemcpy");
  }

  @Test
  void jsonOperatorFiguresAndBadDevices() throws Exception {
    JavaProcess.Result json = check("", "--backend", "sim", "--json");
    assertThat(json.exit()).as(json.out() + json.err()).isZero();
    JsonObject doc = JsonParser.parseString(json.out()).getAsJsonObject();
    assertThat(doc.get("schema_version").getAsInt()).isEqualTo(2);
    assertThat(doc.get("state").getAsString()).isEqualTo("OK");
    assertThat(doc.get("exit_code").getAsInt()).isZero();
    assertThat(doc.get("level").getAsString()).isEqualTo("quick");
    assertThat(doc.getAsJsonArray("targets").toString())
        .contains("\"probe\":\"p2p\"", "\"probe\":\"allreduce\"", "\"type\":\"P2pBandwidth\"");
    assertThat(doc.getAsJsonObject("passive").getAsJsonArray("devices").toString())
        .contains("\"source\":\"dcmi\"");

    // The operator's figure for this site comes before the shipped table: the same healthy link
    // now fails against it.
    Files.writeString(
        config,
        Files.readString(config)
            + """
            expected:
              - product: Ascend910_93
                link: SIO
                size: 256MiB
                floor_gbps: 500
                warn_gbps: 520
                source: site acceptance test
            """);
    JavaProcess.Result strict = check("", "--backend", "sim");
    assertThat(strict.exit()).as(strict.out() + strict.err()).isEqualTo(1);
    assertThat(first(strict))
        .startsWith("FAIL - p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR ")
        .contains(", floor 500.0 GB/s");

    // A device the host does not have is the caller's mistake: a usage error, not a verdict.
    JavaProcess.Result bad = check("", "--backend", "sim", "--devices", "0,7");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.out()).isEmpty();
    assertThat(bad.err().strip())
        .isEqualTo("linkwatch: --devices: no device 7 on this host (it has 2: 0-1)");
  }
}
