package io.linkwatch.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * What a child process holds now: its resident memory ({@code VmRSS} of {@code /proc/PID/status})
 * and the CPU time it has used (user and system, as {@link ProcessHandle.Info} reads it from {@code
 * /proc/PID/stat}).
 */
public record ProcessFootprint(long residentBytes, double cpuSeconds) {
  /** Of the process {@code pid} under {@code procfs}; empty once it has gone (or is a zombie). */
  public static Optional<ProcessFootprint> of(Path procfs, long pid) {
    String status;
    try {
      status = Files.readString(procfs.resolve(String.valueOf(pid)).resolve("status"));
    } catch (IOException e) {
      return Optional.empty();
    }
    Optional<Long> rss = residentBytes(status);
    if (rss.isEmpty()) {
      return Optional.empty(); // a zombie has no VmRSS line: nothing resident
    }
    double cpu =
        ProcessHandle.of(pid)
                .flatMap(h -> h.info().totalCpuDuration())
                .orElse(Duration.ZERO)
                .toNanos()
            / 1e9;
    return Optional.of(new ProcessFootprint(rss.get(), cpu));
  }

  /** {@code VmRSS: 12345 kB} of a status file, in bytes. */
  static Optional<Long> residentBytes(String status) {
    return status
        .lines()
        .filter(l -> l.startsWith("VmRSS:"))
        .findFirst()
        .map(l -> l.substring("VmRSS:".length()).strip().split("\\s+"))
        .map(p -> Long.parseLong(p[0]) * (p.length > 1 && p[1].equals("kB") ? 1024 : 1));
  }
}
