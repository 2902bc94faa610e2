package io.linkwatch.passive;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The watcher's stderr in the agent's log: its log lines keep their level and logger, with the
 * watcher named once in front of the message, not nested in an INFO line of the relaying class.
 */
class WatcherStderrTest {
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger("io.linkwatch.passive");

  @BeforeEach
  void capture() {
    logged.start();
    logger.addAppender(logged);
    logger.setLevel(Level.DEBUG);
  }

  @AfterEach
  void release() {
    logger.detachAppender(logged);
    logger.setLevel(null);
  }

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
          List.copyOf(logged.list).stream()
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
