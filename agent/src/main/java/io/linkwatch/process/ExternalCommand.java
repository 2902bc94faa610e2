package io.linkwatch.process;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a vendor command such as {@code npu-smi info} directly (no shell) under a timeout and
 * returns what it printed. Output is capped at 1 MiB per stream; the command is killed, with any
 * children it left, when it overruns. Every way it can go wrong is a {@link Failed} whose message
 * is a short reason fit for a log line ("no answer within 10 s", "cannot start it: ...").
 */
public final class ExternalCommand {
  private static final int MAX_OUTPUT_BYTES = 1 << 20;
  private static final int MAX_REASON_CHARS = 200;

  private final List<String> command;
  private final Duration timeout;
  private final Map<String, String> environment;

  /** What the command printed and how it exited. */
  public record Result(int status, String stdout, String stderr) {
    /** The first non-blank line of stderr, else of stdout, on one line; "" when both are empty. */
    public String firstLine() {
      String line = ExternalCommand.firstLine(stderr);
      return line.isEmpty() ? ExternalCommand.firstLine(stdout) : line;
    }
  }

  public ExternalCommand(List<String> command, Duration timeout) {
    this(command, timeout, null);
  }

  /**
   * @param environment the command's whole environment, or null to pass on the agent's own (a tool
   *     that must not see the agent's variables, such as the device's library paths, gets a clean
   *     one)
   */
  public ExternalCommand(List<String> command, Duration timeout, Map<String, String> environment) {
    if (command.isEmpty()) {
      throw new IllegalArgumentException("empty command");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("command timeout must be positive: " + timeout);
    }
    this.command = List.copyOf(command);
    this.timeout = timeout;
    this.environment = environment == null ? null : Map.copyOf(environment);
  }

  public List<String> command() {
    return command;
  }

  public Duration timeout() {
    return timeout;
  }

  /** The command as one would type it, for messages. */
  public String name() {
    return String.join(" ", command);
  }

  public Result run() throws Failed {
    long deadline = System.nanoTime() + timeout.toNanos();
    Process process;
    try {
      ProcessBuilder builder = new ProcessBuilder(command);
      if (environment != null) {
        builder.environment().clear();
        builder.environment().putAll(environment);
      }
      process = builder.start();
    } catch (IOException | RuntimeException e) {
      throw new Failed("cannot start it: " + oneLine(e.getMessage()), true, false);
    }
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // The child does not read stdin; nothing to do.
    }
    CompletableFuture<String> out = readAsync(process.getInputStream(), "stdout");
    CompletableFuture<String> err = readAsync(process.getErrorStream(), "stderr");
    try {
      if (!process.waitFor(remainingNanos(deadline), TimeUnit.NANOSECONDS)) {
        kill(process);
        throw new Failed("no answer within " + describe(timeout), false, true);
      }
      String stdout = await(out, deadline, process);
      String stderr = await(err, deadline, process);
      return new Result(process.exitValue(), stdout, stderr);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill(process);
      throw new Failed("interrupted while waiting for it");
    }
  }

  private String await(CompletableFuture<String> future, long deadline, Process process)
      throws Failed, InterruptedException {
    try {
      // The output can stay open after the command exits when it left a child behind.
      return future.get(Math.max(remainingNanos(deadline), 1), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      kill(process);
      throw new Failed("its output was still open after " + describe(timeout), false, true);
    } catch (ExecutionException e) {
      throw new Failed("cannot read its output: " + oneLine(e.getCause().getMessage()));
    }
  }

  private static long remainingNanos(long deadline) {
    return Math.max(0, deadline - System.nanoTime());
  }

  private static void kill(Process process) {
    ChildProcess.killTree(process);
  }

  private static CompletableFuture<String> readAsync(InputStream in, String what) {
    CompletableFuture<String> result = new CompletableFuture<>();
    ChildProcess.daemon(
        "command-" + what,
        () -> {
          try (in) {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            int read;
            while ((read = in.read(chunk)) >= 0) {
              // Keep reading past the cap so the child never blocks on a full pipe.
              int room = MAX_OUTPUT_BYTES - buffer.size();
              if (room > 0) {
                buffer.write(chunk, 0, Math.min(read, room));
              }
            }
            result.complete(buffer.toString(StandardCharsets.UTF_8));
          } catch (IOException | RuntimeException e) {
            result.completeExceptionally(e);
          }
        });
    return result;
  }

  static String firstLine(String text) {
    for (String line : text.split("\\R")) {
      if (!line.isBlank()) {
        return oneLine(line);
      }
    }
    return "";
  }

  private static String oneLine(String text) {
    if (text == null) {
      return "";
    }
    String s = text.strip().replaceAll("\\s+", " ");
    return s.length() <= MAX_REASON_CHARS ? s : s.substring(0, MAX_REASON_CHARS) + "...";
  }

  private static String describe(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
  }

  /** Why the command gave no output to use; the message is the reason that gets logged. */
  public static final class Failed extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean notStarted;
    private final boolean timedOut;

    public Failed(String reason) {
      this(reason, false, false);
    }

    Failed(String reason, boolean notStarted, boolean timedOut) {
      super(reason, null, false, false);
      this.notStarted = notStarted;
      this.timedOut = timedOut;
    }

    /** The command did not finish within its timeout and was killed. */
    public boolean timedOut() {
      return timedOut;
    }

    /** The command could not be started (not installed, not executable). */
    public boolean notStarted() {
      return notStarted;
    }
  }
}
