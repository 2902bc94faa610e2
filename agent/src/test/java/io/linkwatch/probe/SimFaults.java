package io.linkwatch.probe;

import io.linkwatch.probe.collective.AllgatherProbe;
import io.linkwatch.probe.collective.AllreduceProbe;
import io.linkwatch.runtime.DeviceRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

/**
 * The sim's control (fault) file for tests: the path comes from {@code LINKWATCH_SIM_CONTROL},
 * which the surefire configuration sets for the whole test JVM (and so for its worker children). An
 * absent file means no faults.
 */
public final class SimFaults {
  private SimFaults() {}

  public static Path path() {
    String p =
        Objects.requireNonNull(
            System.getenv("LINKWATCH_SIM_CONTROL"),
            "LINKWATCH_SIM_CONTROL is not set: run the tests through Maven");
    return Path.of(p);
  }

  /** Replaces the fault lines, atomically (the sim may read the file at any call). */
  public static void set(String... lines) {
    Path file = path();
    try {
      Files.createDirectories(file.getParent());
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, String.join("\n", lines) + "\n");
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Removes every fault. */
  public static void clear() {
    try {
      Files.deleteIfExists(path());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Removes every fault and makes the sim notice now, so that the next fault line starts counting
   * its {@code after N} afresh even if it is the same line as before.
   */
  public static void clear(DeviceRuntime runtime) {
    clear();
    runtime.deviceCount();
  }

  /** Live threads of the collective probes' ranks. */
  public static long liveRankThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .filter(
            t ->
                t.getName().startsWith(AllreduceProbe.THREAD_PREFIX)
                    || t.getName().startsWith(AllgatherProbe.THREAD_PREFIX))
        .count();
  }
}
