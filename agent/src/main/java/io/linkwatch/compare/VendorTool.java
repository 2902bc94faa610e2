package io.linkwatch.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A vendor tool run once for {@code linkwatch compare}, without a shell: its stdout, or why there
 * is none (not installed, failed, too slow). A missing tool is an answer, not an error.
 */
public final class VendorTool {
  /** What a run gave: {@code output} when it ran and exited 0, else {@code problem}. */
  public record Run(String name, String output, String problem) {
    public boolean ran() {
      return problem == null;
    }
  }

  private VendorTool() {}

  /** Runs {@code command} (its first word found on PATH unless it names a file) within timeout. */
  public static Run run(String name, List<String> command, Duration timeout) {
    String exe = command.get(0);
    if (find(exe) == null) {
      return new Run(name, null, "not found (" + describe(exe) + ")");
    }
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Run(name, null, "cannot start: " + e.getMessage());
    }
    CompletableFuture<String> out =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                return "";
              }
            });
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        stop(p);
        return new Run(name, null, "did not finish within " + timeout.toSeconds() + " s");
      }
      // What the tool left running (mpirun's ranks) would hold the devices and the pipe.
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      String text = out.get(10, TimeUnit.SECONDS);
      if (p.exitValue() != 0) {
        String last = text.strip().lines().reduce((a, b) -> b).orElse("");
        return new Run(
            name, null, "exited with " + p.exitValue() + (last.isEmpty() ? "" : ": " + last));
      }
      return new Run(name, text, null);
    } catch (InterruptedException e) {
      stop(p);
      Thread.currentThread().interrupt();
      return new Run(name, null, "interrupted");
    } catch (Exception e) {
      stop(p);
      return new Run(name, null, "output unreadable: " + e.getMessage());
    }
  }

  /**
   * Stops the tool and everything it started: a launcher such as mpirun leaves its ranks, which
   * keep the devices busy, when only it is killed.
   */
  private static void stop(Process p) {
    List<ProcessHandle> children = p.descendants().toList();
    p.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly);
  }

  private static String describe(String exe) {
    return exe.contains("/") ? exe + " is not an executable file" : "no " + exe + " on PATH";
  }

  /** The executable {@code exe} names, or null. */
  static Path find(String exe) {
    if (exe.contains("/")) {
      Path p = Path.of(exe);
      return Files.isExecutable(p) && !Files.isDirectory(p) ? p : null;
    }
    String path = System.getenv("PATH");
    for (String dir : (path == null ? "" : path).split(":")) {
      if (dir.isEmpty()) {
        continue;
      }
      Path p = Path.of(dir, exe);
      if (Files.isExecutable(p) && !Files.isDirectory(p)) {
        return p;
      }
    }
    return null;
  }
}
