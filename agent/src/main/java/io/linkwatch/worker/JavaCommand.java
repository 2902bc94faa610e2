package io.linkwatch.worker;

import java.nio.file.Path;
import java.util.List;

/**
 * The command that starts the JVM of a worker or a watcher: this JVM's own {@code bin/java}, unless
 * {@code LINKWATCH_WORKER_JAVA} gives other words. An emulated agent needs them: under qemu-user
 * without binfmt_misc the kernel cannot exec an aarch64 {@code java}, so the children have to be
 * started through the emulator as the agent was. Example: {@code
 * LINKWATCH_WORKER_JAVA="qemu-aarch64-static -L / /usr/lib/jvm/java-17-openjdk-arm64/bin/java"}
 * gives {@code [qemu-aarch64-static, -L, /, /usr/lib/jvm/java-17-openjdk-arm64/bin/java]}; unset or
 * blank gives {@code [$JAVA_HOME/bin/java]} of this JVM. Words are split on white space, with no
 * quoting.
 */
public final class JavaCommand {
  /** The environment variable that replaces the command. */
  public static final String ENV = "LINKWATCH_WORKER_JAVA";

  private JavaCommand() {}

  /** {@code override}'s words, or {@code javaHome}'s {@code bin/java} when it is null or blank. */
  public static List<String> of(String override, String javaHome) {
    if (override == null || override.isBlank()) {
      return List.of(Path.of(javaHome, "bin", "java").toString());
    }
    return List.of(override.strip().split("\\s+"));
  }

  /** For this process: {@code LINKWATCH_WORKER_JAVA}, else this JVM's {@code java}. */
  public static List<String> current() {
    return of(System.getenv(ENV), System.getProperty("java.home"));
  }
}
