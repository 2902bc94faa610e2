package io.linkwatch.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code linkwatch run} as a real child process on the sim, with its own config and fault file,
 * listening on a free loopback port that it reports on stdout.
 */
public final class AgentProcess implements AutoCloseable {
  private static final Pattern SERVING =
      Pattern.compile("serving https?://([^/ ]+):(\\d+)/metrics");

  private final Process process;
  private final String host;
  private final int port;
  private final Path control;
  private final List<String> log = Collections.synchronizedList(new ArrayList<>());
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private AgentProcess(Process process, String host, int port, Path control) {
    this.process = process;
    this.host = host;
    this.port = port;
    this.control = control;
  }

  /**
   * {@code config} (whose last section is {@code probes:}) with every probe it does not name
   * switched off, so a live test runs only the probes it is about, whatever probes exist.
   */
  public static String onlyProbes(String config) {
    StringBuilder out = new StringBuilder(config.endsWith("\n") ? config : config + "\n");
    for (io.linkwatch.registry.ProbeKind kind : io.linkwatch.registry.ProbeKind.values()) {
      if (!java.util.regex.Pattern.compile("(?m)^  " + kind.id() + ":").matcher(config).find()) {
        out.append("  ").append(kind.id()).append(": {enabled: false}\n");
      }
    }
    return out.toString();
  }

  /** Starts the agent on the Ascend sim with {@code configYaml} (listen is set here). */
  public static AgentProcess start(Path dir, String configYaml, Map<String, String> env)
      throws Exception {
    return start(dir, SimFace.ASCEND, configYaml, env);
  }

  /**
   * Starts the agent on one face of the sim with {@code configYaml} (listen and backend are set
   * here).
   */
  public static AgentProcess start(
      Path dir, SimFace face, String configYaml, Map<String, String> env) throws Exception {
    return start(dir, face, configYaml, env, List.of("-XX:TieredStopAtLevel=1"));
  }

  /** As {@link #start(Path, SimFace, String, Map)}, in a JVM with {@code jvmOptions}. */
  public static AgentProcess start(
      Path dir, SimFace face, String configYaml, Map<String, String> env, List<String> jvmOptions)
      throws Exception {
    return launch(dir, face, configYaml, env, jvmOptions, List.of(), "127.0.0.1:0");
  }

  /**
   * The agent on the Ascend sim, listening on {@code listen}, its command run through {@code
   * wrapper} (e.g. {@code ip netns exec NS}, which execs it: the process is the agent's JVM).
   */
  public static AgentProcess startWrapped(
      Path dir, List<String> wrapper, String listen, String configYaml) throws Exception {
    return startWrapped(dir, wrapper, listen, configYaml, Map.of());
  }

  /** As above, with {@code env} added to the agent's environment. */
  public static AgentProcess startWrapped(
      Path dir, List<String> wrapper, String listen, String configYaml, Map<String, String> env)
      throws Exception {
    return launch(
        dir, SimFace.ASCEND, configYaml, env, List.of("-XX:TieredStopAtLevel=1"), wrapper, listen);
  }

  private static AgentProcess launch(
      Path dir,
      SimFace face,
      String configYaml,
      Map<String, String> env,
      List<String> jvmOptions,
      List<String> wrapper,
      String listen)
      throws Exception {
    Path config = dir.resolve("linkwatch.yaml");
    // Each agent its own probe lock, unless the test is about coordination: the default lock
    // (/run/linkwatch, present once any test or the demo made it) would make agents of tests
    // running at once wait for each other's probes.
    String coordination =
        configYaml.contains("coordination:")
            ? ""
            : "coordination:\n  lock_file: " + dir.resolve("probes.lock") + "\n";
    Files.writeString(
        config,
        "backend: "
            + face.backend().id()
            + "\nlisten: "
            + listen
            + "\n"
            + coordination
            + configYaml);
    Path control = dir.resolve("sim-control");
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("LINKWATCH_SIM_CONTROL", control.toString());
    ProcessBuilder builder =
        JavaProcess.builder(jvmOptions, all, "run", "--config", config.toString());
    builder.command().addAll(0, wrapper);
    Process p = builder.start();
    CompletableFuture<Integer> port = new CompletableFuture<>();
    String[] served = new String[1];
    AgentProcess[] self = new AgentProcess[1];
    List<String> early = Collections.synchronizedList(new ArrayList<>());
    Thread out =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  Matcher m = SERVING.matcher(line);
                  if (m.find()) {
                    served[0] = m.group(1);
                    port.complete(Integer.parseInt(m.group(2)));
                  }
                  early.add(line);
                }
              } catch (IOException e) {
                port.completeExceptionally(e);
              }
            });
    out.setDaemon(true);
    out.start();
    p.onExit()
        .thenRun(
            () -> {
              sleep(200); // let the readers collect the last lines
              port.completeExceptionally(new IllegalStateException("exited with " + p.exitValue()));
            });
    Thread err =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  early.add(line);
                }
              } catch (IOException e) {
                // the agent is gone
              }
            });
    err.setDaemon(true);
    err.start();
    try {
      int actual = port.get(60, TimeUnit.SECONDS);
      self[0] = new AgentProcess(p, served[0], actual, control);
    } catch (Exception e) {
      p.destroyForcibly();
      throw new AssertionError("the agent did not start; it printed: " + early, e);
    }
    self[0].log.addAll(early);
    // Keep collecting after start: tests read the log.
    Thread copier =
        new Thread(
            () -> {
              int seen = early.size();
              while (p.isAlive()) {
                synchronized (early) {
                  while (seen < early.size()) {
                    self[0].log.add(early.get(seen++));
                  }
                }
                sleep(100);
              }
            });
    copier.setDaemon(true);
    copier.start();
    return self[0];
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public int port() {
    return port;
  }

  public Process process() {
    return process;
  }

  public List<String> log() {
    synchronized (log) {
      return new ArrayList<>(log);
    }
  }

  public void faults(String... lines) {
    if (lines.length == 0) {
      try {
        Files.deleteIfExists(control);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    } else {
      SimControl.write(control, lines);
    }
  }

  public HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path))
            .timeout(Duration.ofSeconds(10));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  public HttpResponse<byte[]> getBytes(String path, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path))
            .timeout(Duration.ofSeconds(10));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  public HttpResponse<String> send(String method, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  public String metrics() throws Exception {
    return get("/metrics").body();
  }

  /** Polls {@code /metrics} until it contains every needle, or fails after {@code timeout}. */
  public String awaitMetrics(Duration timeout, String... needles) throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    String text = "";
    while (System.nanoTime() < end) {
      text = metrics();
      boolean all = true;
      for (String n : needles) {
        all &= text.contains(n);
      }
      if (all) {
        return text;
      }
      Thread.sleep(250);
    }
    throw new AssertionError(
        "metrics never showed "
            + List.of(needles)
            + "; last scrape:\n"
            + text
            + "\nlog:\n"
            + String.join("\n", log()));
  }

  /** Waits for a log line containing {@code needle}, or fails after {@code timeout}. */
  public void awaitLog(Duration timeout, String needle) throws InterruptedException {
    awaitLog(timeout, 0, needle);
  }

  /** The same, among the lines from index {@code from} on. */
  public void awaitLog(Duration timeout, int from, String needle) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      List<String> lines = log();
      if (lines.subList(Math.min(from, lines.size()), lines.size()).stream()
          .anyMatch(l -> l.contains(needle))) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the log never said '" + needle + "':\n" + String.join("\n", log()));
  }

  /** SIGTERM, then waits; returns the exit status or -1 if it did not stop in time. */
  public int terminate(Duration timeout) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      return -1;
    }
    return process.exitValue();
  }

  @Override
  public void close() {
    List<ProcessHandle> children = process.descendants().toList();
    children.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    // Gone before the test's directory is deleted: a process still dying can write into it.
    awaitExit(process.toHandle());
    children.forEach(AgentProcess::awaitExit);
  }

  private static void awaitExit(ProcessHandle p) {
    try {
      p.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // A process that outlives 10 s after SIGKILL is the kernel's business; the test goes on.
    }
  }
}
