package io.linkwatch.peer;

import java.net.InetSocketAddress;

/**
 * A member's agent as the member list names it: {@code host:port}, an IPv6 host in brackets. The
 * text is the member's name everywhere (schedule, labels, logs); the socket address is resolved
 * afresh for each probe, so a host that moves is followed.
 */
public record PeerAddress(String host, int port) {
  public static PeerAddress parse(String text) {
    String t = text.strip();
    int colon = t.lastIndexOf(':');
    if (colon <= 0 || colon == t.length() - 1) {
      throw new IllegalArgumentException("'" + text + "' is not HOST:PORT (e.g. node-07:10187)");
    }
    String host = t.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException(
          "'" + text + "': write IPv6 addresses in brackets, e.g. [fd00::7]:10187");
    }
    int port;
    try {
      port = Integer.parseInt(t.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "': the port is not a number");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("'" + text + "': the port must be between 1 and 65535");
    }
    if (host.isBlank()) {
      throw new IllegalArgumentException("'" + text + "': the host is empty");
    }
    return new PeerAddress(host, port);
  }

  /** Resolves the host now; an unknown name gives an unresolved address, which no probe reaches. */
  public InetSocketAddress resolve() {
    return new InetSocketAddress(host, port);
  }

  public String text() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  @Override
  public String toString() {
    return text();
  }
}
