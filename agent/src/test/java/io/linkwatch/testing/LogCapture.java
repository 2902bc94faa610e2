package io.linkwatch.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * The log events of one logger and those under it, down to debug, during each test
 * ({@code @RegisterExtension final LogCapture logged = new LogCapture("io.linkwatch.worker")}).
 */
public final class LogCapture implements BeforeEachCallback, AfterEachCallback {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  public LogCapture(String loggerName) {
    this.logger = (Logger) LoggerFactory.getLogger(loggerName);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.DEBUG);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    logger.detachAppender(appender);
    logger.setLevel(null);
  }

  /** The events so far; safe while other threads log (the appender appends under its lock). */
  public List<ILoggingEvent> events() {
    synchronized (appender) {
      return List.copyOf(appender.list);
    }
  }
}
