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

  /** The documented columns of the h2d and d2h tables, found by name, with or without borders. */
  @Test
  void ascendDmiTransferTablesByTheirDocumentedColumns() {
    AscendDmiTransfer t =
        AscendDmiTransfer.parse(
            """
            Host to Device Test
            Device 0 : Ascend910_9382
            ID     Size(Bytes)     Execute Times     Bandwidth(GB/s)     Elapsed Time(us)
            0      134217728       100               58.31               230184.52
            Device to Host Test
            | Elapsed Time(us) | Bandwidth(GB/s) | ID | Size(Bytes) | Execute Times |
            | 325116.20        | 41.28           | 3  | 134217728   | 100           |
            """);

    assertThat(t.bandwidth())
        .containsOnlyKeys("h2d 0 134217728", "d2h 3 134217728")
        .hasEntrySatisfying("h2d 0 134217728", v -> assertThat(v).isCloseTo(58.31e9, within(1.0)))
        .hasEntrySatisfying("d2h 3 134217728", v -> assertThat(v).isCloseTo(41.28e9, within(1.0)));
    assertThat(AscendDmiTransfer.parse("ascend-dmi: h2d test not supported\n"))
        .isEqualTo(AscendDmiTransfer.NONE);
  }

  @Test
  void anAscendDmiTransferTableWithoutItsColumnsOrWithABrokenRowIsAnError() {
    assertThatThrownBy(
            () ->
                AscendDmiTransfer.parse(
                    "Host to Device Test\nID  Size(Bytes)  Bandwidth(GB/s)\n0 1024 3.1\n"))
        .hasMessage(
            "ascend-dmi output line 2: the table header lacks [Execute Times, Elapsed Time(us)]:"
                + " ID  Size(Bytes)  Bandwidth(GB/s)");
    assertThatThrownBy(
            () ->
                AscendDmiTransfer.parse(
                    "Device to Host Test\n"
                        + "ID Size(Bytes) Execute Times Bandwidth(GB/s) Elapsed Time(us)\n"
                        + "0 1024 40 n/a 12.5\n"))
        .hasMessage("ascend-dmi output line 3: not a number: 0 1024 40 n/a 12.5");
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
