package io.linkwatch.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The sim's fault file for this test JVM (surefire sets {@code LINKWATCH_SIM_CONTROL}). Writes go
 * through a rename, so the sim never reads a half-written file. Close it to remove every fault.
 */
public final class SimControl implements AutoCloseable {
  private final Path file;

  private SimControl(Path file) {
    this.file = file;
  }

  public static SimControl open() {
    String path = System.getenv("LINKWATCH_SIM_CONTROL");
    if (path == null) {
      throw new IllegalStateException(
          "LINKWATCH_SIM_CONTROL is not set: run the tests through Maven");
    }
    SimControl c = new SimControl(Path.of(path));
    c.clear();
    return c;
  }

  public static Path forProcess(Path dir) {
    return dir.resolve("sim-control");
  }

  public Path path() {
    return file;
  }

  public SimControl set(String... lines) {
    write(file, lines);
    return this;
  }

  public static void write(Path file, String... lines) {
    try {
      Files.createDirectories(file.getParent());
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, String.join("\n", lines) + "\n");
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public void clear() {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    clear();
  }
}
