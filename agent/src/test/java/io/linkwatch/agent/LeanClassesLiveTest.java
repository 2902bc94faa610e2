package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.SimFace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a running agent keeps loaded. A class, once loaded, stays for the process's life (in the
 * class-data archive or in metaspace) on every host, so the parts of its libraries that the agent
 * never uses must not load at all. A real agent on the sim, started with the JVM's class-load log,
 * serves, runs a probe and answers scrapes; then no class of these parts may be in its log. A
 * second agent, with the operator's own settings turning the library defaults back on, shows that
 * the check sees those classes when they do load.
 */
class LeanClassesLiveTest {
  static final String CONFIG =
      """
      probes:
        topology:
          every: 1m
          deadline: 20s
      """;

  /** Each part the agent does without, by the class-name prefix of its classes. */
  static final Map<String, String> UNUSED =
      new TreeMap<>(
          Map.of(
              "Netty's asynchronous DNS resolver (vertx.disableDnsResolver)",
              "io.netty.resolver.dns.",
              "WebSocket support (vertx.disableWebsockets)",
              "io.netty.handler.codec.http.websocketx.extensions.",
              "Vert.x's file cache (vertx.disableFileCaching)",
              "io.vertx.core.file.impl.FileCache",
              "java.beans introspection (Quartz's property setting, SnakeYAML's facade)",
              "java.beans.Introspector",
              "SnakeYAML's object constructor (the config reads the node tree only)",
              "org.yaml.snakeyaml.constructor.",
              "Quartz's properties-driven factory",
              "org.quartz.impl.StdSchedulerFactory",
              "bcrypt (basic auth, with no users configured)",
              "at.favre.lib.",
              // (vertx-grpc-common's service provider, GrpcLocal and its registration, loads with
              // every Vert.x instance: two classes)
              "gRPC client of the kubelet lookup (only after a busy finding, where the socket"
                  + " exists)",
              "io.vertx.grpc.client.",
              "protobuf of the kubelet lookup (the same)",
              "com.google.protobuf."));

  @TempDir Path dir;

  @Test
  void anAgentAsShippedLoadsNoneOfTheUnusedParts() throws Exception {
    Set<String> loaded = classesLoadedBy(dir.resolve("shipped"), List.of());
    List<String> found = new ArrayList<>();
    UNUSED.forEach(
        (part, prefix) -> {
          List<String> classes = loaded.stream().filter(c -> c.startsWith(prefix)).toList();
          if (!classes.isEmpty()) {
            found.add(part + ": " + classes.size() + " classes, e.g. " + classes.get(0));
          }
        });
    assertThat(found).as("unused parts that were loaded").isEmpty();
    // The log is read right: what the agent does use is in it.
    assertThat(loaded)
        .contains(
            "io.linkwatch.http.HttpApi",
            "org.yaml.snakeyaml.composer.Composer",
            "org.quartz.impl.DirectSchedulerFactory");
  }

  @Test
  void anOperatorsOwnSettingsWinAndTheCheckSeesTheirClasses() throws Exception {
    Set<String> loaded =
        classesLoadedBy(
            dir.resolve("operator"),
            List.of("-Dvertx.disableDnsResolver=false", "-Dvertx.disableWebsockets=false"));
    assertThat(loaded).anyMatch(c -> c.startsWith("io.netty.resolver.dns."));
    assertThat(loaded)
        .anyMatch(c -> c.startsWith("io.netty.handler.codec.http.websocketx.extensions."));
  }

  /** The classes an agent loaded from start, through a probe run and scrapes, to its exit. */
  private static Set<String> classesLoadedBy(Path dir, List<String> jvmOptions) throws Exception {
    Files.createDirectories(dir);
    Path log = dir.resolve("classes.log");
    List<String> options = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1"));
    options.addAll(jvmOptions);
    options.add("-Xlog:class+load=info:file=" + log);
    try (AgentProcess agent =
        AgentProcess.start(
            dir, SimFace.ASCEND, AgentProcess.onlyProbes(CONFIG), Map.of(), options)) {
      agent.awaitMetrics(
          Duration.ofSeconds(30), "linkwatch_probe_success{probe=\"topology\",target=\"links\"} 1");
      assertThat(agent.get("/api/v1/status").statusCode()).isEqualTo(200);
      assertThat(agent.terminate(Duration.ofSeconds(20))).isZero();
    }
    // Lines read "[0.012s][info][class,load] java.lang.Object source: ...".
    Set<String> classes = new TreeSet<>();
    for (String line : Files.readAllLines(log)) {
      String[] words = line.split(" ");
      if (words.length > 1 && line.contains("[class,load]")) {
        classes.add(words[1]);
      }
    }
    assertThat(classes).hasSizeGreaterThan(1000);
    return classes;
  }
}
