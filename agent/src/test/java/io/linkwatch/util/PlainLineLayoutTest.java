package io.linkwatch.util;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The plain line layout writes exactly what Logback's pattern layout writes for its pattern. */
class PlainLineLayoutTest {
  static final String PATTERN = "%-5level %logger{0}: %msg%n";

  static Stream<LoggingEvent> events() {
    LoggerContext context = new LoggerContext();
    Logger worker = context.getLogger("io.linkwatch.worker.WorkerProcess");
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    Logger inner = context.getLogger("io.linkwatch.schedule.ProbeScheduler$Job");
    return Stream.of(
        new LoggingEvent(
            "f", worker, Level.INFO, "probe={} took {} s", null, new Object[] {"p2p", 2.5}),
        new LoggingEvent("f", worker, Level.WARN, "no result", null, null),
        new LoggingEvent("f", root, Level.ERROR, "failed", new IOException("disk full"), null),
        new LoggingEvent(
            "f",
            inner,
            Level.DEBUG,
            "cause {}",
            new IllegalStateException("outer", new RuntimeException("inner")),
            new Object[] {"x"}));
  }

  @ParameterizedTest
  @MethodSource("events")
  void writesWhatThePatternWrites(LoggingEvent event) {
    LoggerContext context = new LoggerContext();
    PatternLayout pattern = new PatternLayout();
    pattern.setContext(context);
    pattern.setPattern(PATTERN);
    pattern.start();
    PlainLineLayout plain = new PlainLineLayout();
    plain.setContext(context);
    plain.start();

    assertThat(plain.doLayout(event)).isEqualTo(pattern.doLayout(event));
  }

  /** Outside journald the agent's lines start with their time, as the pattern's %d{ISO8601}. */
  @ParameterizedTest
  @MethodSource("events")
  void withTimeStartsWithTheEventsTime(LoggingEvent event) {
    PlainLineLayout plain = new PlainLineLayout(false, true);
    String line = plain.doLayout(event);
    String time =
        java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
            .withZone(java.time.ZoneId.systemDefault())
            .format(java.time.Instant.ofEpochMilli(event.getTimeStamp()));
    assertThat(line).isEqualTo(time + " " + new PlainLineLayout().doLayout(event));
  }

  /** --log.format json: one object a line, the stack trace under "error". */
  @ParameterizedTest
  @MethodSource("events")
  void jsonIsOneObjectALine(LoggingEvent event) throws Exception {
    String line = new PlainLineLayout(true, false).doLayout(event);
    assertThat(line).endsWith("\n").doesNotContain("\n\t");
    assertThat(line.strip().lines()).hasSize(1);
    var tree = io.linkwatch.testing.JsonTrees.MAPPER.readTree(line);
    assertThat(tree.get("level").asText()).isEqualTo(event.getLevel().toString().toLowerCase());
    assertThat(tree.get("msg").asText()).isEqualTo(event.getFormattedMessage());
    assertThat(tree.has("error")).isEqualTo(event.getThrowableProxy() != null);
    assertThat(tree.get("time").asText()).isNotEmpty();
  }
}
