package io.linkwatch.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the kernel says of a process, read by the tests themselves from {@code /proc}. */
public final class ProcStatus {
  private ProcStatus() {}

  /** Resident memory of {@code pid} in bytes ({@code VmRSS} of {@code /proc/PID/status}). */
  public static long rssBytes(long pid) throws IOException {
    return Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status")).stream()
            .filter(l -> l.startsWith("VmRSS:"))
            .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")))
            .findFirst()
            .orElseThrow(() -> new IOException("no VmRSS for " + pid))
        * 1024;
  }
}
