package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Runs the real promtool (Debian's prometheus package; .ci/run installs it). */
public final class Promtool {
  private Promtool() {}

  /** Asserts that {@code promtool check metrics} finds nothing wrong in the exposition. */
  public static void assertCleanMetrics(String exposition)
      throws IOException, InterruptedException {
    Path binary = Path.of("/usr/bin/promtool");
    assertThat(binary).as("promtool is installed (apt-get install prometheus)").exists();
    Process p =
        new ProcessBuilder(binary.toString(), "check", "metrics").redirectErrorStream(true).start();
    p.getOutputStream().write(exposition.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(out).as("promtool check metrics output").isEmpty();
    assertThat(p.exitValue()).isZero();
  }

  public static String read(Path p) throws IOException {
    return Files.readString(p);
  }
}
