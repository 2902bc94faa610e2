package io.linkwatch.config;

import io.linkwatch.util.HostPort;

/**
 * Where the HTTP server listens: {@code 0.0.0.0:10187}, {@code [::1]:10187}, {@code 127.0.0.1:0}.
 */
public record ListenAddress(String host, int port) {
  public static final ListenAddress DEFAULT = new ListenAddress("0.0.0.0", 10187);

  public static ListenAddress parse(String text) {
    HostPort hp = HostPort.parse(text, 0, "0.0.0.0:10187", "[::1]:10187");
    return new ListenAddress(hp.host(), hp.port());
  }

  @Override
  public String toString() {
    return new HostPort(host, port).toString();
  }
}
