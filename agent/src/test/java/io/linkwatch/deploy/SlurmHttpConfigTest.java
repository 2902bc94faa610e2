package io.linkwatch.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Slurm scripts hand {@code LINKWATCH_HTTP_CONFIG} to linkwatch as {@code --http.config.file}
 * (a file name on the command line, never a password), and pass nothing of the kind without it. A
 * stand-in {@code linkwatch} writes down its arguments; stand-in {@code sinfo} and {@code scontrol}
 * keep real Slurm out of it.
 */
class SlurmHttpConfigTest {
  @TempDir Path dir;

  private Path script(String name, String body) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  /** The arguments linkwatch got from {@code slurmScript}, one a line. */
  private List<String> argsOf(String slurmScript, Map<String, String> env, String... args)
      throws Exception {
    Path seen = dir.resolve("args");
    Files.deleteIfExists(seen);
    Path linkwatch = script("linkwatch", "printf '%s\\n' \"$@\" > " + seen + "\necho 'OK - fine'");
    List<String> command =
        new ArrayList<>(
            List.of("sh", Path.of("..", "slurm", slurmScript).toAbsolutePath().toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("LINKWATCH", linkwatch.toString());
    pb.environment().put("SINFO", script("sinfo", "echo 'idle|none'").toString());
    pb.environment().put("SCONTROL", script("scontrol", "exit 0").toString());
    pb.environment().put("SLURMD_NODENAME", "node1");
    pb.environment().remove("LINKWATCH_HTTP_CONFIG");
    pb.environment().putAll(env);
    Process p = pb.redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return Files.readAllLines(seen);
  }

  @Test
  void theHealthCheckPassesTheClientConfig() throws Exception {
    Map<String, String> env =
        Map.of(
            "LINKWATCH_HTTP_CONFIG", "/etc/linkwatch/http.yml",
            "LINKWATCH_URL", "https://node1:10187");
    assertThat(argsOf("linkwatch-healthcheck.sh", env))
        .containsExactly(
            "status",
            "--hook",
            "healthcheck",
            "--url",
            "https://node1:10187",
            "--format",
            "npd",
            "--http.config.file",
            "/etc/linkwatch/http.yml");
    // Neither set: status finds the agent in its config, and asks without a client config.
    assertThat(argsOf("linkwatch-healthcheck.sh", Map.of()))
        .containsExactly("status", "--hook", "healthcheck", "--format", "npd");
    // The config it reads (verdicts.enforce), when one is named.
    assertThat(
            argsOf("linkwatch-healthcheck.sh", Map.of("LINKWATCH_CONFIG", "/etc/lw/shadow.yaml")))
        .containsExactly(
            "status",
            "--hook",
            "healthcheck",
            "--config",
            "/etc/lw/shadow.yaml",
            "--format",
            "npd");
  }

  @Test
  void thePrologAndEpilogPassTheClientConfig() throws Exception {
    Map<String, String> env = Map.of("LINKWATCH_HTTP_CONFIG", "/etc/linkwatch/http.yml");
    List<String> prolog = argsOf("linkwatch-job-check.sh", env, "prolog");
    assertThat(prolog).startsWith("check", "--level", "quick");
    assertThat(String.join(" ", prolog)).endsWith("--http.config.file /etc/linkwatch/http.yml");
    assertThat(argsOf("linkwatch-job-check.sh", Map.of(), "epilog"))
        .startsWith("check", "--level", "medium")
        .containsSubsequence("--hook", "epilog")
        .doesNotContain("--http.config.file");
    assertThat(prolog).containsSubsequence("--hook", "prolog");
  }
}
