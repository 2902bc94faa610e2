package io.linkwatch.host;

import java.util.OptionalLong;

/**
 * System call numbers for the calls glibc has no wrapper for. They differ per architecture: {@code
 * move_pages} is 279 on x86_64 and 239 on aarch64 ({@code asm/unistd_64.h}, {@code
 * asm-generic/unistd.h}).
 */
final class SyscallNumbers {
  private SyscallNumbers() {}

  /**
   * {@code move_pages} for a JVM {@code os.arch} value; empty for an architecture not known here.
   */
  static OptionalLong movePages(String osArch) {
    return switch (osArch) {
      case "amd64", "x86_64" -> OptionalLong.of(279);
      case "aarch64", "arm64" -> OptionalLong.of(239);
      default -> OptionalLong.empty();
    };
  }
}
