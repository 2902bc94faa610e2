package io.linkwatch.status;

import com.google.gson.annotations.JsonAdapter;
import io.linkwatch.kubelet.DeviceHolder;
import io.linkwatch.util.Json;
import java.time.Instant;
import java.util.List;

/**
 * A device's last busy check.
 *
 * @param source where the readings came from: {@code dcmi}, {@code npu-smi}, {@code memory} or
 *     {@code none}
 * @param reasons why it is busy, one line each
 * @param holders the pods the kubelet allocated it to; present only when there are some
 */
public record DeviceEntry(
    int device,
    boolean busy,
    String source,
    List<String> reasons,
    Instant checked,
    @JsonAdapter(value = Json.OmittedWhenNull.class, nullSafe = false) List<DeviceHolder> holders) {
  public DeviceEntry {
    source = source == null ? "" : source;
    reasons = reasons == null ? List.of() : List.copyOf(reasons);
    holders = holders == null || holders.isEmpty() ? null : List.copyOf(holders);
  }
}
