package io.linkwatch.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.telemetry.DeviceLinks;
import io.linkwatch.runtime.telemetry.LinkReading;
import io.linkwatch.state.ResultStore;
import io.linkwatch.state.StatusDocuments;
import io.linkwatch.testing.HandClock;
import io.linkwatch.testing.JsonTrees;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The status document's one spelling: what the agent writes, {@code linkwatch status} and {@code
 * check} read back as the same types, a failed figure included.
 */
class StatusCodecTest {
  final HandClock clock = new HandClock(Instant.parse("2026-12-04T01:00:00Z"));
  final P2pBandwidth ok = new P2pBandwidth(0, 1, "SIO", 256L << 20, 155.1e9, 1.7e-3);
  final P2pBandwidth nan = new P2pBandwidth(1, 0, "SIO", 256L << 20, Double.NaN, Double.NaN);

  StatusDocument agentDocument() {
    ResultStore store = new ResultStore(clock);
    store.record(
        ProbeRun.of(
            "topology",
            List.of(
                TargetResult.success(
                    "dev0",
                    0.2,
                    List.of(new DeviceInfo(0, "Ascend910_9382", 0, 0, "0-23", 64L << 30, null))))));
    store.record(
        ProbeRun.of(
            "p2p",
            List.of(
                TargetResult.success("0->1", 0.1, List.of(ok)),
                TargetResult.success("1->0", 0.1, List.of(nan)),
                TargetResult.failure(
                    "0->2", Outcome.SKIPPED_DEVICE_BUSY, "pid 4242 holds 2GiB", 0.0))));
    PassiveStore passive = new PassiveStore(clock);
    passive.recordLinks(
        new DeviceLinks(
            0,
            "dcmi",
            "0000:3b:00.0",
            List.of(
                new LinkReading(
                    "0", "SIO", "1", true, 4, 4, 64, 20, 100L, 200L, Map.of("crc", 3L))),
            null,
            List.of(),
            null,
            null));
    return StatusDocuments.of(store, passive, Map.of("p2p", Instant.parse("2026-12-04T01:05:00Z")));
  }

  static TargetEntry target(StatusDocument doc, String target) {
    return doc.targets().stream().filter(t -> t.target().equals(target)).findFirst().orElseThrow();
  }

  static JsonObject target(JsonObject doc, String target) {
    for (var t : doc.getAsJsonArray("targets")) {
      if (t.getAsJsonObject().get("target").getAsString().equals(target)) {
        return t.getAsJsonObject();
      }
    }
    throw new AssertionError("no target " + target + " in " + doc);
  }

  @Test
  void whatTheAgentWritesReadsBackAsTheSameTypes() throws IOException {
    StatusDocument written = agentDocument();
    StatusDocument read = StatusCodec.decode(StatusCodec.encode(written));

    assertThat(read).isEqualTo(written);
    assertThat(target(read, "0->1").measurements()).containsExactly(ok);
    // The failed figure is its type and summary on both sides, not a zero bandwidth.
    assertThat(target(read, "1->0").measurements())
        .containsExactly(new UnencodedFigure("P2pBandwidth", nan.summary()));
    assertThat(read.passive().devices().get(0).links().get(0).errors()).containsEntry("crc", 3L);
  }

  @Test
  void aFailedFigureIsItsTypeAndSummaryAndTheDocumentStaysJson() throws Exception {
    String json = StatusCodec.encode(agentDocument());
    // Strict JSON (Jackson refuses NaN): the NaN the figure holds would make the whole document
    // unreadable to every other reader.
    assertThat(JsonTrees.MAPPER.readTree(json).get("targets").size()).isEqualTo(4);
    JsonObject figure =
        target(JsonParser.parseString(json).getAsJsonObject(), "1->0")
            .getAsJsonArray("measurements")
            .get(0)
            .getAsJsonObject();
    assertThat(figure.keySet()).containsExactly("type", "summary");
    assertThat(figure.get("type").getAsString()).isEqualTo("P2pBandwidth");
    // Without the unencoded form the same figure is no JSON.
    assertThatThrownBy(
            () -> JsonTrees.MAPPER.readTree(io.linkwatch.registry.ProbeKind.USER_JSON.write(nan)))
        .isInstanceOf(com.fasterxml.jackson.core.JsonProcessingException.class);
  }

  @Test
  void waitingForIdleIsPresentOnlyWhileATargetWaits() {
    JsonObject doc = JsonParser.parseString(StatusCodec.encode(agentDocument())).getAsJsonObject();
    JsonObject waiting = target(doc, "0->2");
    assertThat(waiting.get("waiting_for_idle_since").getAsString())
        .isEqualTo("2026-12-04T01:00:00Z");
    assertThat(waiting.get("waiting_because").getAsString()).isEqualTo("pid 4242 holds 2GiB");
    JsonObject measured = target(doc, "0->1");
    assertThat(measured.has("waiting_for_idle_since")).isFalse();
    assertThat(measured.has("waiting_because")).isFalse();
    // Fields without a value are null, not absent: a reader sees every field of the shape.
    assertThat(measured.get("failed_call").isJsonNull()).isTrue();
    assertThat(measured.get("next_run").getAsString()).isEqualTo("2026-12-04T01:05:00Z");
    assertThat(doc.get("pod_resources").isJsonNull()).isTrue();
  }

  @Test
  void aDocumentOfAnotherVersionOrShapeIsRefusedWithWhy() {
    assertThatThrownBy(() -> StatusCodec.decode("{\"targets\": []}"))
        .isInstanceOf(StatusCodec.OtherSchema.class)
        .hasMessageContaining("status schema 1 (no schema_version), this linkwatch reads 2");
    assertThatThrownBy(() -> StatusCodec.decode("{\"schema_version\": 3}"))
        .isInstanceOf(StatusCodec.OtherSchema.class)
        .hasMessageContaining("status schema 3");
    assertThatThrownBy(() -> StatusCodec.decode("<html>"))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("unreadable status: ");
    assertThatThrownBy(
            () ->
                StatusCodec.decode(
                    "{\"schema_version\": 2, \"targets\": [{\"probe\": \"p2p\", \"measurements\":"
                        + " [{\"type\": \"NoSuchFigure\", \"x\": 1}]}]}"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("unknown Measurement type 'NoSuchFigure'");
    assertThatThrownBy(
            () ->
                StatusCodec.decode(
                    "{\"schema_version\": 2, \"targets\": [{\"result\": \"exploded\"}]}"))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("unreadable status document: ");
  }
}
