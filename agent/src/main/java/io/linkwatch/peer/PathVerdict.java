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
   * No echo came back and the peer's host refused the TCP connect: the path works and the agent is
   * not running there.
   */
  AGENT_DOWN,
  /**
   * No echo came back but the TCP connect to the agent worked: the path and the agent work, and
   * something drops UDP on the agent's port (a firewall that opened only TCP). Nobody's NIC.
   */
  UDP_BLOCKED;

  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * Whether the verdict speaks against the path: lossy or unreachable. A stopped agent or blocked
   * UDP show the path works; they name the peer, never this host's side.
   */
  public boolean pathFails() {
    return this == LOSSY || this == UNREACHABLE;
  }

  /** Whether the verdict names the peer: anything but OK. */
  public boolean blames() {
    return this != OK;
  }

  /**
   * Whether a second pass must settle it: a path that fails may be this host's side, a peer that
   * refuses or answers TCP only is not.
   */
  public boolean needsSecondPass() {
    return pathFails();
  }

  public static PathVerdict judge(
      int sent, int received, boolean refused, boolean tcpConnected, double lossThreshold) {
    if (received > 0) {
      // In whole echoes: 1 of 20 lost is 0.05 exactly, not a hair above it.
      int lost = sent - received;
      return lost > lossThreshold * sent + 1e-9 ? LOSSY : OK;
    }
    if (tcpConnected) {
      return UDP_BLOCKED;
    }
    return refused ? AGENT_DOWN : UNREACHABLE;
  }
}
