package io.linkwatch.config;

import io.linkwatch.verdict.ExpectedFigure;
import io.linkwatch.verdict.InactiveLink;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The shipped table of expected figures, kept as data: {@code expected-figures.yaml} beside this
 * class, rows of the same form as the config's {@code expected:} and {@code inactive_links:} lists
 * and read by the same {@link ExpectedFigureReader} and {@link InactiveLinkReader}, so the table
 * names no probe in code and an operator can copy a row to override it. A row it cannot read fails
 * the agent's start, as a config error would (a test reads it on every build).
 */
public final class ExpectedFigureTable {
  static final String RESOURCE = "expected-figures.yaml";

  private static final Shipped TABLE = load();

  /** Every shipped row of figures, in the file's order. */
  public static final List<ExpectedFigure> SHIPPED = TABLE.figures();

  /** Every shipped row of links inactive by design, in the file's order. */
  public static final List<InactiveLink> SHIPPED_INACTIVE = TABLE.inactiveLinks();

  private record Shipped(List<ExpectedFigure> figures, List<InactiveLink> inactiveLinks) {}

  private ExpectedFigureTable() {}

  /** A shipped table's text, from the jar beside this class. */
  static String resourceText(String name) {
    try (InputStream in = ExpectedFigureTable.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Shipped load() {
    return ConfigLoader.parseYaml(
        RESOURCE + " (shipped)",
        resourceText(RESOURCE),
        (root, problems) -> {
          List<ExpectedFigure> rows = new ArrayList<>();
          for (ConfigNode row : root.mappings("expected")) {
            ExpectedFigureReader.read(row).ifPresent(rows::add);
          }
          List<InactiveLink> inactive = new ArrayList<>();
          for (ConfigNode row : root.mappings("inactive_links")) {
            InactiveLinkReader.read(row).ifPresent(inactive::add);
          }
          root.rejectUnknown();
          return new Shipped(List.copyOf(rows), List.copyOf(inactive));
        });
  }
}
