package io.linkwatch.runtime.topology;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.LinkType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.LoggerFactory;

/** Fixture files, expected matrices, a fake runtime and a log catcher for the topology tests. */
final class TopologyFixtures {
  private TopologyFixtures() {}

  static String fixture(String name) {
    try (InputStream in = TopologyFixtures.class.getResourceAsStream("/topology/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A matrix from rows of names: {@code X} is SELF, {@code ?} is UNKNOWN, other names are enum
   * constants. Independent of {@link LinkType#fromToken} on purpose.
   */
  static List<List<LinkType>> matrix(String... rows) {
    List<List<LinkType>> result = new ArrayList<>();
    for (String row : rows) {
      List<LinkType> cells = new ArrayList<>();
      for (String name : Pattern.compile("\\s+").split(row.strip())) {
        cells.add(
            switch (name) {
              case "X" -> LinkType.SELF;
              case "?" -> LinkType.UNKNOWN;
              default -> LinkType.valueOf(name);
            });
      }
      result.add(cells);
    }
    return result;
  }

  /**
   * The links a matrix gives when row i is logical device {@code ids.get(i)}, diagonal left out.
   */
  static Map<String, LinkType> links(List<List<LinkType>> matrix, List<Integer> ids) {
    Map<String, LinkType> links = new HashMap<>();
    for (int r = 0; r < matrix.size(); r++) {
      for (int c = 0; c < matrix.size(); c++) {
        if (r != c) {
          links.put(ids.get(r) + "->" + ids.get(c), matrix.get(r).get(c));
        }
      }
    }
    return links;
  }

  static final List<List<LinkType>> EIGHT_HCCS =
      matrix(
          "X HCCS HCCS HCCS HCCS HCCS HCCS HCCS",
          "HCCS X HCCS HCCS HCCS HCCS HCCS HCCS",
          "HCCS HCCS X HCCS HCCS HCCS HCCS HCCS",
          "HCCS HCCS HCCS X HCCS HCCS HCCS HCCS",
          "HCCS HCCS HCCS HCCS X HCCS HCCS HCCS",
          "HCCS HCCS HCCS HCCS HCCS X HCCS HCCS",
          "HCCS HCCS HCCS HCCS HCCS HCCS X HCCS",
          "HCCS HCCS HCCS HCCS HCCS HCCS HCCS X");

  /** An Ascend runtime that only answers {@code deviceCount} and has no topology of its own. */
  static DeviceRuntime runtimeWith(int devices) {
    return (DeviceRuntime)
        Proxy.newProxyInstance(
            DeviceRuntime.class.getClassLoader(),
            new Class<?>[] {DeviceRuntime.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "deviceCount" -> devices;
                  case "backend" -> io.linkwatch.runtime.Backend.SIM;
                  case "linkType" -> Optional.empty();
                  case "toString" -> "fake runtime with " + devices + " devices";
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  /** Catches what one class logs; close it to detach. */
  static final class LogCatcher implements AutoCloseable {
    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    LogCatcher(Class<?> type) {
      logger = (Logger) LoggerFactory.getLogger(type);
      appender.start();
      logger.addAppender(appender);
    }

    List<String> warnings() {
      List<String> lines = new ArrayList<>();
      for (ILoggingEvent event : appender.list) {
        if (event.getLevel() == Level.WARN) {
          lines.add(event.getFormattedMessage());
        }
      }
      return lines;
    }

    List<ILoggingEvent> events() {
      return List.copyOf(appender.list);
    }

    @Override
    public void close() {
      logger.detachAppender(appender);
      appender.stop();
    }
  }
}
