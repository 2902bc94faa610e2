package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.verdict.FindingAction;
import io.linkwatch.verdict.Verdict.State;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The shipped actions table, read from its resource by the config's own row reader. */
class FindingActionTableTest {
  /** A code's row in the documented table: {@code | `LW-LINK-DOWN` | FAIL | ... |}. */
  private static final Pattern DOCUMENTED = Pattern.compile("^\\| `(LW-[A-Z-]+)` \\|");

  /** A code the verdict's sources name: {@code "LW-LINK-DOWN"}. */
  private static final Pattern NAMED = Pattern.compile("\"(LW-[A-Z][A-Z0-9-]*[A-Z])\"");

  @Test
  void theTableHasARowForEveryDocumentedCodeAndNoOther() throws Exception {
    Set<String> documented = new TreeSet<>();
    for (String line : Files.readAllLines(Path.of("..", "docs", "job-boundary.md"))) {
      Matcher m = DOCUMENTED.matcher(line);
      if (m.find()) {
        documented.add(m.group(1));
      }
    }
    assertThat(documented).hasSizeGreaterThan(20);
    assertThat(new TreeSet<>(FindingActionTable.CODES)).isEqualTo(documented);
  }

  @Test
  void everyCodeTheSourcesNameHasARow() throws Exception {
    Set<String> named = new TreeSet<>();
    try (Stream<Path> files = Files.walk(Path.of("src", "main", "java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        Matcher m = NAMED.matcher(Files.readString(f));
        while (m.find()) {
          named.add(m.group(1));
        }
      }
    }
    assertThat(named).contains("LW-LINK-DOWN", "LW-PEER-NIC");
    assertThat(FindingActionTable.CODES).containsAll(named);
  }

  @Test
  void anEscalationNeverLowersItsFindingAndSaysSomethingNew() {
    for (FindingAction a : FindingActionTable.SHIPPED) {
      assertThat(a.source()).isEqualTo(FindingActionTable.RESOURCE);
      a.escalate()
          .ifPresent(
              e -> {
                assertThat(e.state()).as(a.code()).isEqualTo(State.FAIL);
                assertThat(e.action()).as(a.code()).isNotEqualTo(a.action());
                assertThat(e.after()).as(a.code()).isGreaterThanOrEqualTo(2);
              });
    }
    assertThat(FindingActionTable.SHIPPED.stream().filter(a -> a.escalate().isPresent()))
        .hasSizeGreaterThan(10);
  }
}
