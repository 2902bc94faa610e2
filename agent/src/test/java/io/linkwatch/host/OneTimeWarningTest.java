package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class OneTimeWarningTest {
  @Test
  void logsTheFirstTimeOnly() {
    Logger log = (Logger) LoggerFactory.getLogger(OneTimeWarningTest.class);
    ListAppender<ILoggingEvent> events = new ListAppender<>();
    events.start();
    log.addAppender(events);
    try {
      OneTimeWarning warning = new OneTimeWarning();
      assertThat(warning.warn(log, "numa_maps unreadable: {}", "EACCES")).isTrue();
      assertThat(warning.warn(log, "numa_maps unreadable: {}", "EACCES")).isFalse();
      assertThat(warning.warn(log, "numa_maps unreadable: {}", "EACCES")).isFalse();
    } finally {
      log.detachAppender(events);
    }
    assertThat(events.list).hasSize(1);
    assertThat(events.list.get(0).getFormattedMessage()).isEqualTo("numa_maps unreadable: EACCES");
  }
}
