package io.linkwatch.status;

import io.linkwatch.kubelet.PodLookup;
import java.time.Instant;

/**
 * How the last kubelet pod-resources lookup went, e.g. {@code {"result": "timeout", "error": "no
 * answer from ... within 2s", "at": "..."}}.
 *
 * @param error null on success
 */
public record PodLookupEntry(PodLookup.Result result, String error, Instant at) {
  public static PodLookupEntry of(PodLookup lookup) {
    return new PodLookupEntry(
        lookup.result(),
        lookup.error().isEmpty() ? null : lookup.error(),
        Instant.ofEpochMilli(lookup.atMillis()));
  }
}
