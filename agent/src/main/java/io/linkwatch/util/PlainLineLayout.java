package io.linkwatch.util;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;

/**
 * One log line as {@code LEVEL Logger: message}, the level padded to five characters, the logger's
 * last name segment, then the stack trace if any; what the pattern {@code %-5level %logger{0}:
 * %msg%n} writes. Written out rather than given as a pattern: Logback's pattern layout loads its
 * parser and about a hundred converter classes into every process, a worker per probe run included,
 * for these three fields.
 */
public final class PlainLineLayout extends LayoutBase<ILoggingEvent> {
  @Override
  public String doLayout(ILoggingEvent event) {
    String level = event.getLevel().toString();
    String logger = event.getLoggerName();
    StringBuilder line = new StringBuilder(80);
    line.append(level);
    for (int i = level.length(); i < 5; i++) {
      line.append(' ');
    }
    line.append(' ').append(logger, logger.lastIndexOf('.') + 1, logger.length());
    line.append(": ").append(event.getFormattedMessage()).append(CoreConstants.LINE_SEPARATOR);
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown != null) {
      line.append(ThrowableProxyUtil.asString(thrown)); // ends with its own line separator
    }
    return line.toString();
  }
}
