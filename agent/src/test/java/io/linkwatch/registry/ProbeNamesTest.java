package io.linkwatch.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Which main files outside a probe's own package name a probe: its package, one of its result types
 * by name, or its id as a string. The goal is the registration line alone (docs/adding-a-probe.md);
 * until the probe SPI covers the verdict, the history's charts, the status page and {@code check},
 * the files still doing so are listed here, so the list can only shrink: a new file that names a
 * probe fails this test, and so does one that stopped (take it off the list). Comments are not
 * read: an example in a Javadoc names nothing.
 */
class ProbeNamesTest {
  static final Path MAIN = Path.of("src/main/java/io/linkwatch");

  /** The packages that hold one probe each (collectives share one). */
  static final List<String> PROBE_PACKAGES =
      List.of("p2p", "collective", "hosttransfer", "devicememory", "topology");

  /** The registration: the one place that is meant to name every probe. */
  static final Set<String> REGISTRATION = Set.of("registry/ProbeKind.java");

  /**
   * Files where a probe's id is the same word for something else: the config's top-level {@code
   * topology:} section configures where link types come from (npu-smi), not the topology probe;
   * {@code p2p} in ascend-dmi's command line is the name of that tool's own test.
   */
  static final Set<String> SAME_WORD_OTHER_MEANING =
      Set.of("config/ConfigLoader.java", "compare/AscendDmiP2p.java");

  @Test
  void onlyTheRegistrationAndTheListedFilesNameAProbe() throws IOException {
    Pattern naming = namingPattern();
    Set<String> namingFiles = new TreeSet<>();
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String relative = MAIN.relativize(f).toString();
        if (PROBE_PACKAGES.stream().anyMatch(p -> relative.startsWith("probe/" + p + "/"))) {
          continue;
        }
        if (naming.matcher(withoutComments(Files.readString(f))).find()) {
          namingFiles.add(relative);
        }
      }
    }
    Set<String> expected = new TreeSet<>(REGISTRATION);
    expected.addAll(SAME_WORD_OTHER_MEANING);
    assertThat(namingFiles).containsExactlyElementsOf(expected);
  }

  /** The probe packages, every result type's simple name, and every probe id as a string. */
  static Pattern namingPattern() {
    String packages =
        PROBE_PACKAGES.stream()
            .collect(Collectors.joining("|", "io\\.linkwatch\\.probe\\.(", ")\\b"));
    String types =
        Arrays.stream(ProbeKind.values())
            .flatMap(k -> k.descriptor().measurementTypes().stream())
            .map(Class::getSimpleName)
            .collect(Collectors.joining("|", "\"(", ")\""));
    String ids =
        Arrays.stream(ProbeKind.values())
            .map(ProbeKind::id)
            .collect(Collectors.joining("|", "\"(", ")\""));
    return Pattern.compile(packages + "|" + types + "|" + ids);
  }

  /** {@code java}'s code without its comments; string literals and text blocks kept whole. */
  static String withoutComments(String java) {
    StringBuilder out = new StringBuilder(java.length());
    int i = 0;
    while (i < java.length()) {
      char c = java.charAt(i);
      if (java.startsWith("\"\"\"", i)) {
        int end = java.indexOf("\"\"\"", i + 3);
        end = end < 0 ? java.length() : end + 3;
        out.append(java, i, end);
        i = end;
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < java.length() && java.charAt(j) != c) {
          j += java.charAt(j) == '\\' ? 2 : 1;
        }
        int end = Math.min(j + 1, java.length());
        out.append(java, i, end);
        i = end;
      } else if (java.startsWith("//", i)) {
        int end = java.indexOf('\n', i);
        i = end < 0 ? java.length() : end;
      } else if (java.startsWith("/*", i)) {
        int end = java.indexOf("*/", i + 2);
        i = end < 0 ? java.length() : end + 2;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  @Test
  void commentsAreLeftOutAndStringsKept() {
    String java =
        """
        // names "p2p"
        /** {"type": "P2pBandwidth"} */
        String url = "http://x/*y*/"; char q = '"'; String s = "a\\"b"; // "allreduce"
        """;
    assertThat(withoutComments(java))
        .doesNotContain("names", "P2pBandwidth", "allreduce")
        .contains("\"http://x/*y*/\"", "'\"'", "\"a\\\"b\"");
    assertThat(namingPattern().matcher(withoutComments(java)).find()).isFalse();
    assertThat(namingPattern().matcher("import io.linkwatch.probe.p2p.P2pProbe;").find()).isTrue();
    assertThat(namingPattern().matcher("probe.equals(\"host_transfer\")").find()).isTrue();
    assertThat(namingPattern().matcher("type.equals(\"HostBufferPages\")").find()).isTrue();
  }
}
