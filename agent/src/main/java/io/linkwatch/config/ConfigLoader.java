package io.linkwatch.config;

import io.linkwatch.activity.BusyPolicy;
import io.linkwatch.host.HostPaths;
import io.linkwatch.host.ProbeLock;
import io.linkwatch.passive.PassiveConfig;
import io.linkwatch.passive.PassiveSource;
import io.linkwatch.passive.nic.HccnTool;
import io.linkwatch.peer.PeerConfig;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.topology.CommandTopologySource;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Durations;
import io.linkwatch.util.IoReasons;
import io.linkwatch.verdict.ExpectedFigure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads and validates the YAML configuration in one place. Strict: unknown keys are errors, and
 * every error names its key path and reason; all errors of a file are reported together, e.g.
 *
 * <pre>
 * /etc/linkwatch/linkwatch.yaml: probes.p2p.iterations: must be between 1 and 100000, not 0
 * /etc/linkwatch/linkwatch.yaml: probes.p2p.sizess: unknown key, did you mean 'sizes'? (valid
 *     here: cron, deadline, enabled, every, iterations, pairs, sizes, warmup)
 * </pre>
 */
public final class ConfigLoader {
  public static final Path DEFAULT_PATH = Path.of("/etc/linkwatch/linkwatch.yaml");

  private ConfigLoader() {}

  public static AgentConfig load(Path file) {
    return parse(file.toString(), readFile(file));
  }

  /**
   * {@code given} when a command names a file; else {@link #DEFAULT_PATH} when it exists; else the
   * built-in defaults. What {@code run}, {@code check} and {@code status} read.
   */
  public static AgentConfig loadOrDefaults(Path given) {
    if (given != null) {
      return load(given);
    }
    return Files.exists(DEFAULT_PATH) ? load(DEFAULT_PATH) : defaults();
  }

  /**
   * Validates {@code text}; {@code source} prefixes every message. A web config file it names is
   * read and validated too (its errors name that file).
   */
  public static AgentConfig parse(String source, String text) {
    AgentConfig config = parseYaml(source, text, ConfigLoader::read);
    return config
        .web()
        .configFile()
        .map(f -> config.withWeb(config.web().withConfigFile(f)))
        .orElse(config);
  }

  /**
   * Reads a strict YAML file with {@code reader}: a mapping at the top, every problem collected and
   * thrown together, each line prefixed with {@code source}.
   */
  static <T> T parseYaml(
      String source, String text, java.util.function.BiFunction<ConfigNode, Problems, T> reader) {
    Node root;
    try {
      // The node tree only, from SnakeYAML's composer: the Yaml facade would also build its object
      // constructor and representer (and with them java.beans), which a node reader never uses.
      LoaderOptions options = new LoaderOptions();
      root =
          new Composer(new ParserImpl(new StreamReader(text), options), new Resolver(), options)
              .getSingleNode();
    } catch (MarkedYAMLException e) {
      Mark at = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      String where = at == null ? "" : "line " + (at.getLine() + 1) + ": ";
      throw new ConfigException(source + ": " + where + "not valid YAML: " + oneLine(e));
    } catch (YAMLException e) {
      throw new ConfigException(source + ": not valid YAML: " + oneLine(e.getMessage()));
    }
    MappingNode top = null;
    if (root instanceof MappingNode mapping) {
      top = mapping;
    } else if (root != null && !root.getTag().equals(Tag.NULL)) {
      throw new ConfigException(source + ": the file must be a mapping of keys to values");
    }
    Problems problems = new Problems();
    T config = reader.apply(new ConfigNode("", top, problems), problems);
    if (!problems.isEmpty()) {
      StringBuilder msg = new StringBuilder();
      for (String line : problems.lines()) {
        msg.append(msg.length() == 0 ? "" : "\n").append(source).append(": ").append(line);
      }
      throw new ConfigException(msg.toString());
    }
    return config;
  }

  /** The text of {@code file}, or a one-line error naming it. */
  static String readFile(Path file) {
    try {
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ConfigException(file + ": no such file");
    } catch (IOException e) {
      throw new ConfigException(file + ": cannot read: " + IoReasons.of(e));
    }
  }

  /** What SnakeYAML found wrong, and in what, without its marks (the line is given apart). */
  private static String oneLine(MarkedYAMLException e) {
    String context = e.getContext() == null ? "" : e.getContext() + ": ";
    return oneLine(context + (e.getProblem() == null ? "" : e.getProblem()));
  }

  /** SnakeYAML's messages quote the offending line with a caret under it; keep only the words. */
  private static String oneLine(String message) {
    return message
        .lines()
        .filter(l -> !l.isBlank() && !l.startsWith(" "))
        .map(String::strip)
        .reduce((a, b) -> a + ": " + b)
        .orElse(message);
  }

  public static AgentConfig defaults() {
    return parse("(defaults)", "");
  }

  private static AgentConfig read(ConfigNode root, Problems problems) {
    ListenAddress listen = root.scalar("listen", ListenAddress.DEFAULT, ListenAddress::parse);
    Backend backend = root.scalar("backend", Backend.AUTO, Backend::parse);
    double budget = root.number("budget", 0.05, 0.0001, 1.0);

    ConfigNode paths = root.mapping("paths");
    HostPaths hostPaths =
        new HostPaths(
            paths.scalar("procfs", Path.of("/proc"), ConfigLoader::absolutePath),
            paths.scalar("sysfs", Path.of("/sys"), ConfigLoader::absolutePath));
    paths.rejectUnknown();

    ConfigNode topology = root.mapping("topology");
    List<String> topologyCommand =
        topology.list("command", CommandTopologySource.DEFAULT_COMMAND, s -> s, false);
    topology.rejectUnknown();

    ConfigNode worker = root.mapping("worker");
    List<String> javaOptions = worker.list("java_options", List.of("-Xmx256m"), s -> s, true);
    worker.rejectUnknown();

    ConfigNode busyNode = root.mapping("busy");
    BusyPolicy busy = readBusy(busyNode);
    PodResourcesSettings podResources = readPodResources(busyNode);
    busyNode.rejectUnknown();

    ConfigNode webNode = root.mapping("web");
    Optional<Path> webFile =
        Optional.ofNullable(webNode.scalar("config_file", null, ConfigLoader::absolutePath));
    WebSettings web =
        new WebSettings(
            webFile,
            WebConfig.NONE,
            webNode.scalar(
                "request_timeout", WebSettings.DEFAULT_REQUEST_TIMEOUT, Durations::parse),
            webNode.integer("max_connections", WebSettings.DEFAULT_MAX_CONNECTIONS, 1, 1_000_000),
            webNode.scalar("history_step", WebSettings.DEFAULT_HISTORY_STEP, Durations::parse));
    if (web.historyStep().toMillis() < 1000
        || web.historyStep().toMillis() % 1000 != 0
        || web.historyStep().compareTo(Duration.ofHours(1)) > 0) {
      problems.add(
          webNode.child("history_step"),
          Durations.format(web.historyStep()) + " must be whole seconds from 1s to 1h");
    }
    webNode.rejectUnknown();

    ConfigNode probesNode = root.mapping("probes");
    Map<ProbeKind, ProbeConfig> probes = new EnumMap<>(ProbeKind.class);
    for (ProbeKind kind : ProbeKind.values()) {
      probes.put(kind, readProbe(kind, probesNode.mapping(kind.id()), problems));
    }
    probesNode.rejectUnknown();
    PassiveConfig passive = readPassive(root.mapping("passive"), problems);
    ConfigNode coordination = root.mapping("coordination");
    // An empty value switches coordination off: `coordination: {lock_file: ""}`.
    Path probeLock =
        coordination
            .scalar(
                "lock_file",
                Optional.of(ProbeLock.DEFAULT_PATH),
                t -> t.isBlank() ? Optional.<Path>empty() : Optional.of(absolutePath(t.strip())))
            .orElse(null);
    coordination.rejectUnknown();
    List<ExpectedFigure> expected = new ArrayList<>();
    for (ConfigNode row : root.mappings("expected")) {
      ExpectedFigureReader.read(row).ifPresent(expected::add);
    }
    List<io.linkwatch.passive.ExpectedPorts> expectedPorts = new ArrayList<>();
    for (ConfigNode row : root.mappings("expected_ports")) {
      ExpectedPortsReader.read(row).ifPresent(expectedPorts::add);
    }
    List<io.linkwatch.verdict.InactiveLink> inactiveLinks = new ArrayList<>();
    for (ConfigNode row : root.mappings("inactive_links")) {
      InactiveLinkReader.read(row).ifPresent(inactiveLinks::add);
    }
    List<io.linkwatch.verdict.FindingAction> findingActions =
        FindingActionReader.readAll(
            root.mappings("finding_actions"), FindingActionTable.CODES, "operator: linkwatch.yaml");
    ConfigNode verdicts = root.mapping("verdicts");
    boolean enforceVerdicts = verdicts.bool("enforce", true);
    verdicts.rejectUnknown();
    ConfigNode seriesNode = root.mapping("series");
    SeriesSettings series =
        new SeriesSettings(
            seriesNode.scalar(
                "link_counters",
                SeriesSettings.DEFAULTS.linkCounters(),
                SeriesSettings.LinkCounters::parse),
            seriesNode.scalar(
                "probe_health",
                SeriesSettings.DEFAULTS.probeHealth(),
                SeriesSettings.ProbeHealth::parse));
    seriesNode.rejectUnknown();
    PeerConfig peers = PeerConfigReader.read(root.mapping("peers"), listen);
    root.rejectUnknown();
    return new AgentConfig(
        listen,
        backend,
        hostPaths,
        topologyCommand,
        javaOptions,
        budget,
        busy,
        web,
        probes,
        passive,
        probeLock,
        expected,
        expectedPorts,
        inactiveLinks,
        findingActions,
        enforceVerdicts,
        podResources,
        series,
        peers);
  }

  private static PassiveConfig readPassive(ConfigNode node, Problems problems) {
    boolean enabled = node.bool("enabled", true);
    Duration interval = node.scalar("interval", PassiveConfig.DEFAULT_INTERVAL, Durations::parse);
    Duration deadline = node.scalar("deadline", PassiveConfig.DEFAULT_DEADLINE, Durations::parse);
    if (deadline.compareTo(interval) >= 0) {
      problems.add(
          node.child("deadline"),
          Durations.format(deadline)
              + " must be shorter than passive.interval ("
              + Durations.format(interval)
              + (node.has("deadline")
                  ? ""
                  : "; the default deadline is " + Durations.format(deadline))
              + "), or read rounds would pile up");
    }
    java.util.Set<PassiveSource> sources = java.util.EnumSet.noneOf(PassiveSource.class);
    Path hccnTool = HccnTool.DEFAULT_PROGRAM;
    Duration hccnTimeout = HccnTool.DEFAULT_TIMEOUT;
    boolean preferDcmi = true;
    for (PassiveSource s : PassiveSource.values()) {
      ConfigNode source = node.mapping(s.id());
      if (source.bool("enabled", true)) {
        sources.add(s);
      }
      if (s == PassiveSource.HCCN_TOOL) {
        hccnTool = source.scalar("command", hccnTool, ConfigLoader::absolutePath);
        preferDcmi = source.bool("prefer_dcmi", true);
        // unset: 3 s, or half the deadline when that is shorter, so one hung call leaves time
        Duration half = deadline.dividedBy(2);
        hccnTimeout =
            source.scalar(
                "timeout", hccnTimeout.compareTo(half) < 0 ? hccnTimeout : half, Durations::parse);
        if (source.has("timeout") && hccnTimeout.compareTo(deadline) >= 0) {
          problems.add(
              source.child("timeout"),
              Durations.format(hccnTimeout)
                  + " must be shorter than passive.deadline ("
                  + Durations.format(deadline)
                  + "): a hung call must not use up the whole round");
        }
      }
      source.rejectUnknown();
    }
    node.rejectUnknown();
    return new PassiveConfig(
        enabled, interval, deadline, sources, hccnTool, hccnTimeout, preferDcmi);
  }

  private static BusyPolicy readBusy(ConfigNode node) {
    BusyPolicy d = BusyPolicy.DEFAULTS;
    BusyPolicy busy =
        new BusyPolicy(
            node.scalar("policy", d.policy(), BusyPolicy.Mode::parse),
            node.scalar("retry", d.retry(), Durations::parse),
            node.number("utilization_above", d.utilizationAbove(), 0.0, 1.0),
            node.scalar("memory_above", d.memoryAboveBytes(), ByteSize::parse),
            node.scalar("when_unknown", d.whenUnknown(), BusyPolicy.Unknown::parse),
            node.scalar("alert_after", d.alertAfter(), Durations::parse),
            node.scalar("check_timeout", d.checkTimeout(), Durations::parse),
            node.scalar("npu_smi", d.npuSmi(), ConfigLoader::program));
    return busy;
  }

  /** The kubelet lookup's keys of the {@code busy:} block; an empty socket switches it off. */
  private static PodResourcesSettings readPodResources(ConfigNode node) {
    PodResourcesSettings d = PodResourcesSettings.DEFAULTS;
    Optional<Path> socket =
        node.scalar(
            "pod_resources_socket",
            d.socket(),
            t -> t.isBlank() ? Optional.<Path>empty() : Optional.of(absolutePath(t.strip())));
    Duration timeout =
        node.scalar(
            "pod_resources_timeout",
            d.timeout(),
            t -> {
              Duration parsed = Durations.parse(t);
              if (parsed.compareTo(PodResourcesSettings.MAX_TIMEOUT) > 0) {
                throw new IllegalArgumentException(
                    "'"
                        + t
                        + "' is too long: at most "
                        + Durations.format(PodResourcesSettings.MAX_TIMEOUT)
                        + " (the lookup never delays probes or scrapes)");
              }
              return parsed;
            });
    return new PodResourcesSettings(socket, timeout);
  }

  private static String program(String text) {
    if (text.isBlank() || text.strip().contains(" ")) {
      throw new IllegalArgumentException(
          "'" + text + "' must be one program name or path, without arguments");
    }
    return text.strip();
  }

  static Path absolutePath(String text) {
    Path p = Path.of(text);
    if (!p.isAbsolute()) {
      throw new IllegalArgumentException("'" + text + "' must be an absolute path");
    }
    return p;
  }

  private static ProbeConfig readProbe(ProbeKind kind, ConfigNode node, Problems problems) {
    boolean enabled = node.bool("enabled", true);
    Schedule schedule = Schedule.every(Durations.parse(kind.defaultInterval()));
    boolean hasEvery = node.has("every");
    boolean hasCron = node.has("cron");
    if (hasEvery && hasCron) {
      problems.add(node.path(), "set either every or cron, not both");
    } else if (hasEvery) {
      schedule =
          Schedule.every(node.scalar("every", schedule.every().orElseThrow(), Durations::parse));
    } else if (hasCron) {
      schedule = node.scalar("cron", schedule, Schedule::cron);
    }
    Duration deadline = node.scalar("deadline", AgentConfig.DEFAULT_DEADLINE, Durations::parse);
    Duration interval = schedule.nominalInterval();
    if (deadline.compareTo(interval) >= 0) {
      problems.add(
          node.child("deadline"),
          (node.has("deadline")
                  ? Durations.format(deadline)
                  : "the default deadline, " + Durations.format(deadline) + ",")
              + " must be shorter than the probe's interval ("
              + Durations.format(interval)
              + "), or runs would pile up; set "
              + node.child("deadline")
              + " below "
              + Durations.format(interval)
              + " or a longer interval");
    }
    // The probe's own keys, read by the same reader as its CLI options.
    ProbeSettings settings = kind.descriptor().read(node);
    node.rejectUnknown();
    return new ProbeConfig(kind, enabled, schedule, deadline, settings);
  }
}
