package io.linkwatch.kubelet;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One question to the kubelet and what came of it: the holders of linkwatch's devices, or why there
 * are none, e.g. {@code timeout: no answer from /var/lib/kubelet/pod-resources/kubelet.sock within
 * 2s}.
 *
 * @param holders by linkwatch device number; empty unless {@code result} is success
 * @param error what went wrong, empty on success
 * @param atMillis when the answer (or the failure) came
 */
public record PodLookup(
    Result result, Map<Integer, List<DeviceHolder>> holders, String error, long atMillis) {

  public PodLookup {
    holders = Map.copyOf(holders);
  }

  /** How a lookup ended; {@link #label()} is the {@code result} label of its counter. */
  public enum Result {
    SUCCESS,
    /** The socket could not be reached, answered with an error or with something not the API. */
    ERROR,
    /** No answer within the timeout. */
    TIMEOUT,
    /** No socket at the configured path: not a Kubernetes node, or the directory is not mounted. */
    ABSENT;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public static PodLookup failed(Result result, String error, long atMillis) {
    return new PodLookup(result, Map.of(), error, atMillis);
  }
}
