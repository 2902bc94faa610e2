package io.linkwatch.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The vendor tools' documented output formats, parsed from fixture text. */
class VendorOutputParsersTest {
  static String fixture(String name) throws Exception {
    try (var in = VendorOutputParsersTest.class.getResourceAsStream("/compare/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void ascendDmiCardMatricesFromTheToolboxGuide() throws Exception {
    AscendDmiP2p p2p = AscendDmiP2p.parse(fixture("ascend-dmi-p2p-card.txt"));

    assertThat(p2p.cards()).as("C\\C: card ids").isTrue();
    assertThat(p2p.unidirectional()).hasSize(56).doesNotContainKey("0->0");
    assertThat(p2p.unidirectional().get("0->1")).isCloseTo(328.96e9, within(1.0));
    assertThat(p2p.unidirectional().get("1->0")).isCloseTo(328.61e9, within(1.0));
    assertThat(p2p.unidirectional().get("7->6")).isCloseTo(328.54e9, within(1.0));
    assertThat(p2p.bidirectional()).hasSize(56);
    assertThat(p2p.bidirectional().get("1->6")).isCloseTo(559.08e9, within(1.0));
    assertThat(p2p.bidirectional().get("4->3")).isCloseTo(542.88e9, within(1.0));
  }

  @Test
  void ascendDmiWithoutMatricesGivesNothingAndABrokenRowIsAnError() {
    assertThat(AscendDmiP2p.parse("ascend-dmi: p2p test not supported on this device\n"))
        .isEqualTo(AscendDmiP2p.NONE);
    assertThat(
            AscendDmiP2p.parse(
                    "Unidirectional Peer to Peer Test Bandwidth Matrix(GB/s)\nD\\D 0 1\n0 *** 190.2\n1 187.9 ***\n")
                .cards())
        .as("D\\D: device ids")
        .isFalse();
    String broken =
        "Unidirectional Peer to Peer Test Bandwidth Matrix(GB/s)\nD\\D 0 1\n0 *** 190.2\n1 187.9\n";
    assertThatThrownBy(() -> AscendDmiP2p.parse(broken))
        .hasMessage("ascend-dmi output line 4: 1 figures for 2 columns: 1 187.9");
    String nan = "Unidirectional Peer to Peer Test Bandwidth Matrix(GB/s)\nD\\D 0 1\n0 *** fast\n";
    assertThatThrownBy(() -> AscendDmiP2p.parse(nan))
        .hasMessage("ascend-dmi output line 3: not a bandwidth: fast");
  }

  @Test
  void hcclTestResultTable() throws Exception {
    List<HcclTestResult> rows = HcclTestResult.parse(fixture("hccl-test-allreduce.txt"));

    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).sizeBytes()).isEqualTo(1024);
    assertThat(rows.get(0).averageSeconds()).isCloseTo(31.75e-6, within(1e-12));
    assertThat(rows.get(0).algBytesPerSecond()).isCloseTo(0.03225e9, within(1.0));
    assertThat(rows.get(1).sizeBytes()).isEqualTo(268435456);
    assertThat(rows.get(1).algBytesPerSecond()).isCloseTo(102.755e9, within(1.0));
    assertThat(rows).extracting(HcclTestResult::check).containsOnly("success");
    assertThat(HcclTestResult.parse("mpirun: command not found\n")).isEmpty();
  }
}
