package io.linkwatch.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child process the agent supervises (a probe worker, the passive watcher): started with what it
 * adds to the agent's environment, its stderr relayed to the agent's log with its last lines kept
 * for the report of its death ({@link PostMortem}), and killed with everything it started. These
 * are the parts the supervisors share; each keeps its own protocol (one JSON document per run, one
 * line per round) and its own deadline. {@link ExternalCommand}, which keeps a tool's whole stderr
 * rather than relaying it, shares the kill ({@link #killTree}) and the reader threads ({@link
 * #daemon}).
 */
public final class ChildProcess {
  private static final Logger log = LoggerFactory.getLogger(ChildProcess.class);

  /** How long a killed child may take to go before its supervisor moves on. */
  private static final long KILL_WAIT_SECONDS = 5;

  /** How long the end of a dead child's stderr may take to be read. */
  private static final long STDERR_DRAIN_MILLIS = 1000;

  private final Process process;
  private final Thread stderrReader;
  private final Deque<String> stderrTail = new ArrayDeque<>();

  private ChildProcess(Process process, ChildLogRelay relay, String child) {
    this.process = process;
    this.stderrReader =
        daemon(
            child.replace(' ', '-') + "-stderr",
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  keep(line);
                  relay.relay(child, line);
                }
              } catch (IOException e) {
                log.debug("{} stderr closed: {}", child, e.getMessage());
              }
            });
  }

  /**
   * Starts {@code command} with {@code environment} applied to a copy of this process's
   * environment, relaying its stderr through {@code relay} under the name {@code child} (e.g.
   * {@code worker p2p}, {@code watcher}).
   */
  public static ChildProcess start(
      List<String> command,
      Consumer<Map<String, String>> environment,
      ChildLogRelay relay,
      String child)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    environment.accept(builder.environment());
    return new ChildProcess(builder.start(), relay, child);
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public InputStream stdout() {
    return process.getInputStream();
  }

  public OutputStream stdin() {
    return process.getOutputStream();
  }

  /** Waits up to {@code timeout} for it to exit; whether it did. */
  public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    return process.waitFor(timeout, unit);
  }

  public int exitValue() {
    return process.exitValue();
  }

  /**
   * Its exit status once it has exited (waiting up to 5 s), or -1; its stderr is read to the end
   * first, so the {@link #stderrTail} that goes with the status is complete.
   */
  public int exitStatus() throws InterruptedException {
    if (!process.waitFor(KILL_WAIT_SECONDS, TimeUnit.SECONDS)) {
      return -1;
    }
    stderrReader.join(STDERR_DRAIN_MILLIS);
    return process.exitValue();
  }

  /**
   * Its last stderr lines (at most {@link PostMortem#STDERR_LINES}), once its stderr has been read
   * to the end or a second has passed.
   */
  public List<String> stderrTail() throws InterruptedException {
    stderrReader.join(STDERR_DRAIN_MILLIS);
    synchronized (stderrTail) {
      return List.copyOf(stderrTail);
    }
  }

  private void keep(String line) {
    synchronized (stderrTail) {
      if (stderrTail.size() == PostMortem.STDERR_LINES) {
        stderrTail.removeFirst();
      }
      stderrTail.addLast(line);
    }
  }

  /** Kills it and everything it started, waiting up to 5 s for it to go. */
  public void kill() {
    killTree(process);
  }

  /**
   * Kills {@code process} and its descendants (a driver's helper, a shell's child), waiting up to 5
   * s for it to go; an interrupt is kept for the caller.
   */
  public static void killTree(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(KILL_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Starts {@code body} on a daemon thread named {@code name}: a child's reader never holds the
   * agent up.
   */
  public static Thread daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }
}
