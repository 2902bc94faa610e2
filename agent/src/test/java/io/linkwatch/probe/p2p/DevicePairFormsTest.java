package io.linkwatch.probe.p2p;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One pair syntax everywhere pairs are written, with forms that need no quoting in a shell. */
class DevicePairFormsTest {
  @ParameterizedTest
  @ValueSource(strings = {"0-5", "0:5", "0->5", " 0 - 5 "})
  void anOrderedPairIsWrittenWithADashAColonOrAnArrow(String text) {
    assertThat(DevicePair.parse(text)).isEqualTo(new DevicePair(0, 5));
    assertThat(DevicePair.parse(text).toString()).isEqualTo("0->5");
  }

  @ParameterizedTest
  @ValueSource(strings = {"5-0", "5:0", "5<->0", "0<->5"})
  void anUnorderedPairTakesTheSameFormsAndItsOwnArrow(String text) {
    assertThat(P2pBidirectionalSettings.parsePair(text)).isEqualTo(new DevicePair(0, 5));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0=5", "05", "0-", "a-b", "0<->5"})
  void anythingElseSaysWhichFormsWork(String text) {
    assertThatThrownBy(() -> DevicePair.parse(text))
        .hasMessage(
            "'" + text + "' is not a device pair (use e.g. 0-1 or 0:1 (or '0->1', quoted))");
  }

  @ParameterizedTest
  @ValueSource(strings = {"1-1", "-1-2"})
  void theIdsDifferAndAreNotNegative(String text) {
    assertThatThrownBy(() -> DevicePair.parse(text)).hasMessageContaining("is not a device pair");
  }
}
