package io.linkwatch.config;

import io.linkwatch.peer.PeerAddress;
import io.linkwatch.peer.PeerConfig;
import io.linkwatch.peer.PeerSchedule.Member;
import io.linkwatch.util.Durations;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads the {@code peers:} section; every problem is reported with its key. */
final class PeerConfigReader {
  private PeerConfigReader() {}

  static PeerConfig read(ConfigNode node, ListenAddress listen) {
    PeerConfig d = PeerConfig.NONE;
    List<Member> members = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (ConfigNode row : node.mappings("static")) {
      String host = row.scalar("host", null, PeerConfigReader::hostPort);
      if (!row.has("host")) {
        row.problem("host", "is required: the member's host:port, as its agent listens");
      }
      String tor = row.scalar("tor", null, s -> s);
      String rail = row.scalar("rail", null, s -> s);
      row.rejectUnknown();
      if (host != null && !seen.add(host)) {
        row.problem("host", host + " is listed twice");
      } else if (host != null) {
        members.add(new Member(host, tor, rail));
      }
    }
    Optional<URI> httpSd =
        Optional.ofNullable(node.scalar("http_sd", null, PeerConfigReader::httpUrl));
    Duration refresh = node.scalar("http_sd_refresh", d.httpSdRefresh(), Durations::parse);
    if (refresh.toMillis() < 1000) {
      node.problem("http_sd_refresh", Durations.format(refresh) + " is below 1s");
    }
    Optional<PeerConfig.Slurm> slurm = Optional.empty();
    if (node.has("slurm")) {
      ConfigNode s = node.mapping("slurm");
      String partition = s.scalar("partition", null, t -> t.strip());
      int port = s.integer("port", listen.port(), 1, 65535);
      if (!s.has("port") && listen.port() == 0) {
        s.problem("port", "is required while listen's port is 0 (chosen at start)");
      }
      Duration slurmRefresh =
          s.scalar("refresh", PeerConfig.Slurm.DEFAULT_REFRESH, Durations::parse);
      if (slurmRefresh.toMillis() < 1000) {
        s.problem("refresh", Durations.format(slurmRefresh) + " is below 1s");
      }
      s.rejectUnknown();
      slurm = Optional.of(new PeerConfig.Slurm(Optional.ofNullable(partition), port, slurmRefresh));
    }
    Optional<PeerConfig.Kubernetes> kubernetes =
        node.has("kubernetes")
            ? Optional.of(kubernetes(node.mapping("kubernetes")))
            : Optional.empty();
    List<String> sources = new ArrayList<>();
    if (!members.isEmpty()) {
      sources.add("static");
    }
    httpSd.ifPresent(u -> sources.add("http_sd"));
    slurm.ifPresent(x -> sources.add("slurm"));
    kubernetes.ifPresent(x -> sources.add("kubernetes"));
    if (sources.size() > 1) {
      node.problem(
          sources.get(1),
          "and peers."
              + sources.get(0)
              + " are both set: the members come from one source; drop one");
    }
    Optional<String> self =
        Optional.ofNullable(node.scalar("self", null, PeerConfigReader::hostPort));
    Duration round = node.scalar("round", d.round(), Durations::parse);
    if (round.toMillis() < 1000 || round.toMillis() % 1000 != 0) {
      node.problem("round", Durations.format(round) + " must be whole seconds, 1s or more");
    }
    int budget =
        node.integer("budget_per_hour", d.budgetPerHour(), PeerConfig.MIN_BUDGET, 1_000_000);
    int echoes = node.integer("echoes", d.echoes(), 1, 1000);
    int payload =
        node.integer("payload_bytes", d.payloadBytes(), EchoPacketSize.MIN, EchoPacketSize.MAX);
    Duration timeout = node.scalar("timeout", d.timeout(), Durations::parse);
    if (timeout.toMillis() < 10 || timeout.compareTo(Duration.ofSeconds(30)) > 0) {
      node.problem("timeout", Durations.format(timeout) + " must be from 10ms to 30s");
    }
    double loss = node.number("loss_threshold", d.lossThreshold(), 0.0, 0.99);
    Optional<PeerConfig.Collective> collective =
        node.has("collective")
            ? Optional.of(collective(node.mapping("collective")))
            : Optional.empty();
    if (collective.isPresent() && sources.isEmpty()) {
      node.problem(
          "collective",
          "needs the members to run with: set peers.static, peers.http_sd, peers.slurm or"
              + " peers.kubernetes");
    }
    PeerConfig.NpuPing npuPing =
        node.has("npu_ping") ? npuPing(node.mapping("npu_ping")) : d.npuPing();
    Optional<Path> httpConfig = httpConfigFile(node);
    node.rejectUnknown();
    return new PeerConfig(
        members,
        httpSd,
        refresh,
        slurm,
        kubernetes,
        self,
        round,
        budget,
        echoes,
        payload,
        timeout,
        loss,
        collective,
        npuPing,
        httpConfig);
  }

  /** {@code peers.npu_ping}. */
  private static PeerConfig.NpuPing npuPing(ConfigNode n) {
    PeerConfig.NpuPing d = PeerConfig.NpuPing.DEFAULTS;
    PeerConfig.NpuPing.Mode mode =
        n.scalar(
            "enabled",
            d.mode(),
            t ->
                switch (t.strip()) {
                  case "auto" -> PeerConfig.NpuPing.Mode.AUTO;
                  case "true" -> PeerConfig.NpuPing.Mode.ON;
                  case "false" -> PeerConfig.NpuPing.Mode.OFF;
                  default ->
                      throw new IllegalArgumentException(t.strip() + " is not auto, true or false");
                });
    Path conf = n.scalar("hccn_conf", d.hccnConf(), ConfigLoader::absolutePath);
    n.rejectUnknown();
    return new PeerConfig.NpuPing(mode, conf);
  }

  /**
   * An {@code http_config_file} key of {@code node}: a Prometheus HTTP client config, read now, so
   * that a mistake in it stops the agent before it starts, naming the key.
   */
  private static Optional<Path> httpConfigFile(ConfigNode node) {
    Optional<Path> file = Optional.ofNullable(node.scalar("http_config_file", null, Path::of));
    file.ifPresent(
        f -> {
          try {
            HttpClientConfigLoader.loadForPeers(f);
          } catch (ConfigException e) {
            node.problem("http_config_file", e.getMessage().strip().replace("\n", "; "));
          }
        });
    return file;
  }

  /**
   * {@code peers.kubernetes}: the Service is required; the files and the API server are not looked
   * at here (they exist only in the pod; a poll that cannot read them says so).
   */
  private static PeerConfig.Kubernetes kubernetes(ConfigNode k) {
    String service = k.scalar("service", null, PeerConfigReader::name);
    if (!k.has("service")) {
      k.problem("service", "is required: the Service over the agents' pods (e.g. linkwatch)");
    }
    String namespace = k.scalar("namespace", null, PeerConfigReader::name);
    String port = k.scalar("port", PeerConfig.Kubernetes.DEFAULT_PORT, PeerConfigReader::portName);
    Duration refresh = k.scalar("refresh", PeerConfig.Kubernetes.DEFAULT_REFRESH, Durations::parse);
    if (refresh.toMillis() < 1000) {
      k.problem("refresh", Durations.format(refresh) + " is below 1s");
    }
    URI apiServer = k.scalar("api_server", null, PeerConfigReader::httpsUrl);
    Path token =
        k.scalar("token_file", PeerConfig.Kubernetes.DEFAULT_TOKEN_FILE, PeerConfigReader::path);
    Path ca = k.scalar("ca_file", PeerConfig.Kubernetes.DEFAULT_CA_FILE, PeerConfigReader::path);
    k.rejectUnknown();
    return new PeerConfig.Kubernetes(
        service == null ? "" : service,
        Optional.ofNullable(namespace),
        port,
        refresh,
        Optional.ofNullable(apiServer),
        token,
        ca);
  }

  /** A Service's or namespace's name: a DNS label (RFC 1123), as Kubernetes requires. */
  private static String name(String text) {
    String t = text.strip();
    if (!t.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not a Kubernetes name (lower-case letters, digits and '-', 63 at most)");
    }
    return t;
  }

  /** An endpoint port's name: an IANA service name, as the Service's {@code ports[].name}. */
  private static String portName(String text) {
    String t = text.strip();
    if (!t.matches("[a-z0-9]([-a-z0-9]{0,13}[a-z0-9])?")) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a port name (lower-case letters, digits and '-', 15 at most)");
    }
    return t;
  }

  private static Path path(String text) {
    if (text.isBlank()) {
      throw new IllegalArgumentException("is empty");
    }
    return Path.of(text.strip());
  }

  private static URI httpsUrl(String text) {
    URI uri = httpUrl(text);
    if (!"https".equals(uri.getScheme())) {
      throw new IllegalArgumentException(
          "'" + text + "' is not an https:// URL (the token is never sent in the clear)");
    }
    return uri;
  }

  /** {@code peers.collective}; its presence turns the two-host runs on. */
  private static PeerConfig.Collective collective(ConfigNode c) {
    PeerConfig.Collective d = PeerConfig.Collective.DEFAULTS;
    Duration every = c.scalar("every", d.every(), Durations::parse);
    if (every.toMillis() < 1000 || every.toMillis() % 1000 != 0) {
      c.problem("every", Durations.format(every) + " must be whole seconds, 1s or more");
    }
    Duration deadline = c.scalar("deadline", d.deadline(), Durations::parse);
    if (deadline.toMillis() < 1000) {
      c.problem("deadline", Durations.format(deadline) + " is below 1s");
    } else if (deadline.compareTo(every) >= 0) {
      c.problem(
          "deadline",
          Durations.format(deadline)
              + " is not below every ("
              + Durations.format(every)
              + "): a run must end before the next round starts");
    }
    List<Integer> devices =
        c.list("devices", d.devices(), io.linkwatch.probe.Distinct.devices(), false);
    List<Long> sizes =
        c.list(
            "sizes",
            d.sizes(),
            io.linkwatch.probe.Distinct.sizes(io.linkwatch.registry.ProbeKind::fp16MessageSize),
            false);
    int warmup = c.integer("warmup", d.warmup(), 0, 10_000);
    int iterations = c.integer("iterations", d.iterations(), 1, 100_000);
    List<String> probes =
        c.list(
            "probes",
            d.probes(),
            io.linkwatch.probe.Distinct.of(PeerConfigReader::peerProbe, "probe"),
            false);
    Optional<Path> httpConfig = httpConfigFile(c);
    c.rejectUnknown();
    return new PeerConfig.Collective(
        every, deadline, devices, sizes, warmup, iterations, probes, httpConfig);
  }

  private static String peerProbe(String text) {
    String id = text.strip();
    if (!io.linkwatch.registry.ProbeKind.PEER_PROBES.contains(id)) {
      throw new IllegalArgumentException(
          id
              + " is not a two-host probe (one of "
              + String.join(", ", io.linkwatch.registry.ProbeKind.PEER_PROBES)
              + ")");
    }
    return id;
  }

  /** The sizes an echo datagram may have: its header, up to one Ethernet frame's payload. */
  private static final class EchoPacketSize {
    static final int MIN = io.linkwatch.peer.EchoPacket.HEADER;
    static final int MAX = 1472;
  }

  private static String hostPort(String text) {
    return PeerAddress.parse(text).text();
  }

  private static URI httpUrl(String text) {
    try {
      URI uri = new URI(text.strip());
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
          || uri.getHost() == null) {
        throw new IllegalArgumentException("'" + text + "' is not an http:// or https:// URL");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("'" + text + "' is not a URL: " + e.getReason());
    }
  }
}
