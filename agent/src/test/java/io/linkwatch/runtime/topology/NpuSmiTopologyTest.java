package io.linkwatch.runtime.topology;

import static io.linkwatch.runtime.topology.TopologyFixtures.EIGHT_HCCS;
import static io.linkwatch.runtime.topology.TopologyFixtures.fixture;
import static io.linkwatch.runtime.topology.TopologyFixtures.links;
import static io.linkwatch.runtime.topology.TopologyFixtures.matrix;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.runtime.LinkType;
import io.linkwatch.runtime.topology.NpuSmiTopology.LabelKind;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NpuSmiTopologyTest {

  @Test
  void twoDieA3WithPhyIdLabelsAndSio() {
    NpuSmiTopology t = NpuSmiTopology.parse(fixture("a3-2die-sio.txt"));

    assertThat(t.unsupported()).isFalse();
    assertThat(t.labelKind()).contains(LabelKind.PHY_ID);
    assertThat(t.labels()).containsExactly("Phy-ID2", "Phy-ID3");
    assertThat(t.labelIds()).containsExactly(2, 3);
    assertThat(t.logicalIds()).containsExactly(0, 1);
    assertThat(t.matrix()).isEqualTo(matrix("X SIO", "SIO X"));
    assertThat(t.hasCpuAffinityColumn()).isFalse();
    assertThat(t.cpuAffinity(0)).isEmpty();
    assertThat(t.warnings()).isEmpty();

    Topology topology = t.toTopology();
    assertThat(topology.source()).isEqualTo("npu-smi");
    assertThat(topology.links()).isEqualTo(Map.of("0->1", LinkType.SIO, "1->0", LinkType.SIO));
    assertThat(topology.cpuAffinity()).isEmpty();
  }

  @Test
  void eight910b3AllHccsWithCpuAffinityAndLegend() {
    NpuSmiTopology t = NpuSmiTopology.parse(fixture("910b3-8npu-hccs.txt"));

    assertThat(t.labelKind()).contains(LabelKind.NPU);
    assertThat(t.labels())
        .containsExactly("NPU0", "NPU1", "NPU2", "NPU3", "NPU4", "NPU5", "NPU6", "NPU7");
    assertThat(t.labelIds()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(t.logicalIds()).isEqualTo(t.labelIds());
    assertThat(t.matrix()).isEqualTo(EIGHT_HCCS);
    assertThat(t.hasCpuAffinityColumn()).isTrue();
    assertThat(List.of(0, 1, 2, 3, 4, 5, 6, 7).stream().map(t::cpuAffinity).map(Optional::get))
        .containsExactly(
            "0-23,96-119",
            "0-23,96-119",
            "24-47,120-143",
            "24-47,120-143",
            "48-71,144-167",
            "48-71,144-167",
            "72-95,168-191",
            "72-95,168-191");
    assertThat(t.warnings()).isEmpty();

    Topology topology = t.toTopology();
    assertThat(topology.links()).hasSize(56).isEqualTo(links(EIGHT_HCCS, t.logicalIds()));
    assertThat(topology.link(3, 6)).isEqualTo(LinkType.HCCS);
    assertThat(topology.affinity(5)).contains("48-71,144-167");
    assertThat(topology.affinity(7)).contains("72-95,168-191");
  }

  @Test
  void a3ContainerRowOrderIsLogicalOrder() {
    NpuSmiTopology t = NpuSmiTopology.parse(fixture("a3-container-4die.txt"));

    List<List<LinkType>> expected =
        matrix("X SIO HCCS HCCS", "SIO X HCCS HCCS", "HCCS HCCS X SIO", "HCCS HCCS SIO X");
    assertThat(t.labels()).containsExactly("Phy-ID8", "Phy-ID9", "Phy-ID10", "Phy-ID11");
    assertThat(t.labelIds()).containsExactly(8, 9, 10, 11);
    assertThat(t.logicalIds()).containsExactly(0, 1, 2, 3);
    assertThat(t.matrix()).isEqualTo(expected);
    assertThat(t.hasCpuAffinityColumn()).isFalse();
    assertThat(t.warnings()).isEmpty();

    Topology topology = t.toTopology();
    assertThat(topology.links()).isEqualTo(links(expected, List.of(0, 1, 2, 3)));
    assertThat(topology.link(2, 3)).isEqualTo(LinkType.SIO);
    assertThat(topology.link(1, 2)).isEqualTo(LinkType.HCCS);
    assertThat(topology.cpuAffinity()).isEmpty();
  }

  @Test
  void unknownTokenIsUnknownWithOneWarning() {
    NpuSmiTopology t = NpuSmiTopology.parse(fixture("pcie-4npu-unknown-token.txt"));

    assertThat(t.matrix())
        .isEqualTo(matrix("X PIX SYS SYS", "PIX X ? SYS", "SYS SYS X PXB", "SYS SYS PXB X"));
    assertThat(t.warnings()).hasSize(1);
    assertThat(t.warnings().get(0)).contains("line 3", "XLINK", "NPU1->NPU2");
    assertThat(t.cpuAffinity(2)).contains("32-63");
    assertThat(t.toTopology().link(1, 2)).isEqualTo(LinkType.UNKNOWN);
    assertThat(t.toTopology().link(2, 1)).isEqualTo(LinkType.SYS);
  }

  @Test
  void unsupportedMessage() {
    NpuSmiTopology t = NpuSmiTopology.parse(fixture("unsupported.txt"));

    assertThat(t.unsupported()).isTrue();
    assertThat(t.size()).isZero();
    assertThat(t.labels()).isEmpty();
    assertThat(t.labelKind()).isEmpty();
    assertThat(t.matrix()).isEmpty();
    assertThat(t.toTopology()).isSameAs(Topology.NONE);
  }

  @Test
  void everyLegendTokenIsKnown() {
    String out =
        String.join(
            "\n",
            "       NPU0  NPU1  NPU2  NPU3  NPU4  NPU5  NPU6  NPU7  NPU8  NPU9",
            "NPU0   X     HCCS  SIO   HCCS_SW  PIX  PXB  PHB  SYS  UB  NA",
            "NPU1   hccs  X     sio   hccs_sw  pix  pxb  phb  sys  ub  na",
            "NPU2   NA    UB    X     SYS   PHB   PXB   PIX   HCCS_SW  SIO  HCCS",
            "NPU3   HCCS  HCCS  HCCS  X     HCCS  HCCS  HCCS  HCCS  HCCS  HCCS",
            "NPU4   SYS   SYS   SYS   SYS   X     SYS   SYS   SYS   SYS   SYS",
            "NPU5   PIX   PIX   PIX   PIX   PIX   X     PIX   PIX   PIX   PIX",
            "NPU6   PXB   PXB   PXB   PXB   PXB   PXB   X     PXB   PXB   PXB",
            "NPU7   PHB   PHB   PHB   PHB   PHB   PHB   PHB   X     PHB   PHB",
            "NPU8   UB    UB    UB    UB    UB    UB    UB    UB    X     UB",
            "NPU9   NA    NA    NA    NA    NA    NA    NA    NA    NA    X",
            "");

    NpuSmiTopology t = NpuSmiTopology.parse(out);

    assertThat(t.matrix())
        .isEqualTo(
            matrix(
                "X HCCS SIO HCCS_SW PIX PXB PHB SYS UB NA",
                "HCCS X SIO HCCS_SW PIX PXB PHB SYS UB NA",
                "NA UB X SYS PHB PXB PIX HCCS_SW SIO HCCS",
                "HCCS HCCS HCCS X HCCS HCCS HCCS HCCS HCCS HCCS",
                "SYS SYS SYS SYS X SYS SYS SYS SYS SYS",
                "PIX PIX PIX PIX PIX X PIX PIX PIX PIX",
                "PXB PXB PXB PXB PXB PXB X PXB PXB PXB",
                "PHB PHB PHB PHB PHB PHB PHB X PHB PHB",
                "UB UB UB UB UB UB UB UB X UB",
                "NA NA NA NA NA NA NA NA NA X"));
    assertThat(t.warnings()).isEmpty();
  }

  @Test
  void crlfTabsAndLeadingBlankLines() {
    String out =
        "\r\n\r\n\tNPU0\tNPU1\tCPU  Affinity\r\nNPU0\tX\tPIX\t0-63,128-191\r\n"
            + "NPU1\tPIX\tX\t64-127,192-255\r\n\r\nLegend:\r\n\r\n  X    = Self\r\n";

    NpuSmiTopology t = NpuSmiTopology.parse(out);

    assertThat(t.matrix()).isEqualTo(matrix("X PIX", "PIX X"));
    assertThat(t.cpuAffinity(0)).contains("0-63,128-191");
    assertThat(t.cpuAffinity(1)).contains("64-127,192-255");
  }

  @Test
  void npuLabelsKeepTheirNumbersAsLogicalIds() {
    String out = "      NPU4   NPU6\nNPU4  X      HCCS\nNPU6  HCCS   X\n";

    NpuSmiTopology t = NpuSmiTopology.parse(out);

    assertThat(t.logicalIds()).containsExactly(4, 6);
    assertThat(t.toTopology().links())
        .isEqualTo(Map.of("4->6", LinkType.HCCS, "6->4", LinkType.HCCS));
  }

  @Test
  void blankAffinityCellIsAllowedButNotAMissingLinkCell() {
    String blank = "      NPU0   NPU1   CPU Affinity\nNPU0  X      HCCS   0-23\nNPU1  HCCS   X\n";
    NpuSmiTopology t = NpuSmiTopology.parse(blank);
    assertThat(t.cpuAffinity(0)).contains("0-23");
    assertThat(t.cpuAffinity(1)).isEmpty();
    assertThat(t.toTopology().cpuAffinity()).isEqualTo(Map.of(0, "0-23"));

    String missingLink =
        "      NPU0   NPU1   CPU Affinity\nNPU0  X      HCCS   0-23\nNPU1  X      24-47\n";
    assertThatThrownBy(() -> NpuSmiTopology.parse(missingLink))
        .isInstanceOf(NpuSmiTopologyException.class)
        .hasMessageStartingWith("line 3: ")
        .hasMessageContaining("'24-47'");
  }

  @Test
  void diagonalOtherThanXIsSelfWithAWarning() {
    NpuSmiTopology t =
        NpuSmiTopology.parse("      NPU0   NPU1\nNPU0  HCCS   HCCS\nNPU1  HCCS   X\n");

    assertThat(t.matrix()).isEqualTo(matrix("X HCCS", "HCCS X"));
    assertThat(t.warnings()).singleElement().asString().contains("line 2", "NPU0->NPU0");
  }

  @Test
  void rowWithTooManyCellsNamesTheLine() {
    String out = "      NPU0   NPU1\nNPU0  X      HCCS\nNPU1  HCCS   X      HCCS\n";

    assertThatThrownBy(() -> NpuSmiTopology.parse(out))
        .isInstanceOf(NpuSmiTopologyException.class)
        .hasMessage("line 3: row NPU1 has 3 cells, expected 2 link cells")
        .satisfies(e -> assertThat(((NpuSmiTopologyException) e).lineNumber()).isEqualTo(3));
  }

  @Test
  void rowWithTooFewCellsNamesTheLine() {
    String out =
        "      NPU0   NPU1   NPU2   CPU Affinity\n\nNPU0  X      HCCS   HCCS   0-7\n"
            + "NPU1  HCCS   X\n";

    assertThatThrownBy(() -> NpuSmiTopology.parse(out))
        .isInstanceOf(NpuSmiTopologyException.class)
        .hasMessage("line 4: row NPU1 has 2 cells, expected 3 link cells plus CPU Affinity");
  }

  @Test
  void noHeader() {
    assertThatThrownBy(() -> NpuSmiTopology.parse(""))
        .isInstanceOf(NpuSmiTopologyException.class)
        .hasMessageStartingWith("line 1: no header line");
    assertThatThrownBy(() -> NpuSmiTopology.parse("\n\nLegend:\n\n  X    = Self\n"))
        .hasMessageStartingWith("line 3: no header line");
    assertThatThrownBy(() -> NpuSmiTopology.parse("npu-smi: command failed\nNPU0 X\n"))
        .isInstanceOf(NpuSmiTopologyException.class)
        .hasMessage(
            "line 1: expected a header of NPU<n> or Phy-ID<n> labels, found 'npu-smi: command"
                + " failed'");
  }

  @Test
  void otherShapeErrors() {
    assertThatThrownBy(() -> NpuSmiTopology.parse("   NPU0  NPU1\nNPU0  X  HCCS\n\nLegend:\n"))
        .isInstanceOf(NpuSmiTopologyException.class)
        .hasMessage("line 4: expected 2 device rows after the header on line 1, found 1");
    assertThatThrownBy(() -> NpuSmiTopology.parse("   NPU0  NPU1\nNPU1  HCCS  X\nNPU0  X  HCCS\n"))
        .hasMessage("line 2: expected the row of NPU0, found 'NPU1'");
    assertThatThrownBy(
            () -> NpuSmiTopology.parse("   NPU0  NPU1\nNPU0  X  HCCS\nNPU1  HCCS  X\nNPU2  X  X\n"))
        .hasMessageStartingWith("line 4: more rows than the 2 devices in the header on line 1");
    assertThatThrownBy(() -> NpuSmiTopology.parse("   NPU0  Phy-ID1\nNPU0  X  HCCS\n"))
        .hasMessageStartingWith("line 1: header mixes NPU<n> and Phy-ID<n> labels");
    assertThatThrownBy(() -> NpuSmiTopology.parse("   NPU0  NPU0\nNPU0  X  HCCS\n"))
        .hasMessage("line 1: device label 'NPU0' appears twice");
    assertThatThrownBy(
            () -> NpuSmiTopology.parse("   NPU0  NPU1  NUMA Affinity\nNPU0  X  HCCS  0\n"))
        .hasMessageStartingWith("line 1: unexpected header column 'NUMA Affinity'");
  }
}
