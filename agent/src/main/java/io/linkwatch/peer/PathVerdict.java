package io.linkwatch.peer;

/** What one probe of a path found. */
public enum PathVerdict {
  /** Every echo came back, or fewer lost than the loss threshold. */
  OK,
  /** Some echoes came back, more lost than the threshold. */
  LOSSY,
  /** No echo came back and the peer's agent port did not answer a TCP connect: host or path. */
  UNREACHABLE,
  /**
   * No echo came back, but the peer's host refused the TCP connect or reported the UDP port closed:
   * the path works and the agent is not running there.
   */
  AGENT_DOWN;

  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  public static PathVerdict judge(
      int sent, int received, boolean portClosed, double lossThreshold) {
    if (received > 0) {
      // In whole echoes: 1 of 20 lost is 0.05 exactly, not a hair above it.
      int lost = sent - received;
      return lost > lossThreshold * sent + 1e-9 ? LOSSY : OK;
    }
    return portClosed ? AGENT_DOWN : UNREACHABLE;
  }
}
