package io.linkwatch.peer;

import io.linkwatch.util.HostPort;
import java.net.InetSocketAddress;

/**
 * A member's agent as the member list names it: {@code host:port}, an IPv6 host in brackets. The
 * text is the member's name everywhere (schedule, labels, logs); the socket address is resolved
 * afresh for each probe, so a host that moves is followed.
 */
public record PeerAddress(String host, int port) {
  public static PeerAddress parse(String text) {
    HostPort hp = HostPort.parse(text, 1, "node-07:10187", "[fd00::7]:10187");
    return new PeerAddress(hp.host(), hp.port());
  }

  /** Resolves the host now; an unknown name gives an unresolved address, which no probe reaches. */
  public InetSocketAddress resolve() {
    return new InetSocketAddress(host, port);
  }

  public String text() {
    return new HostPort(host, port).toString();
  }

  @Override
  public String toString() {
    return text();
  }
}
