package io.linkwatch.probe.topology;

import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Topology from {@code npu-smi info -t topo} (or another command that prints the same table). The
 * command runs directly, without a shell. A missing command, a non-zero exit, no answer within the
 * timeout, output that does not parse, a device that does not support the query, or a table whose
 * devices do not line up with the runtime's all give {@link Topology#NONE} and one warning line.
 */
public final class CommandTopologySource implements TopologySource {
  public static final List<String> DEFAULT_COMMAND = List.of("npu-smi", "info", "-t", "topo");
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private static final Logger log = LoggerFactory.getLogger(CommandTopologySource.class);
  private static final int MAX_OUTPUT_BYTES = 1 << 20;
  private static final int MAX_REASON_CHARS = 200;

  private final List<String> command;
  private final Duration timeout;

  /** {@code npu-smi info -t topo} with a 10 s timeout. */
  public CommandTopologySource() {
    this(DEFAULT_COMMAND, DEFAULT_TIMEOUT);
  }

  public CommandTopologySource(List<String> command, Duration timeout) {
    if (command.isEmpty()) {
      throw new IllegalArgumentException("empty topology command");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("topology command timeout must be positive: " + timeout);
    }
    this.command = List.copyOf(command);
    this.timeout = timeout;
  }

  public List<String> command() {
    return command;
  }

  public Duration timeout() {
    return timeout;
  }

  /**
   * Runs the command and parses its output. When {@code runtime} is given and can count its
   * devices, the table must describe exactly logical devices {@code 0..count-1}; otherwise (for
   * instance npu-smi shows the whole host while ASCEND_RT_VISIBLE_DEVICES narrows the runtime) the
   * ids would name the wrong devices, so the answer is {@link Topology#NONE}. A null runtime skips
   * that check.
   */
  @Override
  public Topology load(DeviceRuntime runtime) {
    String stdout;
    try {
      stdout = run();
    } catch (CommandFailed e) {
      return fail(e.getMessage());
    }
    NpuSmiTopology parsed;
    try {
      parsed = NpuSmiTopology.parse(stdout);
    } catch (NpuSmiTopologyException e) {
      return fail("cannot parse its output: " + e.getMessage());
    }
    if (parsed.unsupported()) {
      return fail("the device does not support querying topo");
    }
    if (runtime != null) {
      Integer count = deviceCount(runtime);
      if (count != null && !parsed.logicalIdSet().equals(range(count))) {
        return fail(
            "it shows devices "
                + parsed.labels()
                + " but the runtime sees "
                + count
                + " device(s); the ids would not line up");
      }
    }
    String name = String.join(" ", command);
    for (String warning : parsed.warnings()) {
      log.warn("Topology from '{}': {}", name, warning);
    }
    return parsed.toTopology();
  }

  private static Integer deviceCount(DeviceRuntime runtime) {
    try {
      return runtime.deviceCount();
    } catch (DeviceException e) {
      return null;
    }
  }

  private static Set<Integer> range(int count) {
    Set<Integer> ids = new HashSet<>();
    for (int i = 0; i < count; i++) {
      ids.add(i);
    }
    return ids;
  }

  private Topology fail(String reason) {
    log.warn(
        "No topology from '{}': {}; links will be labelled unknown",
        String.join(" ", command),
        reason);
    return Topology.NONE;
  }

  private String run() throws CommandFailed {
    long deadline = System.nanoTime() + timeout.toNanos();
    Process process;
    try {
      process = new ProcessBuilder(command).start();
    } catch (IOException | RuntimeException e) {
      throw new CommandFailed("cannot start it: " + oneLine(e.getMessage()));
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
        throw new CommandFailed("no answer within " + describe(timeout));
      }
      String stdout = await(out, deadline, process);
      int status = process.exitValue();
      if (status != 0) {
        if (stdout.contains("does not support querying topo")) {
          throw new CommandFailed("the device does not support querying topo");
        }
        String detail = firstLine(await(err, deadline, process));
        if (detail.isEmpty()) {
          detail = firstLine(stdout);
        }
        throw new CommandFailed("exit status " + status + (detail.isEmpty() ? "" : ": " + detail));
      }
      return stdout;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill(process);
      throw new CommandFailed("interrupted while waiting for it");
    }
  }

  private String await(CompletableFuture<String> future, long deadline, Process process)
      throws CommandFailed, InterruptedException {
    try {
      // The output can stay open after the command exits when it left a child behind.
      return future.get(Math.max(remainingNanos(deadline), 1), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      kill(process);
      throw new CommandFailed("its output was still open after " + describe(timeout));
    } catch (ExecutionException e) {
      throw new CommandFailed("cannot read its output: " + oneLine(e.getCause().getMessage()));
    }
  }

  private static long remainingNanos(long deadline) {
    return Math.max(0, deadline - System.nanoTime());
  }

  private static void kill(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  private static CompletableFuture<String> readAsync(InputStream in, String what) {
    CompletableFuture<String> result = new CompletableFuture<>();
    Thread reader =
        new Thread(
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
            },
            "topology-command-" + what);
    reader.setDaemon(true);
    reader.start();
    return result;
  }

  private static String firstLine(String text) {
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

  @Override
  public String toString() {
    return "CommandTopologySource" + command;
  }

  /** Why the command gave no usable output; the message is the reason that gets logged. */
  private static final class CommandFailed extends Exception {
    private static final long serialVersionUID = 1L;

    CommandFailed(String reason) {
      super(reason, null, false, false);
    }
  }
}
