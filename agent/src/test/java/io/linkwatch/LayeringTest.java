package io.linkwatch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.linkwatch.util.BackEdgeFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent's layers, bottom first, and the rules that hold them on the compiled classes: a package
 * may use its own layer and those below it, never one above; no two packages depend on each other,
 * in a layer or across; every package of the agent belongs to exactly one layer, so a new package
 * has to be placed before it builds. docs/layout.md draws the same list.
 */
class LayeringTest {
  /** One layer: a name and its packages (relative to {@code io.linkwatch}; "" is the root). */
  record Layer(String name, List<String> packages) {
    Layer(String name, String... packages) {
      this(name, List.of(packages));
    }

    String[] qualified() {
      return packages.stream().map(LayeringTest::qualified).toArray(String[]::new);
    }
  }

  static final List<Layer> LAYERS =
      List.of(
          new Layer("foundation", "util", "host", "runtime.calls", "runtime.telemetry"),
          new Layer(
              "device",
              "runtime",
              "runtime.binding",
              "runtime.ascend",
              "runtime.cuda",
              "runtime.backends",
              "runtime.topology",
              "process"),
          new Layer("probe core", "probe", "probe.result", "metrics.families"),
          new Layer(
              "probes",
              "probe.p2p",
              "probe.collective",
              "probe.hosttransfer",
              "probe.devicememory",
              "probe.topology"),
          new Layer("registry", "registry"),
          new Layer(
              "services",
              "activity",
              "passive",
              "passive.pcie",
              "passive.nic",
              "kubelet",
              "kubelet.v1",
              "status",
              "verdict",
              "history",
              "compare",
              "config",
              "peer"),
          new Layer("agent", "state", "worker", "schedule", "check", "metrics", "peer.collective"),
          new Layer("front", "http", "cli", ""));

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.linkwatch");
  }

  static String qualified(String pkg) {
    return pkg.isEmpty() ? "io.linkwatch" : "io.linkwatch." + pkg;
  }

  /** One rule per layer: nothing in it uses a package of a layer above it. */
  static List<ArchRule> noBackEdges() {
    List<ArchRule> rules = new ArrayList<>();
    for (int i = 0; i < LAYERS.size() - 1; i++) {
      Layer layer = LAYERS.get(i);
      String[] above =
          LAYERS.subList(i + 1, LAYERS.size()).stream()
              .flatMap(l -> Arrays.stream(l.qualified()))
              .toArray(String[]::new);
      rules.add(
          noClasses()
              .that()
              .resideInAnyPackage(layer.qualified())
              .should()
              .dependOnClassesThat()
              .resideInAnyPackage(above)
              .as("the " + layer.name() + " layer uses no layer above it"));
    }
    return rules;
  }

  /** Every package its own slice: no two may reach each other. */
  static ArchRule noCycles() {
    return slices().matching("io.linkwatch.(**)").should().beFreeOfCycles();
  }

  @Test
  void noPackageUsesALayerAboveItsOwn() {
    noBackEdges().forEach(rule -> rule.check(classes));
  }

  @Test
  void noTwoPackagesDependOnEachOther() {
    noCycles().check(classes);
  }

  @Test
  void everyPackageIsInExactlyOneLayer() {
    Set<String> packages =
        classes.stream()
            .map(JavaClass::getPackageName)
            .filter(p -> p.equals("io.linkwatch") || p.startsWith("io.linkwatch."))
            .collect(Collectors.toCollection(TreeSet::new));
    List<String> placed =
        LAYERS.stream().flatMap(l -> Arrays.stream(l.qualified())).collect(Collectors.toList());
    assertThat(placed).doesNotHaveDuplicates();
    assertThat(new TreeSet<>(placed)).containsExactlyElementsOf(packages);
  }

  /** The fixture lives in util (the lowest layer) and names the CLI: the rule must catch it. */
  @Test
  void aBackEdgeFailsTheRule() {
    JavaClasses withBackEdge = new ClassFileImporter().importClasses(BackEdgeFixture.class);
    ArchRule foundation = noBackEdges().get(0);
    assertThatThrownBy(() -> foundation.check(withBackEdge))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the foundation layer uses no layer above it")
        .hasMessageContaining(BackEdgeFixture.class.getName())
        .hasMessageContaining("io.linkwatch.cli.UsageException");
  }

  /** Two fixture classes in one layer that use each other: the cycle rule must catch them. */
  @Test
  void aCycleFailsTheRule() {
    JavaClasses withCycle =
        new ClassFileImporter()
            .importClasses(
                io.linkwatch.activity.CycleFixtureA.class,
                io.linkwatch.passive.CycleFixtureB.class);
    assertThatThrownBy(() -> noCycles().check(withCycle))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Cycle detected");
  }

  @Test
  void jnaStaysInTheBindingsAndTheHostLayer() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "io.linkwatch.runtime.ascend..",
            "io.linkwatch.runtime.cuda..",
            "io.linkwatch.runtime.binding..",
            "io.linkwatch.host..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.sun.jna..")
        .check(classes);
  }

  /**
   * A probe returns results; what becomes of them (the agent's state, HTTP, schedules) is not its
   * business. Its metric writer builds families through metrics/families and nothing else of
   * metrics/.
   */
  @Test
  void probesKnowNothingOfTheAgentAroundThem() {
    noClasses()
        .that()
        .resideInAPackage("io.linkwatch.probe..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.linkwatch.metrics",
            "io.linkwatch.state..",
            "io.linkwatch.http..",
            "io.linkwatch.schedule..",
            "io.linkwatch.worker..",
            "io.vertx..",
            "org.quartz..")
        .check(classes);
  }

  @Test
  void probesReachDevicesOnlyThroughTheRuntimeInterface() {
    noClasses()
        .that()
        .resideInAPackage("io.linkwatch.probe..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.linkwatch.runtime.ascend..",
            "io.linkwatch.runtime.cuda..",
            "io.linkwatch.runtime.binding..",
            "io.linkwatch.runtime.backends..")
        .check(classes);
  }

  @Test
  void theHttpSideNeverTouchesDevicesOrWorkers() {
    noClasses()
        .that()
        .resideInAPackage("io.linkwatch.http..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.linkwatch.runtime..",
            "io.linkwatch.probe",
            "io.linkwatch.worker..",
            "io.linkwatch.schedule..")
        .check(classes);
  }

  /** client_java's snapshot model: in metrics/ and in each probe's metric writer only. */
  @Test
  void theSnapshotModelStaysInMetricsAndTheProbesWriters() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.linkwatch.metrics..")
        .and()
        .haveSimpleNameNotEndingWith("Metrics")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.prometheus.metrics.model.snapshots..")
        .check(classes);
  }

  @Test
  void docsLayoutDrawsTheSameLayers() throws IOException {
    String layout = Files.readString(Path.of("..", "docs", "layout.md"));
    for (Layer layer : LAYERS) {
      assertThat(layout).as("docs/layout.md names the layer").contains("**" + layer.name() + "**");
      for (String pkg : layer.packages()) {
        if (!pkg.isEmpty()) {
          assertThat(layout)
              .as("docs/layout.md places " + pkg)
              .containsPattern("`" + pkg.replace(".", "/") + "/?`");
        }
      }
    }
  }
}
