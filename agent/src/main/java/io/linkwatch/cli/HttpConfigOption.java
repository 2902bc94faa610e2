package io.linkwatch.cli;

import io.linkwatch.config.HttpClientConfig;
import io.linkwatch.config.HttpClientConfigLoader;
import java.net.URI;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --http.config.file} of the commands that ask the agent ({@code status}, {@code
 * check}), named and written as promtool's: how to log in to and trust an agent behind its web
 * config. Secrets stay in files, never on the command line, where {@code ps} would show them.
 */
final class HttpConfigOption {
  @Option(
      names = "--http.config.file",
      paramLabel = "FILE",
      description =
          "How to ask an agent behind TLS or basic auth, in the Prometheus HTTP client format"
              + " (basic_auth, authorization, tls_config), as promtool reads it. Default: none"
              + " (no login, the JDK's trusted CAs).")
  Path file;

  /**
   * The config for asking {@code url}; a bad one is a usage error (exit 2) before anything runs.
   */
  HttpClientConfig load(String url) {
    return file == null
        ? HttpClientConfig.NONE
        : HttpClientConfigLoader.load(file, URI.create(url));
  }
}
