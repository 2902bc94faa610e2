package io.linkwatch.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code linkwatch} in a child JVM on the test class path, so each run gets its own sim
 * profile and control file through the environment (the sim reads them per process).
 */
final class CliProcess {
  private CliProcess() {}

  record Result(int exitCode, String stdout, String stderr) {}

  /** The native build directory the pom passes to tests. */
  static Path nativeBuild() {
    String dir = System.getenv("LINKWATCH_NATIVE_BUILD");
    if (dir == null) {
      throw new IllegalStateException(
          "LINKWATCH_NATIVE_BUILD is not set (run the tests via Maven)");
    }
    return Path.of(dir);
  }

  static Path profile(String name) {
    return nativeBuild().resolve("../profiles").resolve(name).normalize();
  }

  static Result run(Map<String, String> env, Path workDir, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("io.linkwatch.cli.Main");
    command.addAll(List.of(args));
    Path out = workDir.resolve("stdout-" + System.nanoTime());
    Path err = workDir.resolve("stderr-" + System.nanoTime());
    ProcessBuilder pb =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("LINKWATCH_SIM_CONTROL");
    pb.environment().remove("LINKWATCH_SIM_PROFILE");
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("linkwatch " + String.join(" ", args) + " did not finish in 120 s");
    }
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
