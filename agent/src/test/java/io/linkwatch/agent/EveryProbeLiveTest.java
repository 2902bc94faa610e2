package io.linkwatch.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.registry.ProbeKind;
import io.linkwatch.testing.AgentProcess;
import io.linkwatch.testing.Promtool;
import io.linkwatch.testing.SimFace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every probe of {@link ProbeKind} runs in the agent (a real child process on each face of the sim,
 * small sizes) and shows its series on {@code /metrics}, which passes {@code promtool check
 * metrics}: a probe that is registered but not wired into the agent fails here. Both vendors'
 * bindings then publish the same metric names, types and label names, so one set of dashboards and
 * alert rules serves both.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EveryProbeLiveTest {
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");

  /** What each face's agent published, as {@link #shape} reads it. */
  private static final Map<SimFace, Set<String>> SHAPES = new EnumMap<>(SimFace.class);

  // Seven probes share one lane, a worker start each: a probe waits for the lane up to its
  // interval minus its deadline (30 s here), so on a loaded machine none is skipped as
  // skipped_busy before its first run.
  static final String CONFIG =
      """
      probes:
        p2p: {every: 40s, deadline: 10s, sizes: [4MiB], warmup: 1, iterations: 2}
        p2p_bidirectional: {every: 40s, deadline: 10s, sizes: [4MiB], warmup: 1, iterations: 2}
        allreduce: {every: 40s, deadline: 10s, sizes: [1KiB, 4MiB], warmup: 1, iterations: 3}
        allgather: {every: 40s, deadline: 10s, sizes: [1KiB, 4MiB], warmup: 1, iterations: 3}
        host_transfer: {every: 40s, deadline: 10s, sizes: [4MiB], warmup: 1, iterations: 2, nodes: [0]}
        device_memory: {every: 40s, deadline: 10s, size: 4MiB, warmup: 1, iterations: 2}
        topology: {every: 40s, deadline: 10s}
      """;

  @TempDir Path dir;

  @Order(1)
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void everyProbeRunsAndItsSeriesPassPromtool(SimFace face) throws Exception {
    assertThat(Arrays.stream(ProbeKind.values()).map(ProbeKind::id))
        .as("the config above names every probe")
        .allSatisfy(id -> assertThat(CONFIG).contains("  " + id + ": {"));
    try (AgentProcess agent = AgentProcess.start(dir, face, CONFIG, face.firstTwoDevices())) {
      String[] needles =
          Arrays.stream(ProbeKind.values())
              .map(k -> "linkwatch_probe_success{probe=\"" + k.id() + "\"")
              .toArray(String[]::new);
      String text = agent.awaitMetrics(Duration.ofSeconds(60), needles);
      for (ProbeKind kind : ProbeKind.values()) {
        assertThat(text.lines().filter(l -> l.startsWith(needles[kind.ordinal()])))
            .as(kind.id() + " succeeded everywhere")
            .isNotEmpty()
            .allSatisfy(l -> assertThat(l).endsWith(" 1.0"));
      }
      assertThat(text)
          .contains(
              "linkwatch_p2p_bidirectional_bandwidth_bytes_per_second{dst=\"1\",link_type=\""
                  + face.link01()
                  + "\",size_bytes=\"4194304\",src=\"0\"}")
          .contains(
              "linkwatch_allgather_bus_bandwidth_bytes_per_second{devices=\"0,1\","
                  + "size_bytes=\"4194304\"}")
          .containsPattern("linkwatch_build_info\\{[^}]*backend=\"" + face.backend().id() + "\"");
      Promtool.assertCleanMetrics(text);
      SHAPES.put(face, shape(text));
    }
  }

  @Order(2)
  @Test
  void bothVendorsPublishTheSameNamesTypesAndLabels() {
    assertThat(SHAPES).as("both faces' agents ran above").containsOnlyKeys(SimFace.values());
    Set<String> ascend = SHAPES.get(SimFace.ASCEND);
    Set<String> cuda = SHAPES.get(SimFace.CUDA);
    assertThat(ascend).as("sanity: series were read").hasSizeGreaterThan(20);
    List<String> onlyAscend = new ArrayList<>(ascend);
    onlyAscend.removeAll(cuda);
    onlyAscend.removeIf(entry -> productDependent(entry, cuda));
    List<String> onlyCuda = new ArrayList<>(cuda);
    onlyCuda.removeAll(ascend);
    onlyCuda.removeIf(entry -> productDependent(entry, ascend));
    assertThat(onlyAscend).as("published on Ascend only").isEmpty();
    assertThat(onlyCuda).as("published on NVIDIA only").isEmpty();
  }

  /**
   * Passive families depend on what the product's library counts, not on the vendor binding: the
   * A3's dies have SIO CRC counters only (no state, no traffic), NVLink has state and traffic, and
   * only NVML has a PCIe replay counter. Such a family may be missing on one face; where both
   * publish it, its type and labels must still be the same (it is then in neither list).
   */
  static final java.util.regex.Pattern PRODUCT_DEPENDENT =
      java.util.regex.Pattern.compile(
          "(# TYPE )?linkwatch_(link_(up|lanes|lanes_max|transmit_bytes_total|receive_bytes_total"
              + "|errors_total)|pcie_[a-z_]+)([\\[ ].*)?");

  private static boolean productDependent(String entry, Set<String> other) {
    java.util.regex.Matcher m = PRODUCT_DEPENDENT.matcher(entry);
    if (!m.matches()) {
      return false;
    }
    String family = "linkwatch_" + m.group(2);
    return other.stream().noneMatch(o -> o.contains(family + "[") || o.contains(family + " "));
  }

  /**
   * Each {@code # TYPE} line, and each series' name with its label names (not values: links and
   * device names differ by vendor) in order.
   */
  static Set<String> shape(String exposition) {
    Set<String> shape = new TreeSet<>();
    for (String line : exposition.lines().toList()) {
      if (line.startsWith("# TYPE ")) {
        shape.add(line);
      } else if (!line.isBlank() && !line.startsWith("#")) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        String name = line.substring(0, brace >= 0 && brace < space ? brace : space);
        List<String> labels = new ArrayList<>();
        if (brace >= 0 && brace < space) {
          Matcher m = LABEL.matcher(line.substring(brace, line.lastIndexOf('}') + 1));
          while (m.find()) {
            labels.add(m.group(1));
          }
        }
        shape.add(name + labels);
      }
    }
    return shape;
  }
}
