package io.linkwatch.cli;

import io.linkwatch.probe.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What a one-shot command is doing, as one line on stderr that rewrites itself while the command
 * runs ({@code p2p: 3->5 64MiB, 4.2 s}), from the first second on, and is erased before the results
 * are printed. Only on a terminal: on a pipe or in a file (a script, a prolog, CI) there is none.
 * {@code LINKWATCH_PROGRESS=always} or {@code never} overrides the terminal check.
 */
final class ProgressLine implements Progress, AutoCloseable {
  private static final long TICK_MILLIS = 250;
  private static final long QUIET_NANOS = 1_000_000_000L;

  private final PrintWriter err;
  private final String name;
  private final long started = System.nanoTime();
  private final Thread ticker;
  private volatile String step = "starting";
  private volatile boolean closed;
  private boolean shown;

  private ProgressLine(PrintWriter err, String name) {
    this.err = err;
    this.name = name;
    this.ticker = new Thread(this::tick, "progress");
    ticker.setDaemon(true);
    ticker.start();
  }

  /** A progress line for {@code name} on {@code err}, or none where stderr is no terminal. */
  static ProgressLine start(PrintWriter err, String name) {
    return wanted() ? new ProgressLine(err, name) : null;
  }

  /** {@code progress}, or {@link Progress#NONE} when there is no line. */
  static Progress of(ProgressLine progress) {
    return progress == null ? Progress.NONE : progress;
  }

  static void close(ProgressLine progress) {
    if (progress != null) {
      progress.close();
    }
  }

  /** Whether stderr is a terminal, unless {@code LINKWATCH_PROGRESS} says always or never. */
  static boolean wanted() {
    String forced = System.getenv("LINKWATCH_PROGRESS");
    if ("always".equals(forced)) {
      return true;
    }
    if ("never".equals(forced)) {
      return false;
    }
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  @Override
  public void step(String what) {
    step = what;
  }

  private void tick() {
    while (!closed) {
      try {
        Thread.sleep(TICK_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      long elapsed = System.nanoTime() - started;
      if (elapsed > QUIET_NANOS) {
        synchronized (this) {
          if (closed) {
            return;
          }
          err.printf(Locale.ROOT, "\r\033[K%s: %s, %.1f s", name, step, elapsed / 1e9);
          err.flush();
          shown = true;
        }
      }
    }
  }

  /** Stops and erases the line. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      if (shown) {
        err.print("\r\033[K");
        err.flush();
      }
    }
    ticker.interrupt();
  }
}
