package io.linkwatch.util;

/**
 * {@code HOST:PORT} as written in a config or a member list: an IPv6 host in brackets, the port a
 * number in {@code minPort..65535}. Each error says what was wrong with the text, and shows the
 * caller's example of a good one.
 */
public record HostPort(String host, int port) {
  /**
   * @param example a good value, for the messages (e.g. {@code 0.0.0.0:10187})
   * @param ipv6Example a good IPv6 value (e.g. {@code [::1]:10187})
   */
  public static HostPort parse(String text, int minPort, String example, String ipv6Example) {
    String t = text.strip();
    int colon = t.lastIndexOf(':');
    if (colon <= 0 || colon == t.length() - 1) {
      throw new IllegalArgumentException("'" + text + "' is not HOST:PORT (e.g. " + example + ")");
    }
    String host = t.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException(
          "'" + text + "': write IPv6 addresses in brackets, e.g. " + ipv6Example);
    }
    int port;
    try {
      port = Integer.parseInt(t.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "': the port is not a number");
    }
    if (port < minPort || port > 65535) {
      throw new IllegalArgumentException(
          "'" + text + "': the port must be between " + minPort + " and 65535");
    }
    if (host.isBlank()) {
      throw new IllegalArgumentException("'" + text + "': the host is empty");
    }
    return new HostPort(host, port);
  }

  /** As written: {@code host:port}, an IPv6 host in brackets. */
  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
