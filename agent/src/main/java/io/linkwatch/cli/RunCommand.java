package io.linkwatch.cli;

import io.linkwatch.Agent;
import io.linkwatch.config.AgentConfig;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.config.ListenAddress;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.backends.DeviceRuntimes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linkwatch run}: the long-running agent. Flags override the file. Without {@code --config},
 * a missing {@code /etc/linkwatch/linkwatch.yaml} means built-in defaults; a file named with {@code
 * --config} must exist. SIGTERM stops it cleanly.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Run the agent: scheduled probes, served on /metrics.")
final class RunCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(RunCommand.class);

  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "YAML configuration. Default: /etc/linkwatch/linkwatch.yaml.")
  Path config;

  @Option(
      names = "--backend",
      converter = BackendConverter.class,
      paramLabel = "BACKEND",
      description =
          "Device runtime (overrides the file): auto, ascend, cuda, sim or sim-cuda. Default: the"
              + " file's backend, else auto.")
  Backend backend;

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      description = "HOST:PORT to serve on (overrides the file). Default: 0.0.0.0:10187.")
  String listen;

  @Option(
      names = "--web.config.file",
      paramLabel = "FILE",
      description =
          "TLS, client certificates and basic auth, in the Prometheus exporter-toolkit format"
              + " (overrides web.config_file in the file).")
  Path webConfigFile;

  @Override
  public Integer call() throws Exception {
    io.linkwatch.util.LogSetup.timestampsOutsideJournald();
    AgentConfig cfg = loadConfig();
    if (webConfigFile != null) {
      cfg = cfg.withWeb(cfg.web().withConfigFile(webConfigFile));
    }
    if (backend != null) {
      cfg = cfg.withBackend(backend);
    }
    if (listen != null) {
      try {
        cfg = cfg.withListen(ListenAddress.parse(listen));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--listen: " + e.getMessage());
      }
    }
    // Fails with the one-line "not found" message before anything starts; workers, metrics and logs
    // get the backend auto stood for.
    cfg = cfg.withBackend(DeviceRuntimes.checkLoadable(cfg.backend()));
    // /metrics is up before the scheduler starts: the first probe need not wait beyond its jitter.
    Agent agent = start(cfg, listen != null);
    String host = cfg.listen().host();
    String shown = host.equals("0.0.0.0") || host.equals("::") ? "localhost" : host;
    spec.commandLine()
        .getOut()
        .printf(
            "linkwatch: serving %s://%s:%d/metrics%n",
            cfg.web().tls() ? "https" : "http",
            shown.contains(":") ? "[" + shown + "]" : shown,
            agent.port());
    spec.commandLine().getOut().flush();
    markClassArchiveUsable();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  agent.close();
                  stopped.countDown();
                  // A stop asked for by SIGTERM is a clean stop: exit 0, not the JVM's 143.
                  ((ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory()).stop();
                  Runtime.getRuntime().halt(0);
                },
                "shutdown"));
    stopped.await();
    return 0;
  }

  /**
   * The agent started, or a usage error naming the address when it cannot be bound, and where it
   * was set, with the hint that fits the cause ({@link #listenHint}).
   */
  private static Agent start(AgentConfig cfg, boolean fromFlag) throws Exception {
    try {
      return Agent.start(cfg, 0);
    } catch (Exception e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        String hint = listenHint(t, cfg.listen().port());
        if (hint != null) {
          String where = fromFlag ? "--listen" : "listen";
          throw new UsageException(
              where
                  + " "
                  + cfg.listen()
                  + ": cannot listen there ("
                  + reason(t, cfg.listen().host())
                  + "); "
                  + hint);
        }
      }
      throw e;
    }
  }

  /**
   * What to do about a listen address that cannot be bound, by cause, or null when {@code t} is not
   * such a cause: in use (another process has the port), not available (an address of no interface
   * of this host), unknown host (a name that does not resolve), permission (a port below 1024
   * without root or CAP_NET_BIND_SERVICE).
   */
  static String listenHint(Throwable t, int port) {
    String message = t.getMessage() == null ? "" : t.getMessage();
    if (t instanceof java.net.UnknownHostException) {
      return "check the host name, or give one of this host's addresses (0.0.0.0 for all) with"
          + " --listen";
    }
    // Socket errors only (BindException is one; Netty's native transport has its own type): a
    // "Permission denied" elsewhere in the start, e.g. the probe lock's file, is not the address's.
    if (!(t instanceof java.net.SocketException
        || t.getClass().getName().endsWith("NativeIoException"))) {
      return null;
    }
    if (message.contains("Address already in use")) {
      return "stop what uses it or choose another HOST:PORT with --listen";
    }
    if (message.contains("Cannot assign requested address")
        || message.contains("Address not available")) {
      return "the address is not one of this host's: give one of its addresses, 0.0.0.0 for all"
          + " or 127.0.0.1 for this host only, with --listen";
    }
    if (message.contains("Permission denied") || message.contains("Operation not permitted")) {
      return port < 1024
          ? "a port below 1024 needs root or CAP_NET_BIND_SERVICE: choose a port from 1024 with"
              + " --listen (the default is 10187)"
          : "this user may not listen there: choose another HOST:PORT with --listen";
    }
    return t instanceof java.net.BindException ? "choose another HOST:PORT with --listen" : null;
  }

  /** The cause in words, e.g. {@code Address already in use} or {@code unknown host nosuch}. */
  private static String reason(Throwable t, String host) {
    if (t instanceof java.net.UnknownHostException) {
      return "unknown host " + host;
    }
    String message = t.getMessage();
    // Netty's native transport writes "bind(..) failed: Address already in use".
    int colon = message == null ? -1 : message.lastIndexOf("failed: ");
    return colon >= 0 ? message.substring(colon + "failed: ".length()) : message;
  }

  private AgentConfig loadConfig() {
    if (config == null && !Files.exists(ConfigLoader.DEFAULT_PATH)) {
      log.info("no {}: using the built-in defaults", ConfigLoader.DEFAULT_PATH);
    }
    return ConfigLoader.loadOrDefaults(config);
  }

  /**
   * The launcher has this run write a class-data archive at exit (LINKWATCH_CDS_PENDING); the mark
   * says the agent got as far as serving, so the archive holds a real run's classes, not a failed
   * start's (see /usr/bin/linkwatch).
   */
  private static void markClassArchiveUsable() {
    String pending = System.getenv("LINKWATCH_CDS_PENDING");
    if (pending == null || pending.isBlank()) {
      return;
    }
    try {
      java.nio.file.Files.writeString(java.nio.file.Path.of(pending + ".ok"), "");
    } catch (java.io.IOException e) {
      log.debug("class archive not marked: {}", e.getMessage());
    }
  }
}
