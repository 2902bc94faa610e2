package io.linkwatch.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.Backend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real workers on the sim: the first writes the class archive as it exits, the agent keeps it, and
 * the next starts from it; a jar that changed gets an archive of its own.
 */
class WorkerClassArchiveTest {
  @TempDir Path dir;

  private static String javaHome() {
    return System.getProperty("java.home");
  }

  private static ProbeRun topology(WorkerProcess worker) {
    return worker.run(
        new WorkerRequest(
            "topology",
            ProbeKind.TOPOLOGY.defaults(),
            Backend.SIM,
            HostPaths.system(),
            io.linkwatch.runtime.topology.CommandTopologySource.DEFAULT_COMMAND),
        Duration.ofSeconds(60),
        List.of());
  }

  /**
   * The test's class path with its class directories packed into one jar, as the agent runs from a
   * jar: the JVM archives classes from jars only.
   */
  private String jarClassPath() throws Exception {
    Path jar = dir.resolve("jars").resolve("linkwatch.jar");
    Files.createDirectories(jar.getParent());
    List<String> entries = new java.util.ArrayList<>();
    try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
      for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
        Path p = Path.of(entry);
        if (!Files.isDirectory(p)) {
          entries.add(entry);
          continue;
        }
        try (var files = Files.walk(p)) {
          for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
            out.putNextEntry(new java.util.jar.JarEntry(p.relativize(f).toString()));
            Files.copy(f, out);
            out.closeEntry();
          }
        }
      }
    }
    entries.add(0, jar.toString());
    return String.join(java.io.File.pathSeparator, entries);
  }

  @Test
  void aClassPathWithADirectoryGetsNoArchive() {
    assertThat(WorkerClassArchive.in(dir, javaHome(), dir.toString(), List.of())).isEmpty();
  }

  @Test
  void theFirstWorkerWritesTheArchiveAndTheNextStartsFromIt() throws Exception {
    String classPath = jarClassPath();
    Path archives = dir.resolve("cds");
    WorkerClassArchive archive =
        WorkerClassArchive.in(
                archives,
                javaHome(),
                classPath,
                io.linkwatch.process.JavaCommand.childJvmOptions(List.of("-Xmx128m")))
            .orElseThrow();
    WorkerProcess worker =
        new WorkerProcess(List.of("-Xmx128m"), java.util.Optional.of(archive), classPath);
    assertThat(worker.command()).anyMatch(o -> o.startsWith("-XX:ArchiveClassesAtExit="));

    ProbeRun first = topology(worker);
    assertThat(first.targets())
        .as(first.targets().toString())
        .extracting(TargetResult::outcome)
        .containsOnly(Outcome.SUCCESS);
    assertThat(archive.path()).isRegularFile();
    assertThat(Files.size(archive.path())).isGreaterThan(1 << 20);
    assertThat(archive.usable(archive.path())).as("a JVM with -Xshare:on maps it").isTrue();
    assertThat(worker.command()).contains("-XX:SharedArchiveFile=" + archive.path());

    ProbeRun second = topology(worker);
    assertThat(second.targets())
        .as(second.targets().toString())
        .extracting(TargetResult::outcome)
        .containsOnly(Outcome.SUCCESS);
    try (var files = Files.list(archives)) {
      assertThat(files).containsExactly(archive.path()); // nothing pending, nothing else
    }
  }

  @Test
  void aChangedJarHasAnArchiveOfItsOwn() throws Exception {
    Path jar = Files.writeString(dir.resolve("linkwatch.jar"), "v1");
    String before = WorkerClassArchive.key(javaHome(), jar.toString(), List.of());
    Files.writeString(jar, "v2, longer");
    Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 5000));

    assertThat(WorkerClassArchive.key(javaHome(), jar.toString(), List.of())).isNotEqualTo(before);
    assertThat(WorkerClassArchive.key(javaHome(), jar.toString(), List.of()))
        .isEqualTo(WorkerClassArchive.key(javaHome(), jar.toString(), List.of()))
        .isNotEqualTo(WorkerClassArchive.key(javaHome(), jar.toString(), List.of("-Xmx1g")));
  }
}
