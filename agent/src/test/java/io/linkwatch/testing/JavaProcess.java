package io.linkwatch.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@code linkwatch} as a real child process (this test's classpath, the same JVM), with its
 * own environment, the way an operator or the packaged launcher would.
 */
public final class JavaProcess {
  /** What a finished command printed, and its exit status. */
  public record Result(int exit, String out, String err) {}

  private JavaProcess() {}

  public static ProcessBuilder builder(Map<String, String> env, String... args) {
    return builder(List.of("-XX:TieredStopAtLevel=1"), env, args);
  }

  /** As {@link #builder(Map, String...)}, with these JVM options instead of the tests' default. */
  public static ProcessBuilder builder(
      List<String> jvmOptions, Map<String, String> env, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("io.linkwatch.cli.Main");
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    // A null value takes the variable out of the child's environment.
    env.forEach(
        (k, v) -> {
          if (v == null) {
            pb.environment().remove(k);
          } else {
            pb.environment().put(k, v);
          }
        });
    return pb;
  }

  /**
   * The JVM options the service ships ({@code LINKWATCH_JAVA_OPTS} in {@code
   * systemd/linkwatch.default}), for tests about what the agent costs as it is deployed.
   */
  public static List<String> serviceJvmOptions() throws IOException {
    Path defaults = Path.of("..", "systemd", "linkwatch.default");
    for (String line : java.nio.file.Files.readAllLines(defaults)) {
      if (line.startsWith("LINKWATCH_JAVA_OPTS=\"") && line.endsWith("\"")) {
        String value = line.substring("LINKWATCH_JAVA_OPTS=\"".length(), line.length() - 1);
        return List.of(value.trim().split("\\s+"));
      }
    }
    throw new IllegalStateException(defaults + " sets no LINKWATCH_JAVA_OPTS");
  }

  public static Result run(Map<String, String> env, Duration timeout, String... args)
      throws IOException, InterruptedException {
    Process p = builder(env, args).start();
    var out = p.getInputStream();
    var err = p.getErrorStream();
    Thread[] readers = new Thread[2];
    String[] text = new String[2];
    readers[0] = reader(() -> text[0] = readAll(out));
    readers[1] = reader(() -> text[1] = readAll(err));
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          "linkwatch " + String.join(" ", args) + " did not finish in " + timeout);
    }
    readers[0].join();
    readers[1].join();
    return new Result(p.exitValue(), text[0], text[1]);
  }

  private static Thread reader(Runnable r) {
    Thread t = new Thread(r);
    t.start();
    return t;
  }

  private static String readAll(java.io.InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
