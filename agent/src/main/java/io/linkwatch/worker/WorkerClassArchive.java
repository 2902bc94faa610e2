package io.linkwatch.worker;

import io.linkwatch.process.JavaCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A class-data-sharing archive of the worker's classes (JDK AppCDS, {@code
 * -XX:ArchiveClassesAtExit}), so that a worker maps its classes instead of loading and verifying
 * them from the jar: about a third of a worker run's CPU. The first worker that finds no archive
 * for this Java, jar and options writes one as it exits; the agent keeps it once that worker
 * measured something and this Java accepts the archive ({@code -Xshare:on}), and every later worker
 * uses it. The archive's name comes from the Java installation, the jar (path, size, time) and the
 * worker's JVM options, so an upgrade or new options make a new one (older ones are removed) and a
 * stale one is never used. Only where a directory is configured ({@code LINKWATCH_CDS_DIR}; the
 * systemd unit gives its cache directory): without one, workers start as before.
 */
final class WorkerClassArchive {
  static final String ENV = "LINKWATCH_CDS_DIR";
  private static final Logger log = LoggerFactory.getLogger(WorkerClassArchive.class);

  private final Path archive;
  private final Path pending;
  private final List<String> javaCommand;
  private final List<String> jvmOptions;
  private final String classPath;

  private WorkerClassArchive(
      Path archive, String javaHome, List<String> jvmOptions, String classPath) {
    this.archive = archive;
    this.pending = archive.resolveSibling(archive.getFileName() + ".new");
    this.javaCommand = JavaCommand.of(System.getenv(JavaCommand.ENV), javaHome);
    this.jvmOptions = List.copyOf(jvmOptions);
    this.classPath = classPath;
  }

  /**
   * The archive for this JVM and class path in {@code dir}; empty when none can be kept, or when
   * the class path has a directory (run from a build tree): the JVM archives classes from jars only
   * and refuses to write an archive otherwise.
   */
  static Optional<WorkerClassArchive> in(
      Path dir, String javaHome, String classPath, List<String> jvmOptions) {
    for (String entry : classPath.split(java.io.File.pathSeparator)) {
      if (Files.isDirectory(Path.of(entry))) {
        return Optional.empty();
      }
    }
    try {
      Files.createDirectories(dir);
      if (!Files.isWritable(dir)) {
        return Optional.empty();
      }
      String name = "worker-" + key(javaHome, classPath, jvmOptions) + ".jsa";
      return Optional.of(
          new WorkerClassArchive(dir.resolve(name), javaHome, jvmOptions, classPath));
    } catch (IOException e) {
      log.debug("no class archive for workers in {}: {}", dir, e.getMessage());
      return Optional.empty();
    }
  }

  /** From {@code LINKWATCH_CDS_DIR}, for this process's Java and class path. */
  static Optional<WorkerClassArchive> configured(List<String> jvmOptions) {
    String dir = System.getenv(ENV);
    if (dir == null || dir.isBlank()) {
      return Optional.empty();
    }
    return in(
        Path.of(dir),
        System.getProperty("java.home"),
        System.getProperty("java.class.path"),
        jvmOptions);
  }

  /**
   * What identifies an archive's contents: the JVM (its home, version and library) and every class
   * path entry's path, size and modification time. The JVM also checks these itself; a name of its
   * own means an upgrade makes a new archive instead of keeping one that can never be used.
   */
  static String key(String javaHome, String classPath, List<String> jvmOptions) throws IOException {
    StringBuilder id = new StringBuilder(javaHome).append('\n');
    id.append(String.join(" ", jvmOptions)).append('\n');
    id.append(System.getProperty("java.vm.version")).append('\n');
    Path jvm = Path.of(javaHome, "lib", "server", "libjvm.so");
    if (Files.exists(jvm)) {
      id.append(Files.size(jvm)).append(' ').append(Files.getLastModifiedTime(jvm)).append('\n');
    }
    for (String entry : classPath.split(java.io.File.pathSeparator)) {
      Path p = Path.of(entry);
      id.append(entry);
      if (Files.isRegularFile(p)) {
        id.append(' ').append(Files.size(p)).append(' ').append(Files.getLastModifiedTime(p));
      }
      id.append('\n');
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(id.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * The worker's JVM options: use the archive, or, while there is none, write one at exit. The
   * JVM's own notes about the archive stay off stderr, which the agent relays to its log.
   */
  List<String> options() {
    String quiet = "-Xlog:cds=off,cds+dynamic=off";
    if (Files.isReadable(archive)) {
      return List.of("-XX:SharedArchiveFile=" + archive, quiet);
    }
    return List.of("-XX:ArchiveClassesAtExit=" + pending, quiet);
  }

  /**
   * After a worker exited: keep the archive it wrote if it measured something (a worker whose
   * runtime did not open holds few of the classes) and this Java accepts it, else drop it.
   */
  void workerExited(boolean measured) {
    if (!Files.exists(pending)) {
      return;
    }
    try {
      if (measured && usable(pending)) {
        Files.move(
            pending, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        removeOthers();
        log.info("Workers start from the class archive {} from now on", archive);
      } else {
        Files.delete(pending);
      }
    } catch (IOException e) {
      log.warn("Class archive for workers not kept ({}): {}", archive, e.getMessage());
    }
  }

  /**
   * Whether a JVM with the workers' options maps {@code file} ({@code -Xshare:on} fails if not).
   */
  boolean usable(Path file) {
    List<String> cmd = new java.util.ArrayList<>(javaCommand);
    cmd.addAll(jvmOptions);
    // The archive is tied to the class path it was made with, so the check runs on it too.
    cmd.addAll(
        List.of("-Xshare:on", "-XX:SharedArchiveFile=" + file, "-cp", classPath, "-version"));
    try {
      Process p =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Archives for another Java, jar or options: never used again. */
  private void removeOthers() throws IOException {
    try (var files = Files.list(archive.getParent())) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.getFileName().toString().startsWith("worker-") && !f.equals(archive)) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  Path path() {
    return archive;
  }
}
