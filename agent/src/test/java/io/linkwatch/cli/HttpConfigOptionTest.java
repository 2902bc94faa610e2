package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bad {@code --http.config.file} stops {@code status} and {@code check} before they ask anything
 * or measure anything: exit 2, no verdict, one {@code linkwatch:} line per problem naming the key.
 */
class HttpConfigOptionTest {
  @TempDir Path dir;

  record Run(int exit, String out, String err) {}

  static Run linkwatch(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(exit, out.toString(), err.toString());
  }

  /** A port nothing listens on: were the config not refused first, the verdict would be UNKNOWN. */
  private static final String URL = "https://127.0.0.1:1";

  @ParameterizedTest
  @ValueSource(strings = {"status", "check"})
  void configErrorsAreUsageErrorsNamingTheKey(String command) throws Exception {
    Files.writeString(dir.resolve("password"), "s3cret\n");
    Path file = dir.resolve("http.yml");
    Files.writeString(
        file,
        """
        basic_auth: {username: prometheus, password: s3cret, password_file: password}
        tls_config: {ca_file: missing.pem, server_nmae: agent}
        """);
    Run r = linkwatch(command, "--url", URL, "--http.config.file", file.toString());
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines())
        .containsExactly(
            "linkwatch: "
                + file
                + ": basic_auth.password: set as well as password_file: keep one of them",
            "linkwatch: "
                + file
                + ": tls_config.server_nmae: unknown key, did you mean 'server_name'? (valid here:"
                + " ca, ca_file, cert, cert_file, insecure_skip_verify, key, key_file, max_version,"
                + " min_version, server_name)",
            "linkwatch: " + file + ": tls_config.ca_file: " + dir + "/missing.pem: no such file");
    assertThat(r.err()).doesNotContain("s3cret");
  }

  @ParameterizedTest
  @ValueSource(strings = {"status", "check"})
  void aMissingConfigFileIsAUsageError(String command) {
    Path missing = dir.resolve("nope.yml");
    Run r = linkwatch(command, "--url", URL, "--http.config.file", missing.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("linkwatch: " + missing + ": no such file\n");
  }
}
