package io.linkwatch.host;

import java.io.IOException;
import java.nio.file.Files;
import java.util.OptionalLong;

/** How much memory the host can still give: {@code MemAvailable} in {@code /proc/meminfo}. */
public final class HostMemory {
  private HostMemory() {}

  /**
   * {@code MemAvailable} in bytes, read under {@code paths}' procfs; empty when the file cannot be
   * read or has no such line (kernels before 3.14), so a check built on it passes rather than
   * guesses.
   */
  public static OptionalLong available(HostPaths paths) {
    try {
      for (String line : Files.readAllLines(paths.procfs().resolve("meminfo"))) {
        if (line.startsWith("MemAvailable:")) {
          String[] parts = line.substring("MemAvailable:".length()).strip().split("\\s+");
          long value = Long.parseLong(parts[0]);
          return OptionalLong.of(parts.length > 1 && parts[1].equals("kB") ? value * 1024 : value);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Unreadable or malformed: no figure to hold sizes to.
    }
    return OptionalLong.empty();
  }
}
