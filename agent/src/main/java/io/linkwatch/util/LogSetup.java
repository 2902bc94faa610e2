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

/**
 * The logging setup of the agent, its workers and the commands, made in code (Logback's
 * Configurator, found through ServiceLoader) instead of a logback.xml: reading XML loads a parser
 * and Logback's configuration framework, about 600 classes, into every process, a worker per probe
 * run included. Plain lines on stderr ({@link PlainLineLayout}): journald adds the time and the
 * unit, so the lines do not. {@code LINKWATCH_LOG_LEVEL} (a system property or the environment)
 * sets the level (default INFO); the libraries say only warnings. Logback's own status messages
 * stay silent: a worker's stdout carries its result. An operator's {@code
 * -Dlogback.configurationFile} still wins.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {
  static final List<String> QUIET = List.of("org.quartz", "io.vertx", "io.netty");

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY; // Logback reads the operator's file
    }
    context.getStatusManager().add(new NopStatusListener());
    PlainLineLayout layout = new PlainLineLayout();
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
    String level = System.getProperty("LINKWATCH_LOG_LEVEL", System.getenv("LINKWATCH_LOG_LEVEL"));
    root.setLevel(Level.toLevel(level, Level.INFO));
    root.addAppender(stderr);
    for (String library : QUIET) {
      context.getLogger(library).setLevel(Level.WARN);
    }
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /**
   * Warnings only, unless {@code LINKWATCH_LOG_LEVEL} says otherwise: for commands whose stdout and
   * stderr a program reads (a Slurm prolog, node-problem-detector), where the workers' progress
   * lines would only be noise.
   */
  public static void warningsOnlyUnlessSet() {
    String level = System.getProperty("LINKWATCH_LOG_LEVEL", System.getenv("LINKWATCH_LOG_LEVEL"));
    if ((level == null || level.isBlank())
        && org.slf4j.LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
    }
  }
}
