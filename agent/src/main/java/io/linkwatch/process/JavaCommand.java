package io.linkwatch.process;

import java.nio.file.Path;
import java.util.ArrayList;
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

  /**
   * Every JVM option of a child JVM (a worker or the watcher): the configured ones, then the client
   * compiler (one thread), no perf-data file and no crash dumps in cwd, as a worker is short-lived
   * and the watcher is restartable.
   */
  public static List<String> childJvmOptions(List<String> javaOptions) {
    List<String> all = new ArrayList<>(javaOptions);
    all.addAll(
        List.of(
            "-XX:TieredStopAtLevel=1",
            "-XX:CICompilerCount=1",
            "-XX:-UsePerfData",
            "-XX:+UseSerialGC",
            "-XX:-CreateCoredumpOnCrash",
            "-XX:ErrorFile="
                + System.getProperty("java.io.tmpdir")
                + "/linkwatch-worker-hs_err_%p.log"));
    return all;
  }
}
