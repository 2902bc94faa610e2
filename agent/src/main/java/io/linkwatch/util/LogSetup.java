package io.linkwatch.util;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;
import java.util.List;
import java.util.Optional;

/**
 * The logging setup of the agent, its workers and the commands, made in code (Logback's
 * Configurator, found through ServiceLoader) instead of a logback.xml: reading XML loads a parser
 * and Logback's configuration framework, about 600 classes, into every process, a worker per probe
 * run included. Plain lines on stderr ({@link PlainLineLayout}), or JSON lines with {@code
 * LINKWATCH_LOG_FORMAT=json} ({@code --log.format json}); the agent's lines start with their time
 * except under journald, which adds it and the unit (systemd sets {@code JOURNAL_STREAM}). {@code
 * LINKWATCH_LOG_LEVEL} (a system property or the environment; {@code --log.level}) sets the level
 * (default INFO); the libraries say only warnings. Logback's own status messages stay silent: a
 * worker's stdout carries its result. An operator's {@code -Dlogback.configurationFile} still wins.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {
  public static final String LEVEL = "LINKWATCH_LOG_LEVEL";
  public static final String FORMAT = "LINKWATCH_LOG_FORMAT";
  static final String TIME = "LINKWATCH_LOG_TIME";
  static final List<String> QUIET = List.of("org.quartz", "io.vertx", "io.netty");

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY; // Logback reads the operator's file
    }
    context.getStatusManager().add(new NopStatusListener());
    PlainLineLayout layout =
        new PlainLineLayout(
            setting(FORMAT).map(PlainLineLayout.Style::of).orElse(PlainLineLayout.Style.PLAIN),
            withTime());
    layout.setContext(context);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(setting(LEVEL).orElse(null), Level.INFO));
    root.addAppender(stderr);
    for (String library : QUIET) {
      context.getLogger(library).setLevel(Level.WARN);
    }
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /**
   * Whether lines carry their time from the start: only with {@code LINKWATCH_LOG_TIME=1}; see
   * {@link #timestampsOutsideJournald} for the agent. A worker's never do: the agent relays them
   * into its own lines.
   */
  static boolean withTime() {
    return setting(TIME).map(t -> !t.equals("0")).orElse(false);
  }

  /**
   * For the agent ({@code linkwatch run}): its lines start with their time unless journald, which
   * adds it, is where they go or {@code LINKWATCH_LOG_TIME} says otherwise. The one-shot commands'
   * few lines (warnings) need none.
   */
  public static void timestampsOutsideJournald() {
    boolean on =
        setting(TIME).map(t -> !t.equals("0")).orElse(System.getenv("JOURNAL_STREAM") == null);
    layout().ifPresent(l -> l.withTime(on));
  }

  private static Optional<PlainLineLayout> layout() {
    if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof LoggerContext context
        && context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR")
            instanceof ConsoleAppender<ILoggingEvent> stderr
        && stderr.getEncoder() instanceof LayoutWrappingEncoder<ILoggingEvent> encoder
        && encoder.getLayout() instanceof PlainLineLayout layout) {
      return Optional.of(layout);
    }
    return Optional.empty();
  }

  /** A setting as a system property, else from the environment; blank is absent. */
  static Optional<String> setting(String name) {
    String value = System.getProperty(name, System.getenv(name));
    return value == null || value.isBlank()
        ? Optional.empty()
        : Optional.of(value.strip().toLowerCase(java.util.Locale.ROOT));
  }

  /**
   * Sets the level now and for the processes this one starts ({@code --log.level}): debug, info,
   * warn or error.
   */
  public static void level(String level) {
    System.setProperty(LEVEL, level);
    if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.toLevel(level, Level.INFO));
    }
  }

  /** Sets the line format now and for the processes this one starts: plain, logfmt or json. */
  public static void format(String format) {
    System.setProperty(FORMAT, format);
    layout().ifPresent(l -> l.style(PlainLineLayout.Style.of(format)));
  }

  /** Whether debug lines are written, e.g. so that an unexpected error shows its stack trace. */
  public static boolean debug() {
    return org.slf4j.LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME).isDebugEnabled();
  }

  /**
   * The settings a child process (a worker, the watcher) inherits through its environment: the
   * level.
   */
  public static void passOn(java.util.Map<String, String> env) {
    String level = System.getProperty(LEVEL);
    if (level != null) {
      env.put(LEVEL, level);
    }
    // The agent relays a child's plain lines into its own log, in its own format and time.
    env.remove(FORMAT);
    env.put(TIME, "0");
  }

  /**
   * Warnings only, unless {@code LINKWATCH_LOG_LEVEL} says otherwise: for commands whose stdout and
   * stderr a program reads (a Slurm prolog, node-problem-detector), where the workers' progress
   * lines would only be noise.
   */
  public static void warningsOnlyUnlessSet() {
    if (setting(LEVEL).isEmpty()
        && org.slf4j.LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
    }
  }
}
