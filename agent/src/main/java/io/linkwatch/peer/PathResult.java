package io.linkwatch.peer;

import java.time.Instant;

/**
 * One probe of the path from this host to {@code peer}: a train of UDP echoes and one TCP connect
 * to the peer's agent port.
 *
 * @param peer the member probed ({@code host:port})
 * @param srcNic this host's interface towards the peer, or null when no route leads there
 * @param dstNic the peer's interface that answered, as its replies name it; null without a reply
 * @param sent echoes sent
 * @param received echoes whose reply came back in time
 * @param rttP50 the median round trip of the replies, seconds; NaN without any
 * @param rttP99 the 99th percentile round trip, seconds; NaN without any
 * @param rttSum the round trips of the replies added up, seconds (0 without any)
 * @param tcpConnected whether the TCP connect to the agent's port completed
 * @param tcpSeconds how long that connect took; NaN when it did not complete
 * @param error why the probe could not run, or the connect failed, in a few words; null if fine
 * @param at when the probe started
 * @param secondPass whether this probe was a second pass, run because another path failed
 * @param verdict what the probe found
 * @param othersAnswered for a failed probe, how many of the second pass's probes of other members
 *     passed (its own side is known to work when one did); -1 when no second pass followed
 */
public record PathResult(
    String peer,
    String srcNic,
    String dstNic,
    int sent,
    int received,
    double rttP50,
    double rttP99,
    double rttSum,
    boolean tcpConnected,
    double tcpSeconds,
    String error,
    Instant at,
    boolean secondPass,
    PathVerdict verdict,
    int othersAnswered) {

  public double lossRatio() {
    return sent == 0 ? 1.0 : 1.0 - (double) received / sent;
  }

  public boolean ok() {
    return verdict == PathVerdict.OK;
  }

  public PathResult asSecondPass() {
    return with(true, othersAnswered);
  }

  /** This failed probe, with the outcome of the second pass that followed it. */
  public PathResult withOthersAnswered(int n) {
    return with(secondPass, n);
  }

  private PathResult with(boolean isSecondPass, int answered) {
    return new PathResult(
        peer,
        srcNic,
        dstNic,
        sent,
        received,
        rttP50,
        rttP99,
        rttSum,
        tcpConnected,
        tcpSeconds,
        error,
        at,
        isSecondPass,
        verdict,
        answered);
  }
}
