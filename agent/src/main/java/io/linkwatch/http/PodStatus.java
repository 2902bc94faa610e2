package io.linkwatch.http;

import io.linkwatch.kubelet.DeviceHolder;
import io.linkwatch.kubelet.PodLookup;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;

/**
 * The kubelet's part of {@code /api/v1/status}: who holds a busy device, e.g. {@code "holders":
 * [{"namespace": "ml", "pod": "train-0", "container": "trainer", "resource": "nvidia.com/gpu",
 * "device_id": "GPU-5f1c..."}]}, and how the last lookup went, e.g. {@code "pod_resources":
 * {"result": "timeout", "error": "no answer from ... within 2s", "at": "..."}}.
 */
final class PodStatus {
  private PodStatus() {}

  static JsonArray holders(List<DeviceHolder> holders) {
    JsonArray out = new JsonArray();
    for (DeviceHolder h : holders) {
      out.add(
          new JsonObject()
              .put("namespace", h.namespace())
              .put("pod", h.pod())
              .put("container", h.container())
              .put("resource", h.resource())
              .put("device_id", h.deviceId()));
    }
    return out;
  }

  static JsonObject lookup(PodLookup lookup) {
    return new JsonObject()
        .put("result", lookup.result().label())
        .put("error", lookup.error().isEmpty() ? null : lookup.error())
        .put("at", Instant.ofEpochMilli(lookup.atMillis()).toString());
  }
}
