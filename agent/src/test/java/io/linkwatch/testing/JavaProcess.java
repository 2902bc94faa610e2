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
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-XX:TieredStopAtLevel=1");
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
