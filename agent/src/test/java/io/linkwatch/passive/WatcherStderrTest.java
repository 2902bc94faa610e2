package io.linkwatch.passive;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The watcher's stderr in the agent's log: its log lines keep their level and logger, with the
 * watcher named once in front of the message, not nested in an INFO line of the relaying class.
 */
class WatcherStderrTest {
  @RegisterExtension final LogCapture logged = new LogCapture("io.linkwatch.passive");

  @Test
  void aWatcherLogLineKeepsItsLevelAndLoggerAndIsPrefixedOnce() throws Exception {
    // A stand-in watcher: one warning as a watcher writes it, one line that is no log line, and
    // it dies before it is ready.
    List<String> command =
        List.of(
            "sh",
            "-c",
            "echo 'WARN DcmiSource: dcmi_init returned -8005' >&2;"
                + " echo 'free(): invalid pointer' >&2; exit 3");
    try (WatcherProcess watcher = new WatcherProcess(command, Map.of())) {
      assertThat(watcher.start(Duration.ofSeconds(10))).isPresent();
    }
    List<String> lines = waitForLines(2);
    assertThat(lines)
        .contains(
            "WARN io.linkwatch.passive.DcmiSource watcher: dcmi_init returned -8005",
            "INFO io.linkwatch.passive.WatcherProcess watcher: free(): invalid pointer");
    assertThat(lines).noneMatch(l -> l.contains("watcher: WARN"));
  }

  /** Level, logger and message of the relayed lines, once {@code n} are there (or 5 s passed). */
  private List<String> waitForLines(int n) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    List<String> lines;
    do {
      lines =
          logged.events().stream()
              .filter(e -> e.getFormattedMessage().startsWith("watcher: "))
              .map(e -> e.getLevel() + " " + e.getLoggerName() + " " + e.getFormattedMessage())
              .toList();
      if (lines.size() >= n) {
        return lines;
      }
      Thread.sleep(50);
    } while (System.nanoTime() < deadline);
    return lines;
  }
}
