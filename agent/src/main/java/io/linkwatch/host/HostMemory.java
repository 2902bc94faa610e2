package io.linkwatch.host;

import java.io.IOException;
import java.nio.file.Files;
import java.util.OptionalLong;

/**
 * Figures of a {@code meminfo} file: the host's ({@code /proc/meminfo}: {@code MemAvailable:
 * 22749808 kB}) or a NUMA node's ({@code nodeN/meminfo}: {@code Node 4 MemTotal: 0 kB}), which puts
 * the node before the key. Reading ({@link #available}) is apart from parsing ({@link #parseKb}).
 */
public final class HostMemory {
  private HostMemory() {}

  /**
   * {@code MemAvailable} in bytes, read under {@code paths}' procfs; empty when the file cannot be
   * read or has no such line (kernels before 3.14), so a check built on it passes rather than
   * guesses.
   */
  public static OptionalLong available(HostPaths paths) {
    String text;
    try {
      text = Files.readString(paths.procfs().resolve("meminfo"));
    } catch (IOException e) {
      return OptionalLong.empty();
    }
    OptionalLong kb = parseKb(text, "MemAvailable");
    return kb.isPresent() ? OptionalLong.of(kb.getAsLong() * 1024) : OptionalLong.empty();
  }

  /**
   * The figure after {@code key:} on any line of {@code meminfo}, in kB as the file writes it;
   * empty when no line has it or its figure is not a number.
   */
  public static OptionalLong parseKb(String meminfo, String key) {
    String label = key + ":";
    for (String line : meminfo.split("\n")) {
      String[] tokens = line.strip().split("\\s+");
      for (int i = 0; i + 1 < tokens.length; i++) {
        if (tokens[i].equals(label)) {
          try {
            return OptionalLong.of(Long.parseLong(tokens[i + 1]));
          } catch (NumberFormatException e) {
            return OptionalLong.empty();
          }
        }
      }
    }
    return OptionalLong.empty();
  }
}
