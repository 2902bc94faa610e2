package io.linkwatch.peer;

import io.linkwatch.peer.PeerSchedule.Member;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** Which member this agent is. */
final class SelfMember {
  private SelfMember() {}

  /**
   * {@code configured} ({@code peers.self}) when set; else the one member on {@code port} whose
   * host resolves to one of this machine's addresses. Two such members (one machine listed under
   * two names) or none: empty, and the agent probes nobody, rather than guess.
   */
  static Optional<Member> find(
      List<Member> members, Optional<String> configured, int port, Predicate<String> isLocal) {
    if (configured.isPresent()) {
      return members.stream().filter(m -> m.host().equals(configured.get())).findFirst();
    }
    List<Member> mine =
        members.stream()
            .filter(
                m -> {
                  PeerAddress a = PeerAddress.parse(m.host());
                  return a.port() == port && isLocal.test(a.host());
                })
            .toList();
    return mine.size() == 1 ? Optional.of(mine.get(0)) : Optional.empty();
  }

  /**
   * Whether {@code host} is this machine: its host name (short or full, as Slurm lists nodes), or a
   * name that resolves to one of its addresses (loopback included).
   */
  static boolean isLocalHost(String host) {
    String name = Nics.hostname();
    if (name != null
        && (host.equalsIgnoreCase(name) || host.equalsIgnoreCase(name.split("\\.")[0]))) {
      return true;
    }
    try {
      for (InetAddress a : InetAddress.getAllByName(host)) {
        if (Nics.isLocal(a)) {
          return true;
        }
      }
      return false;
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }
}
