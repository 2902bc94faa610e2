package io.linkwatch.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One meaning per label across the whole exposition (the golden file, which has one of every
 * series): {@code link} is a link's index on its device, a number; what kind of link it is, is
 * {@code link_type}, on the p2p figures as on the passive counters, so the two join on it.
 */
class LinkLabelTest {
  private static final Pattern LINK = Pattern.compile("[{,]link=\"([^\"]*)\"");
  private static final Pattern LINK_TYPE = Pattern.compile("[{,]link_type=\"([^\"]*)\"");

  @Test
  void linkIsAnIndexAndLinkTypeAType() throws Exception {
    List<String> linkValues = new ArrayList<>();
    List<String> typedFamilies = new ArrayList<>();
    for (String line : Files.readAllLines(GoldenExpositionTest.GOLDEN)) {
      if (line.startsWith("#")) {
        continue;
      }
      Matcher m = LINK.matcher(line);
      while (m.find()) {
        linkValues.add(m.group(1));
      }
      Matcher t = LINK_TYPE.matcher(line);
      if (t.find()) {
        assertThat(t.group(1)).as(line).matches("[A-Za-z]+");
        typedFamilies.add(line.substring(0, line.indexOf('{')));
      }
    }
    assertThat(linkValues).isNotEmpty().allSatisfy(v -> assertThat(v).matches("[0-9]+"));
    assertThat(typedFamilies)
        .contains(
            "linkwatch_p2p_bandwidth_bytes_per_second",
            "linkwatch_p2p_bidirectional_bandwidth_bytes_per_second",
            "linkwatch_link_info",
            "linkwatch_link_up",
            "linkwatch_link_errors_total");
  }
}
