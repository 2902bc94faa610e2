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
    PlainLineLayout plain = new PlainLineLayout(PlainLineLayout.Style.PLAIN, true);
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
    String line = new PlainLineLayout(PlainLineLayout.Style.JSON, false).doLayout(event);
    assertThat(line).endsWith("\n").doesNotContain("\n\t");
    assertThat(line.strip().lines()).hasSize(1);
    var tree = io.linkwatch.testing.JsonTrees.MAPPER.readTree(line);
    assertThat(tree.get("level").asText()).isEqualTo(event.getLevel().toString().toLowerCase());
    assertThat(tree.get("msg").asText()).isEqualTo(event.getFormattedMessage());
    assertThat(tree.has("error")).isEqualTo(event.getThrowableProxy() != null);
    assertThat(tree.get("time").asText()).isNotEmpty();
  }

  /**
   * --log.format logfmt: key=value pairs on one line, values with spaces, quotes or line breaks
   * quoted and escaped, so a logfmt reader gets the message and the stack trace back whole.
   */
  @ParameterizedTest
  @MethodSource("events")
  void logfmtIsKeyValuePairsOnOneLine(LoggingEvent event) {
    String line = new PlainLineLayout(PlainLineLayout.Style.LOGFMT, false).doLayout(event);
    assertThat(line).endsWith("\n");
    assertThat(line.strip().lines()).hasSize(1);
    java.util.Map<String, String> pairs = new java.util.LinkedHashMap<>();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(\\w+)=(\"((?:[^\"\\\\]++|\\\\.)*+)\"|[^ \"]+)")
            .matcher(line.strip());
    int end = 0;
    while (m.find()) {
      assertThat(m.start()).as(line).isEqualTo(end == 0 ? 0 : end + 1);
      end = m.end();
      String value =
          m.group(3) == null
              ? m.group(2)
              : m.group(3)
                  .replace("\\n", "\n")
                  .replace("\\t", "\t")
                  .replace("\\\"", "\"")
                  .replace("\\\\", "\\");
      pairs.put(m.group(1), value);
    }
    assertThat(end).as(line).isEqualTo(line.strip().length());
    assertThat(pairs.get("level")).isEqualTo(event.getLevel().toString().toLowerCase());
    assertThat(pairs.get("msg")).isEqualTo(event.getFormattedMessage());
    assertThat(pairs.containsKey("error")).isEqualTo(event.getThrowableProxy() != null);
    assertThat(pairs).doesNotContainKey("time");
  }
}
