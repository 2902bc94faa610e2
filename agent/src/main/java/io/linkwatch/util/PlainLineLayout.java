package io.linkwatch.util;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One log line as {@code LEVEL Logger: message}, the level padded to five characters, the logger's
 * last name segment, then the stack trace if any; what the pattern {@code %-5level %logger{0}:
 * %msg%n} writes. With the time (outside journald) the line starts with {@code
 * 2025-05-01T10:00:00.123+02:00 }. As JSON ({@code --log.format json}, the exporters' option): one
 * object a line, {@code {"time":"...","level":"info","logger":"Agent","msg":"..."}}, plus {@code
 * "error"} with the stack trace; as logfmt ({@code --log.format logfmt}) the same fields as {@code
 * key=value} pairs, {@code level=info logger=Agent msg="linkwatch started"}, the time first outside
 * journald. Written out rather than given as a pattern: Logback's pattern layout loads its parser
 * and about a hundred converter classes into every process, a worker per probe run included, for
 * these few fields.
 */
public final class PlainLineLayout extends LayoutBase<ILoggingEvent> {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", Locale.ROOT)
          .withZone(ZoneId.systemDefault());

  /**
   * The line formats, as {@code --log.format} names them: plain lines (the default, what journald
   * shows), logfmt's {@code key=value} pairs, or one JSON object a line.
   */
  public enum Style {
    PLAIN,
    LOGFMT,
    JSON;

    /** The style of a {@code --log.format} name; plain for any other. */
    public static Style of(String name) {
      return switch (name) {
        case "logfmt" -> LOGFMT;
        case "json" -> JSON;
        default -> PLAIN;
      };
    }
  }

  private volatile Style style;
  private volatile boolean withTime;

  /** Plain lines without time, as under journald. */
  public PlainLineLayout() {
    this(Style.PLAIN, false);
  }

  public PlainLineLayout(Style style, boolean withTime) {
    this.style = style;
    this.withTime = withTime;
  }

  /** Starts or stops each plain line with its time. */
  void withTime(boolean withTime) {
    this.withTime = withTime;
  }

  /** Switches the line format. */
  void style(Style style) {
    this.style = style;
  }

  /**
   * A logfmt value: bare when it is a plain word, else quoted with {@code "}, {@code \\} and line
   * breaks escaped, as logfmt readers (go-logfmt, Loki's logfmt parser) take it.
   */
  static StringBuilder logfmtValue(StringBuilder out, String text) {
    boolean bare = !text.isEmpty();
    for (int i = 0; i < text.length() && bare; i++) {
      char c = text.charAt(i);
      bare = c > ' ' && c != '=' && c != '"' && c != '\\';
    }
    return bare ? out.append(text) : quote(out, text);
  }

  /** {@code text} as a JSON string (the layout loads no JSON library into every process). */
  static StringBuilder quote(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }

  @Override
  public String doLayout(ILoggingEvent event) {
    String level = event.getLevel().toString();
    String logger = event.getLoggerName();
    String shortName = logger.substring(logger.lastIndexOf('.') + 1);
    IThrowableProxy thrown = event.getThrowableProxy();
    if (style != Style.PLAIN) {
      Map<String, String> fields = new LinkedHashMap<>();
      if (style == Style.JSON || withTime) {
        fields.put("time", TIME.format(Instant.ofEpochMilli(event.getTimeStamp())));
      }
      fields.put("level", level.toLowerCase(Locale.ROOT));
      fields.put("logger", shortName);
      fields.put("msg", event.getFormattedMessage());
      if (thrown != null) {
        fields.put("error", ThrowableProxyUtil.asString(thrown));
      }
      StringBuilder line = new StringBuilder(160);
      if (style == Style.JSON) {
        line.append('{');
        fields.forEach(
            (k, v) -> {
              if (line.length() > 1) {
                line.append(',');
              }
              quote(line, k).append(':');
              quote(line, v);
            });
        line.append('}');
      } else {
        fields.forEach(
            (k, v) -> {
              if (line.length() > 0) {
                line.append(' ');
              }
              logfmtValue(line.append(k).append('='), v);
            });
      }
      return line.append(CoreConstants.LINE_SEPARATOR).toString();
    }
    StringBuilder line = new StringBuilder(110);
    if (withTime) {
      line.append(TIME.format(Instant.ofEpochMilli(event.getTimeStamp()))).append(' ');
    }
    line.append(level);
    for (int i = level.length(); i < 5; i++) {
      line.append(' ');
    }
    line.append(' ').append(shortName);
    line.append(": ").append(event.getFormattedMessage()).append(CoreConstants.LINE_SEPARATOR);
    if (thrown != null) {
      line.append(ThrowableProxyUtil.asString(thrown)); // ends with its own line separator
    }
    return line.toString();
  }
}
