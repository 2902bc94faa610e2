package io.linkwatch.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.cli.Main;
import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.SettingOption;
import io.linkwatch.probe.SettingsSource;
import io.linkwatch.probe.result.Measurement;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The registration point holds: every measurement type the agent's code has is registered with a
 * metric writer, every probe has its CLI command with one option per config key, and settings and
 * results cross the worker boundary by the registered names.
 */
class ProbeRegistrationTest {
  /** Every class in the agent's compiled main code that implements {@link Measurement}. */
  static List<Class<?>> measurementClasses() throws IOException, URISyntaxException {
    Path root =
        Path.of(Measurement.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<Class<?>> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        String name = root.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
        Class<?> c;
        try {
          c = Class.forName(name, false, Measurement.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
          continue;
        }
        // The status document's stand-in for a probe's figure that JSON cannot carry (a NaN one):
        // made from the figure after its series were written, never written itself.
        if (c == io.linkwatch.status.UnencodedFigure.class) {
          continue;
        }
        // The two-host point to point's figure: never recorded as a probe's result, its series
        // are written by the pair's prober with both hosts as labels (PairMetrics; the golden
        // exposition carries them from PairRunsFixture).
        if (c == io.linkwatch.probe.result.PeerP2pBandwidth.class) {
          continue;
        }
        if (Measurement.class.isAssignableFrom(c) && !c.isInterface()) {
          found.add(c);
        }
      }
    }
    return found;
  }

  @Test
  void everyMeasurementTypeHasAMetricWriter() throws Exception {
    List<Class<?>> types = measurementClasses();
    assertThat(types).as("the scan finds the measurement types").hasSizeGreaterThan(5);
    List<String> unregistered =
        types.stream()
            .filter(c -> !ProbeKind.hasWriter(c.asSubclass(Measurement.class)))
            .map(Class::getName)
            .toList();
    assertThat(unregistered).as("measurement types without a metric writer").isEmpty();
  }

  /** What the test above protects against: an unregistered type gets no series, loudly. */
  record Unregistered(double value) implements Measurement {
    @Override
    public String summary() {
      return "unregistered";
    }
  }

  @Test
  void anUnregisteredTypeNeitherCrossesTheWorkerBoundaryNorSilentlyLosesItsSeries() {
    assertThat(ProbeKind.hasWriter(Unregistered.class)).isFalse();
    assertThatThrownBy(() -> ProbeKind.write(new Unregistered(1), new MetricFamilies()))
        .hasMessageContaining("has no metric writer");
    assertThatThrownBy(
            () -> ProbeKind.JSON.read("{\"type\":\"Unregistered\",\"value\":1}", Measurement.class))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Unregistered");
  }

  @Test
  void everyProbeHasACliCommandWithAnOptionPerConfigKey() {
    CommandLine probe = Main.commandLine().getSubcommands().get("probe");
    // Each probe by its command name and, where that differs, by its config key (an alias).
    assertThat(probe.getSubcommands().keySet())
        .containsExactlyInAnyOrder(
            Stream.of(ProbeKind.values())
                .flatMap(k -> Stream.of(k.cliName(), k.id()))
                .distinct()
                .toArray(String[]::new));
    for (ProbeKind kind : ProbeKind.values()) {
      CommandLine command = probe.getSubcommands().get(kind.cliName());
      Set<String> options =
          command.getCommandSpec().options().stream()
              .map(o -> o.longestName())
              .collect(Collectors.toSet());
      for (String key : keysRead(kind)) {
        assertThat(options)
            .as(kind + " has an option for config key " + key)
            .contains(SettingOption.cliName(key));
      }
      assertThat(kind.descriptor().options().stream().map(SettingOption::key).toList())
          .as(kind + "'s options are exactly the keys its reader reads")
          .containsExactlyInAnyOrderElementsOf(keysRead(kind));
    }
  }

  /** The keys a probe's reader asks for, found by reading an empty source. */
  static Set<String> keysRead(ProbeKind kind) {
    Set<String> keys = new LinkedHashSet<>();
    kind.descriptor()
        .read(
            new SettingsSource() {
              @Override
              public <T> T scalar(String key, T fallback, Function<String, T> parse) {
                keys.add(key);
                return fallback;
              }

              @Override
              public int integer(String key, int fallback, int min, int max) {
                keys.add(key);
                return fallback;
              }

              @Override
              public <T> List<T> list(
                  String key, List<T> fallback, Function<String, T> parse, boolean allowEmpty) {
                keys.add(key);
                return fallback;
              }

              @Override
              public void problem(String key, String reason) {
                throw new AssertionError(kind + ": an empty source has no problems: " + reason);
              }
            });
    return keys;
  }

  @Test
  void settingsAndEachKindOfResultCrossTheWorkerBoundaryByTheirRegisteredNames() throws Exception {
    for (ProbeKind kind : ProbeKind.values()) {
      String json = ProbeKind.JSON.write(kind.defaults());
      assertThat(json).contains("\"type\":\"" + kind.descriptor().settingsType().getSimpleName());
      assertThat(ProbeKind.JSON.read(json, ProbeSettings.class)).isEqualTo(kind.defaults());
    }
    assertThat(ProbeKind.JSON_TYPES).containsKey("P2pBandwidth").containsKey("HostBufferPages");
  }
}
