package io.linkwatch.passive;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.runtime.telemetry.DeviceLinks;
import io.linkwatch.runtime.telemetry.LinkReading;
import io.linkwatch.testing.HandClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LinkErrorRatesTest {
  static final List<Object> LINK = List.of("dcmi", 0, "SIO", "0");

  @Test
  void theRateIsTheCountedKindsOverTheWindowOnceItSpansEnough() {
    LinkErrorRates rates = new LinkErrorRates();
    assertThat(rates.next(LINK, 0, Map.of("crc", 100L, "tx_drop", 7L))).isNull();
    // 5 s is no trend yet.
    assertThat(rates.next(LINK, 5_000, Map.of("crc", 350L))).isNull();
    // CRC and retries both count; other kinds do not.
    assertThat(rates.next(LINK, 50_000, Map.of("crc", 2_500L, "retry", 100L, "tx_drop", 9_000L)))
        .isEqualTo(50.0);
    // Past the window the oldest readings leave it: the rate is the last minutes', not the day's.
    assertThat(rates.next(LINK, 50_000 + LinkErrorRates.WINDOW_MILLIS, Map.of("crc", 2_600L)))
        .isCloseTo(0.0, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void aCounterThatWentBackStartsAgainAndALinkWithoutErrorCountersHasNoRate() {
    LinkErrorRates rates = new LinkErrorRates();
    rates.next(LINK, 0, Map.of("crc", 5_000L));
    rates.next(LINK, 20_000, Map.of("crc", 6_000L));
    assertThat(rates.next(LINK, 40_000, Map.of("crc", 10L))).isNull();
    assertThat(rates.next(List.of("nvml", 1, "NVLINK", "2"), 0, Map.of("tx_drop", 1L))).isNull();
  }

  /** Through the store: a CRC storm on a simulated read reaches the link's published state. */
  @Test
  void theStorePublishesEachLinksRate() {
    HandClock clock = new HandClock(Instant.parse("2026-12-04T00:00:00Z"));
    PassiveStore store = new PassiveStore(clock);
    for (int i = 0; i <= 6; i++) {
      store.recordLinks(
          new DeviceLinks(
              0,
              "dcmi",
              null,
              List.of(
                  new LinkReading(
                      "0",
                      "SIO",
                      "1",
                      true,
                      null,
                      null,
                      64,
                      1,
                      0L,
                      0L,
                      Map.of("crc", 50L * 2 * i))),
              null,
              List.of(),
              null,
              null));
      if (i < 6) {
        clock.now = clock.now.plus(Duration.ofSeconds(2));
      }
    }
    LinkState link = store.states().get(0).links().get(0);
    assertThat(link.errorsPerSecond()).isEqualTo(50.0);
  }

  /**
   * The alert rule and the verdict judge the same thing: the rule's kinds and threshold are these
   * constants. Changing either side alone fails here.
   */
  @Test
  void theAlertRuleCountsTheSameKindsAgainstTheSameThreshold() throws IOException {
    String rules = Files.readString(Path.of("..", "grafana", "alerts", "linkwatch.rules.yml"));
    Matcher rule =
        Pattern.compile(
                "- alert: LinkwatchLinkErrorRate\\s+expr: \\|2\\s+(.*?)\\n\\s+for:", Pattern.DOTALL)
            .matcher(rules);
    assertThat(rule.find()).as("LinkwatchLinkErrorRate in the rules").isTrue();
    String expr = rule.group(1).replaceAll("\\s+", " ");
    assertThat(expr)
        .contains("kind=~\"" + LinkErrorRates.COUNTED_KINDS + "\"")
        .contains("[5m]")
        .endsWith("> " + LinkErrorRates.threshold());
    assertThat(LinkErrorRates.WINDOW_MILLIS).isEqualTo(Duration.ofMinutes(5).toMillis());
  }
}
