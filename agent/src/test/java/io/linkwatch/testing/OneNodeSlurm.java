package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real one-node Slurm (Debian's slurmctld, slurmd and munge) under a test's directory, through
 * {@code scripts/slurm/one-node.sh}, and the Slurm commands run against it.
 */
public final class OneNodeSlurm implements AutoCloseable {
  static final Path SCRIPT = Path.of("..", "scripts", "slurm", "one-node.sh").toAbsolutePath();

  private final Path dir;
  private final Map<String, String> env = new HashMap<>();

  private OneNodeSlurm(Path dir, int portBase) {
    this.dir = dir;
    env.put("SLURM_PORT_BASE", String.valueOf(portBase));
  }

  /**
   * Starts it under {@code parent/slurm} on ports {@code portBase} and {@code portBase + 1}, with
   * one-node.sh's options (e.g. {@code --prolog FILE}); returns once the node is idle.
   */
  public static OneNodeSlurm start(Path parent, int portBase, String... options) throws Exception {
    // munged refuses a socket under a directory others cannot search (JUnit's is 0700).
    Files.setPosixFilePermissions(parent, PosixFilePermissions.fromString("rwxr-xr-x"));
    OneNodeSlurm slurm = new OneNodeSlurm(parent.resolve("slurm"), portBase);
    List<String> cmd = new ArrayList<>(List.of(SCRIPT.toString(), "start", slurm.dir.toString()));
    cmd.addAll(List.of(options));
    slurm.run(cmd.toArray(String[]::new));
    slurm.env.put("SLURM_CONF", slurm.dir.resolve("slurm.conf").toString());
    return slurm;
  }

  /** Runs a command against this Slurm; it must succeed within 2 minutes. Its output, stripped. */
  public String run(String... cmd) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(String.join(" ", cmd)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
    return out.strip();
  }

  public String node() throws Exception {
    return run("hostname", "-s");
  }

  /** The node as sinfo shows it: {@code state|reason}, e.g. {@code drained|Prolog error}. */
  public String nodeState() throws Exception {
    return run("sinfo", "-h", "-N", "-n", node(), "-o", "%T|%E");
  }

  public String awaitNode(Duration timeout, Predicate<String> wanted, String what)
      throws Exception {
    return await(timeout, wanted, what, "sinfo", "-h", "-N", "-n", node(), "-o", "%T|%E");
  }

  /** Runs {@code cmd} every half second until its output is {@code wanted}; that output. */
  public String await(Duration timeout, Predicate<String> wanted, String what, String... cmd)
      throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    String out = run(cmd);
    while (!wanted.test(out) && System.nanoTime() < end) {
      Thread.sleep(500);
      out = run(cmd);
    }
    assertThat(out).as(what).matches(wanted);
    return out;
  }

  /** The hooks' log: one-node.sh's wrappers write a line per start and end of each hook. */
  public List<String> hooks() throws IOException {
    Path log = dir.resolve("log/hooks.log");
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  public void awaitHook(Duration timeout, String needle) throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    while (hooks().stream().noneMatch(l -> l.contains(needle)) && System.nanoTime() < end) {
      Thread.sleep(500);
    }
    assertThat(hooks()).as("hooks.log").anyMatch(l -> l.contains(needle));
  }

  public static Path executable(Path file, String text) throws IOException {
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  /**
   * A {@code linkwatch} command in {@code dir} that runs this build's classes, as hooks call it.
   */
  public static Path linkwatchCommand(Path dir) throws IOException {
    List<String> java = new ArrayList<>(JavaProcess.builder(Map.of()).command());
    java.subList(java.indexOf("io.linkwatch.cli.Main") + 1, java.size()).clear();
    return executable(
        dir.resolve("linkwatch"), "#!/bin/sh\nexec " + String.join(" ", java) + " \"$@\"\n");
  }

  @Override
  public void close() throws IOException {
    try {
      run(SCRIPT.toString(), "stop", dir.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("stopping Slurm under " + dir + " was interrupted", e);
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("stopping Slurm under " + dir + ": " + e, e);
    }
  }
}
