package io.linkwatch.http;

import static io.linkwatch.testing.FakeKubelet.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.linkwatch.config.ConfigLoader;
import io.linkwatch.kubelet.PodHolderLookup;
import io.linkwatch.kubelet.PodLookup;
import io.linkwatch.kubelet.PodResourcesClient;
import io.linkwatch.metrics.LinkwatchCollector;
import io.linkwatch.probe.result.BusyReason;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.state.ResultStore;
import io.linkwatch.testing.FakeKubelet;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A busy device's pod, from a fake kubelet through the store to {@code /metrics} and {@code
 * /api/v1/status} of a served HttpApi: the labels appear while the device is busy and go when it is
 * free, and a kubelet that fails is reported there instead of failing anything.
 */
class PodHoldersStatusTest {
  static final Duration TIMEOUT = Duration.ofMillis(800);

  @TempDir Path dir;

  @BeforeAll
  static void loadTheClasses(@TempDir Path warm) throws Exception {
    FakeKubelet.warmUp(warm);
  }

  @Test
  void aBusyDeviceNamesItsPodInTheMetricsAndTheStatus() throws Exception {
    Path socket = dir.resolve("kubelet.sock");
    try (FakeKubelet kubelet = FakeKubelet.start(socket);
        Node node = Node.start(socket)) {
      ResultStore store = node.store();
      Served served = node.served();
      kubelet.answer(
          pod("ml", "train-0", "trainer", "huawei.com/Ascend910", "Ascend910-5"),
          pod("ml", "idle-1", "waiter", "huawei.com/Ascend910", "Ascend910-4"));
      node.deviceOneBusy();

      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  store.podLookup().map(l -> l.result() == PodLookup.Result.SUCCESS).orElse(false));
      String metrics = served.get("/metrics");
      assertThat(metrics)
          .contains(
              "linkwatch_device_busy_reason{device=\"1\",namespace=\"ml\",pod=\"train-0\",reason=\"process\"} 1.0")
          .contains("linkwatch_pod_resources_lookups_total{result=\"success\"} 1.0")
          .doesNotContain("idle-1");
      JsonObject status = new JsonObject(served.get("/api/v1/status"));
      JsonObject device = status.getJsonArray("devices").getJsonObject(0);
      assertThat(device.getInteger("device")).isEqualTo(1);
      assertThat(device.getJsonArray("holders").getJsonObject(0).getMap())
          .isEqualTo(
              Map.of(
                  "namespace", "ml",
                  "pod", "train-0",
                  "container", "trainer",
                  "resource", "huawei.com/Ascend910",
                  "device_id", "Ascend910-5"));
      assertThat(status.getJsonObject("pod_resources").getString("result")).isEqualTo("success");
      // The pod is a job running now, after the Slurm jobs the prologs recorded: a finding that
      // appears names it.
      store.recordRunningJobs(List.of("4711"));
      assertThat(store.runningJobs()).containsExactly("4711", "pod ml/train-0");

      // The device is free again: its pod's series are gone, and no lookup was needed for it.
      store.record(checked(false));
      assertThat(store.runningJobs()).as("no pod holds a busy device").containsExactly("4711");
      String after = served.get("/metrics");
      assertThat(after)
          .contains("linkwatch_device_busy{device=\"1\"} 0.0")
          .doesNotContain("train-0");
      assertThat(
              new JsonObject(served.get("/api/v1/status"))
                  .getJsonArray("devices")
                  .getJsonObject(0)
                  .containsKey("holders"))
          .isFalse();
      assertThat(kubelet.calls()).hasSize(1);
    }
  }

  @Test
  void aHangingKubeletIsReportedAndNothingWaitsForIt() throws Exception {
    Path socket = dir.resolve("kubelet.sock");
    try (FakeKubelet kubelet = FakeKubelet.start(socket);
        Node node = Node.start(socket)) {
      ResultStore store = node.store();
      Served served = node.served();
      kubelet.mode(FakeKubelet.Mode.HANG);
      long started = System.nanoTime();
      node.deviceOneBusy();
      // Recording the run (what a probe run does) did not wait for the kubelet, nor does a scrape.
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(TIMEOUT);
      assertThat(served.get("/metrics"))
          .contains("linkwatch_device_busy_reason{device=\"1\",reason=\"process\"} 1.0");

      await().atMost(Duration.ofSeconds(10)).until(() -> store.podLookup().isPresent());
      JsonObject lastLookup =
          new JsonObject(served.get("/api/v1/status")).getJsonObject("pod_resources");
      assertThat(lastLookup.getString("result")).isEqualTo("timeout");
      assertThat(lastLookup.getString("error")).contains(socket.toString()).contains("within");
      assertThat(served.get("/metrics"))
          .contains("linkwatch_pod_resources_lookups_total{result=\"timeout\"} 1.0")
          .contains("linkwatch_device_busy_reason{device=\"1\",reason=\"process\"} 1.0");
    }
  }

  @Test
  void withoutASocketTheBusyReasonStaysAsItWasAndNothingIsCounted() throws Exception {
    Path socket = dir.resolve("absent.sock");
    try (Node node = Node.start(socket)) {
      ResultStore store = node.store();
      Served served = node.served();
      node.deviceOneBusy();
      assertThat(store.podLookup())
          .hasValueSatisfying(l -> assertThat(l.result()).isEqualTo(PodLookup.Result.ABSENT));
      String metrics = served.get("/metrics");
      assertThat(metrics)
          .contains("linkwatch_device_busy_reason{device=\"1\",reason=\"process\"} 1.0")
          .doesNotContain("linkwatch_pod_resources_lookups_total");
      assertThat(
              new JsonObject(served.get("/api/v1/status"))
                  .getJsonObject("pod_resources")
                  .getString("result"))
          .isEqualTo("absent");
    }
  }

  @Test
  void aKubeletThatAnswersGarbageIsCountedAsAnError() throws Exception {
    Path socket = dir.resolve("kubelet.sock");
    try (FakeKubelet kubelet = FakeKubelet.start(socket);
        Node node = Node.start(socket)) {
      ResultStore store = node.store();
      Served served = node.served();
      kubelet.mode(FakeKubelet.Mode.GARBAGE);
      node.deviceOneBusy();
      await().atMost(Duration.ofSeconds(10)).until(() -> store.podLookup().isPresent());
      assertThat(store.podLookup().orElseThrow().result()).isEqualTo(PodLookup.Result.ERROR);
      assertThat(served.get("/metrics"))
          .contains("linkwatch_pod_resources_lookups_total{result=\"error\"} 1.0")
          .contains("linkwatch_device_busy_reason{device=\"1\",reason=\"process\"} 1.0");
    }
  }

  /**
   * The agent's side as {@code Agent} wires it: a store whose recorded device checks go to the
   * kubelet lookup, served over HTTP.
   */
  private record Node(ResultStore store, PodHolderLookup lookup, Served served)
      implements AutoCloseable {
    static Node start(Path socket) throws Exception {
      ResultStore store = new ResultStore(Clock.systemUTC());
      PodHolderLookup lookup =
          new PodHolderLookup(
              new PodResourcesClient(socket, TIMEOUT),
              TIMEOUT,
              store::deviceKeys,
              store::recordPodLookup,
              Clock.systemUTC());
      store.onDevicesChecked(lookup::checked);
      return new Node(store, lookup, Served.start(store));
    }

    /** The topology probe ran, then a p2p run found device 1 busy. */
    void deviceOneBusy() {
      store.record(topology());
      store.record(checked(true));
    }

    @Override
    public void close() {
      served.close();
      lookup.close();
    }
  }

  /** The topology probe's inventory: device 0 is phy_id 4, device 1 phy_id 5. */
  private static ProbeRun topology() {
    return ProbeRun.of(
        "topology",
        List.of(
            TargetResult.success(
                "links",
                0.1,
                List.of(
                    new DeviceInfo(0, "Ascend910_9382", 4, null, "", 64L << 30),
                    new DeviceInfo(1, "Ascend910_9382", 5, null, "", 64L << 30)))));
  }

  /** A p2p run whose activity check found device 1 busy, or idle. */
  private static ProbeRun checked(boolean busy) {
    return new ProbeRun(
        "p2p",
        List.of(),
        "",
        List.of(
            new DeviceActivity(
                1,
                busy,
                "dcmi",
                busy
                    ? List.of(new BusyReason(BusyReason.Kind.PROCESS, "pid 4242 holds 2GiB"))
                    : List.of(),
                List.of(),
                Map.of(),
                null,
                System.currentTimeMillis())),
        List.of());
  }

  /** The agent's HTTP side on a free port, serving {@code store}. */
  private record Served(HttpApi http) implements AutoCloseable {
    static Served start(ResultStore store) throws Exception {
      PrometheusRegistry registry = new PrometheusRegistry();
      registry.register(
          new LinkwatchCollector(store, ProbeKind::write, Map.of(), "1.2.3", "sim", 86400));
      return new Served(
          HttpApi.start(
              "127.0.0.1", 0, registry, store, null, Map::of, ConfigLoader.defaults().web()));
    }

    String get(String path) throws Exception {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      return r.body();
    }

    @Override
    public void close() {
      http.close();
    }
  }
}
