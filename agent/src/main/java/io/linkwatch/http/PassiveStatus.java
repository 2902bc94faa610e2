package io.linkwatch.http;

import io.linkwatch.passive.DeviceState;
import io.linkwatch.passive.LinkState;
import io.linkwatch.passive.PassiveStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * The {@code passive} section of {@code /api/v1/status}: per source and device, the last read's
 * result, the failing call, why a read was skipped, what the product does not support, and each
 * link's state, e.g.
 *
 * <pre>
 * {"source": "dcmi", "device": 0, "result": "timeout", "failed_call": "dcmi_get_device_info",
 *  "error": "timeout in dcmi_get_device_info (device 0) after 10.0 s: ...",
 *  "unsupported": ["dcmi_get_device_info(SIO CRC errors, main 56 sub 0) returned -8255: ..."]}
 * </pre>
 */
public final class PassiveStatus {
  private PassiveStatus() {}

  public static JsonObject json(PassiveStore store) {
    JsonArray devices = new JsonArray();
    for (DeviceState d : store.states()) {
      JsonArray links = new JsonArray();
      for (LinkState l : d.links()) {
        JsonObject errors = new JsonObject();
        l.errors().forEach(errors::put);
        links.add(
            new JsonObject()
                .put("link", l.link())
                .put("link_type", l.linkType())
                .put("peer", l.peer())
                .put("up", l.up())
                .put("lanes", l.lanes())
                .put("lanes_max", l.lanesMax())
                .put("transmit_bytes", l.transmitBytes())
                .put("receive_bytes", l.receiveBytes())
                .put("errors", errors)
                .put("errors_per_second", l.errorsPerSecond()));
      }
      JsonArray pcie = new JsonArray();
      d.pcie()
          .forEach(
              h ->
                  pcie.add(
                      new JsonObject()
                          .put("pci_address", h.pciAddress())
                          .put("role", h.role().label())
                          .put(
                              "speed_transfers_per_second",
                              h.speedTransfersPerSecond().isPresent()
                                  ? h.speedTransfersPerSecond().getAsDouble()
                                  : null)
                          .put(
                              "max_speed_transfers_per_second",
                              h.maxSpeedTransfersPerSecond().isPresent()
                                  ? h.maxSpeedTransfersPerSecond().getAsDouble()
                                  : null)
                          .put("width", h.width().isPresent() ? h.width().getAsInt() : null)
                          .put(
                              "max_width",
                              h.maxWidth().isPresent() ? h.maxWidth().getAsInt() : null)));
      devices.add(
          new JsonObject()
              .put("source", d.source().id())
              .put("device", d.device())
              .put("result", d.lastResult().label())
              .put("last_read", time(d.lastReadMillis()))
              .put("last_success", d.lastSuccessMillis() > 0 ? time(d.lastSuccessMillis()) : null)
              .put("error", d.error())
              .put("failed_call", d.failedCall())
              .put("skipped_because", d.skippedBecause())
              .put("unsupported", new JsonArray(d.unsupported()))
              .put("pci_address", d.pciAddress())
              .put("links", links)
              .put("pcie", pcie));
    }
    JsonArray rounds = new JsonArray();
    store
        .rounds()
        .forEach(
            r ->
                rounds.add(
                    new JsonObject()
                        .put("source", r.source().id())
                        .put("ended", time(r.endedMillis()))
                        .put("duration_seconds", r.seconds())));
    return new JsonObject().put("rounds", rounds).put("devices", devices);
  }

  private static String time(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }
}
