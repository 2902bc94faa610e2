package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host-wide probe lock between processes: a real second process (python3's fcntl.lockf, the
 * same POSIX record lock Java's FileChannel takes) holds it, is waited for, and when killed leaves
 * it free; no directory means uncoordinated, never stuck.
 */
class ProbeLockTest {
  @TempDir Path dir;

  /** A child that takes the lock, says so on stdout, and holds it until killed. */
  private static Process holder(Path file) throws Exception {
    Process p =
        new ProcessBuilder(
                "python3",
                "-c",
                "import fcntl,sys,time\n"
                    + "f=open(sys.argv[1],'a+')\n"
                    + "fcntl.lockf(f,fcntl.LOCK_EX)\n"
                    + "f.seek(0); f.truncate(); f.write('linkwatch check quick (pid 1)\\n'); f.flush()\n"
                    + "print('held',flush=True)\n"
                    + "time.sleep(600)\n",
                file.toString())
            .redirectErrorStream(true)
            .start();
    String line =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    assertThat(line).isEqualTo("held");
    return p;
  }

  @Test
  void anotherProcessHoldingItIsWaitedForAndItsDeathFreesIt() throws Exception {
    Path file = dir.resolve("probes.lock");
    ProbeLock lock = new ProbeLock(file);
    try (ProbeLock.Held h = lock.acquire("agent probe p2p", Duration.ZERO).orElseThrow()) {
      assertThat(h.coordinated()).isTrue();
      assertThat(lock.holder()).startsWith("agent probe p2p (pid ");
    }
    // Created writable by all: the agent's user and a root prolog share it.
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-rw-rw-");

    Process other = holder(file);
    try {
      long started = System.nanoTime();
      Optional<ProbeLock.Held> waited = lock.acquire("agent probe p2p", Duration.ofMillis(400));
      assertThat(waited).as("held by the other process all the time").isEmpty();
      assertThat((System.nanoTime() - started) / 1e6).isGreaterThanOrEqualTo(400);
      assertThat(lock.holder()).isEqualTo("linkwatch check quick (pid 1)");
    } finally {
      other.destroyForcibly().waitFor();
    }
    // The kernel dropped the dead holder's lock.
    try (ProbeLock.Held h = lock.acquire("agent probe p2p", Duration.ofSeconds(2)).orElseThrow()) {
      assertThat(h.coordinated()).isTrue();
    }
  }

  @Test
  void withoutItsDirectoryOrAFileItIsUncoordinatedNotStuck() throws Exception {
    Optional<ProbeLock.Held> none =
        new ProbeLock(dir.resolve("missing/probes.lock")).acquire("check", Duration.ZERO);
    assertThat(none).isPresent();
    assertThat(none.get().coordinated()).isFalse();
    assertThat(none.get().uncoordinatedBecause())
        .isEqualTo(dir.resolve("missing") + ": no such directory");
    ProbeLock.Held off = ProbeLock.none().acquire("check", Duration.ZERO).orElseThrow();
    assertThat(off.coordinated()).isFalse();
    assertThat(off.uncoordinatedBecause()).isEqualTo("no lock file configured");
  }

  @Test
  void aMissingDirectorySaysWhatToDoAndAnUnconfiguredLockNothing() throws Exception {
    ProbeLock.Held missing =
        new ProbeLock(dir.resolve("missing/probes.lock"))
            .acquire("check", Duration.ZERO)
            .orElseThrow();
    assertThat(missing.remedy()).startsWith("create it (mkdir -p").contains("lock_file");
    assertThat(ProbeLock.none().acquire("check", Duration.ZERO).orElseThrow().remedy()).isEmpty();
    try (ProbeLock.Held held =
        new ProbeLock(dir.resolve("probes.lock")).acquire("check", Duration.ZERO).orElseThrow()) {
      assertThat(held.remedy()).isEmpty();
    }
  }
}
