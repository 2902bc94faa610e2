package io.linkwatch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The layering rules of DESIGN.md, enforced on the compiled classes. */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.linkwatch");
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

  @Test
  void probesKnowNothingOfMetricsOrHttp() {
    noClasses()
        .that()
        .resideInAPackage("io.linkwatch.probe..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.linkwatch.metrics..",
            "io.linkwatch.http..",
            "io.linkwatch.schedule..",
            "io.prometheus..",
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
            "io.linkwatch.runtime.binding..")
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

  @Test
  void metricNamesLiveOnlyInTheMetricsPackage() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.linkwatch.metrics..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.prometheus.metrics.model.snapshots..")
        .check(classes);
  }
}
