package io.linkwatch.compare;

import io.linkwatch.process.ExternalCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A vendor tool run once for {@code linkwatch compare} (through {@link ExternalCommand}: no shell,
 * a timeout, children killed with it): its stdout, or why there is none (not installed, failed, too
 * slow). A missing tool is an answer, not an error.
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
      // said before trying, in words an operator acts on, not the exec error
      return new Run(name, null, "not found (" + describe(exe) + ")");
    }
    ExternalCommand.Result r;
    try {
      r = new ExternalCommand(command, timeout).run();
    } catch (ExternalCommand.Failed e) {
      return new Run(name, null, e.getMessage());
    }
    if (r.status() != 0) {
      String line = r.firstLine();
      return new Run(name, null, "exited with " + r.status() + (line.isEmpty() ? "" : ": " + line));
    }
    return new Run(name, r.stdout(), null);
  }

  /** Whether {@code exe} names an executable (found on PATH unless it names a file). */
  public static boolean installed(String exe) {
    return find(exe) != null;
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
