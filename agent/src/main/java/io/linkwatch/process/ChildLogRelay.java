package io.linkwatch.process;

import io.linkwatch.util.LogSetup;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Relays the stderr lines of a child process (a worker, the passive watcher) into this process's
 * log. A child writes plain log lines without time ({@code WARN DcmiSource: dcmi_init failed}, see
 * {@link LogSetup#passOn}); each becomes an event of this log at the child's level and under the
 * child's logger, with the child named in front of the message ({@code WARN DcmiSource: watcher:
 * dcmi_init failed}), not nested in a line of the relaying class ({@code INFO WatcherProcess:
 * watcher: WARN DcmiSource: ...}). Anything else (a crash report) is an INFO line of the relaying
 * class.
 *
 * <p>A child that warns about a condition once per process would warn at every start (a worker
 * lives for one run): a warning already relayed for the same child goes to the debug level.
 */
public final class ChildLogRelay {
  private static final Pattern LOG_LINE =
      Pattern.compile("(TRACE|DEBUG|INFO|WARN|ERROR) +([A-Za-z0-9_$]+): (.*)");

  private final String loggerPackage;
  private final Logger fallback;
  private final Set<String> warningsSeen = ConcurrentHashMap.newKeySet();

  /**
   * @param loggerPackage where the child's loggers live, e.g. {@code io.linkwatch.worker}
   * @param fallback the logger of lines that are no log line
   */
  public ChildLogRelay(String loggerPackage, Logger fallback) {
    this.loggerPackage = loggerPackage;
    this.fallback = fallback;
  }

  /**
   * @param child how the log names the child, e.g. {@code worker topology} or {@code watcher}
   * @param line one line of its stderr
   */
  public void relay(String child, String line) {
    Matcher m = LOG_LINE.matcher(line);
    if (!m.matches()) {
      fallback.info("{}: {}", child, line);
      return;
    }
    Logger source = LoggerFactory.getLogger(loggerPackage + "." + m.group(2));
    Level level = Level.valueOf(m.group(1));
    if (level == Level.WARN && !warningsSeen.add(child + " " + line)) {
      level = Level.DEBUG;
    }
    source.atLevel(level).log("{}: {}", child, m.group(3));
  }
}
