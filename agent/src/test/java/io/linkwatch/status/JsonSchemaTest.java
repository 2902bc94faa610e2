package io.linkwatch.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.config.ConfigLoader;
import io.linkwatch.http.HttpApi;
import io.linkwatch.metrics.GoldenExpositionTest;
import io.linkwatch.state.ResultStore;
import io.linkwatch.testing.JavaProcess;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.JsonSchemaValidationException;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.Validator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The four JSON outputs people and programs read, each held to its definition in {@code
 * docs/linkwatch.schema.json}: {@code /api/v1/status} over real HTTP, and {@code probe --json},
 * {@code check --json} and {@code status --json} from the CLI in child processes. The schema
 * refuses a field of another spelling, so a renamed field fails here before it reaches a user.
 */
class JsonSchemaTest {
  static final Path SCHEMA = Path.of("..", "docs", "linkwatch.schema.json");
  static JsonObject root;

  @BeforeAll
  static void load() throws Exception {
    root = new JsonObject(Files.readString(SCHEMA));
  }

  /** A validator for one of the schema's documents, {@code #/$defs/NAME}. */
  static Validator validator(String name) {
    JsonObject schema = root.copy().put("$ref", "#/$defs/" + name);
    return Validator.create(
        JsonSchema.of(schema),
        new JsonSchemaOptions()
            .setDraft(Draft.DRAFT202012)
            .setBaseUri("https://linkwatch.invalid/")
            .setOutputFormat(OutputFormat.Basic));
  }

  static void assertValid(String name, String json) {
    try {
      validator(name).validate(new JsonObject(json)).checkValidity();
    } catch (JsonSchemaValidationException e) {
      throw new AssertionError(
          name + ": " + e.getMessage() + " at " + e.location() + "\n" + json, e);
    }
  }

  /** The golden fixture's store (one of every record), with a finding standing. */
  static ResultStore store() {
    ResultStore store = GoldenExpositionTest.fixedStore();
    store.recordFindings(
        List.of(
            new FindingEntry(
                "LW-DEVICE-SLOW",
                "FAIL",
                "device 3",
                "all 14 of its pairs low",
                Instant.parse("2026-12-04T01:00:00Z"),
                2)));
    store.peers(io.linkwatch.testing.PeerFixture::snapshot);
    store.pairs(() -> io.linkwatch.testing.PairRunsFixture.results().entries());
    return store;
  }

  /** The golden fixture's link readings, with the ports of the procfs InfiniBand fixture. */
  static io.linkwatch.passive.PassiveStore passive() throws java.io.IOException {
    io.linkwatch.passive.PassiveStore passive = GoldenExpositionTest.fixedPassive();
    passive.recordNicPorts(
        io.linkwatch.passive.PassiveSource.INFINIBAND,
        new io.linkwatch.passive.nic.InfinibandSysfs(
                Path.of("src/test/resources/fixtures/procfs-infiniband/sys"))
            .read());
    return passive;
  }

  @Test
  void theStatusDocumentAndStatusJsonAsServed() throws Exception {
    HttpApi http =
        HttpApi.start(
            "127.0.0.1",
            0,
            new PrometheusRegistry(),
            store(),
            passive(),
            () -> Map.of("p2p", Instant.parse("2026-12-04T01:05:00Z")),
            ConfigLoader.defaults().web());
    try {
      String url = "http://127.0.0.1:" + http.port();
      String status =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(url + "/api/v1/status")).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(new JsonObject(status).getJsonArray("findings")).hasSize(1);
      // the two-host runs: node-01's pairs with node-02 (both probes) and node-03 (skipped)
      assertThat(new JsonObject(status).getJsonObject("peers").getJsonArray("pairs")).hasSize(3);
      // the procfs fixture's four adapter ports, and the golden fixture's NPU port
      assertThat(new JsonObject(status).getJsonObject("passive").getJsonArray("nic_ports"))
          .hasSize(5);
      assertValid("status_document", status);

      JavaProcess.Result verdict =
          JavaProcess.run(Map.of(), Duration.ofSeconds(60), "status", "--url", url, "--json");
      assertThat(new JsonObject(verdict.out()).getString("agent")).isEqualTo(url);
      assertValid("status_output", verdict.out());
    } finally {
      http.close();
    }
  }

  @Test
  void probeJsonAndCheckJson() throws Exception {
    JavaProcess.Result probe =
        JavaProcess.run(
            Map.of(),
            Duration.ofSeconds(60),
            "probe",
            "p2p",
            "--backend",
            "sim",
            "--sizes",
            "1MiB",
            "--iterations",
            "2",
            "--json");
    assertThat(probe.exit()).as(probe.err()).isZero();
    assertValid("probe_run", probe.out());

    // Nothing answers on port 1: the check runs as on a host without an agent.
    JavaProcess.Result check =
        JavaProcess.run(
            Map.of(),
            Duration.ofSeconds(120),
            "check",
            "--backend",
            "sim",
            "--url",
            "http://127.0.0.1:1",
            "--json");
    assertThat(check.exit()).as(check.out() + check.err()).isZero();
    assertValid("check_output", check.out());
  }

  /** What the test guards against is caught: a field of the old spelling, a camelCase figure. */
  @Test
  void anotherSpellingFailsTheSchema() {
    String status =
        StatusCodec.encode(io.linkwatch.state.StatusDocuments.of(store(), null, Map.of()));
    assertValid("status_document", status);
    JsonObject doc = new JsonObject(status);
    JsonObject target = doc.getJsonArray("targets").getJsonObject(0);
    target.put("outcome", target.remove("result"));
    assertThatThrownBy(() -> validator("status_document").validate(doc).checkValidity())
        .isInstanceOf(JsonSchemaValidationException.class);

    JsonObject camel = new JsonObject(status);
    camel.getJsonArray("targets").stream()
        .map(JsonObject.class::cast)
        .filter(t -> !t.getJsonArray("measurements").isEmpty())
        .findFirst()
        .orElseThrow()
        .getJsonArray("measurements")
        .getJsonObject(0)
        .put("bytesPerSecond", 1.0);
    assertThatThrownBy(() -> validator("status_document").validate(camel).checkValidity())
        .isInstanceOf(JsonSchemaValidationException.class);
  }
}
