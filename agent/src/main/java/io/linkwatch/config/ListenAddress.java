package io.linkwatch.config;

/**
 * Where the HTTP server listens: {@code 0.0.0.0:10187}, {@code [::1]:10187}, {@code 127.0.0.1:0}.
 */
public record ListenAddress(String host, int port) {
  public static final ListenAddress DEFAULT = new ListenAddress("0.0.0.0", 10187);

  public static ListenAddress parse(String text) {
    String t = text.strip();
    int colon = t.lastIndexOf(':');
    if (colon <= 0 || colon == t.length() - 1) {
      throw new IllegalArgumentException("'" + text + "' is not HOST:PORT (e.g. 0.0.0.0:10187)");
    }
    String host = t.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException(
          "'" + text + "': write IPv6 addresses in brackets, e.g. [::1]:10187");
    }
    int port;
    try {
      port = Integer.parseInt(t.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "': the port is not a number");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("'" + text + "': the port must be between 0 and 65535");
    }
    if (host.isBlank()) {
      throw new IllegalArgumentException("'" + text + "': the host is empty");
    }
    return new ListenAddress(host, port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
