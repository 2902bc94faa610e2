package io.linkwatch.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import io.linkwatch.verdict.Verdict.Finding;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PCIe hops narrower than their path allows, judged from the status document's PCIe readings. */
class PcieWidthTest {
  /** A hop: {@code {"pci_address": ..., "role": ..., "width": w, "max_width": m}}. */
  static String hop(String address, String role, int width, int max) {
    return """
        {"pci_address": "%s", "role": "%s", "width": %d, "max_width": %d}"""
        .formatted(address, role, width, max);
  }

  /** Devices 2 and 3 behind one switch port, each with its own function, under one root port. */
  static List<Finding> judge(String dev2Own, String dev3Own, String bridge) {
    String root = hop("0000:00:01.0", "root_port", 16, 16);
    String json =
        """
        {"targets": [], "passive": {"devices": [
          {"source": "sysfs", "device": 2, "result": "success", "pcie": [%s, %s, %s]},
          {"source": "sysfs", "device": 3, "result": "success", "pcie": [%s, %s, %s]}]}}
        """
            .formatted(dev2Own, bridge, root, dev3Own, bridge, root);
    return Verdict.judge(VerdictTest.doc(JsonParser.parseString(json).getAsJsonObject()), List.of())
        .findings()
        .stream()
        .filter(f -> f.code().equals("LW-PCIE-WIDTH"))
        .toList();
  }

  static final String DEV2 = hop("0000:01:00.0", "device", 16, 16);
  static final String DEV3 = hop("0000:02:00.0", "device", 16, 16);
  static final String BRIDGE = hop("0000:00:02.0", "bridge", 16, 16);

  @Test
  void everyHopAtItsPathsWidthIsNoFinding() {
    assertThat(judge(DEV2, DEV3, BRIDGE)).isEmpty();
  }

  @Test
  void aNarrowSwitchPortIsOneFindingWithBothDevicesUnderIt() {
    List<Finding> found = judge(DEV2, DEV3, hop("0000:00:02.0", "bridge", 8, 16));
    assertThat(found).singleElement().extracting(Finding::subject).isEqualTo("pcie 0000:00:02.0");
    assertThat(found.get(0).detail())
        .isEqualTo("bridge above devices 2, 3 runs at x8, the narrowest maximum on the path x16");
    assertThat(found.get(0).state()).isEqualTo(Verdict.State.WARN);
    assertThat(found.get(0).scope()).isEqualTo(new Verdict.Scope(Subsystem.PCIE, List.of(2, 3)));
  }

  @Test
  void aNarrowDeviceFunctionNamesThatDeviceOnly() {
    List<Finding> found = judge(DEV2, hop("0000:02:00.0", "device", 4, 16), BRIDGE);
    assertThat(found).singleElement().extracting(Finding::subject).isEqualTo("pcie 0000:02:00.0");
    assertThat(found.get(0).detail()).startsWith("device 3's own function runs at x4");
    assertThat(found.get(0).scope().devices()).containsExactly(3);
  }

  /**
   * An x8 card in an x16 slot: its path is x8 at most, so the slot at x8 is as built. Held to the
   * slot's own maximum instead, the same host would warn.
   */
  @Test
  void aPathNarrowByDesignIsNoFinding() {
    String x8Card = hop("0000:02:00.0", "device", 8, 8);
    String slotAtX8 = hop("0000:00:02.0", "bridge", 8, 16);
    assertThat(judge(hop("0000:01:00.0", "device", 8, 8), x8Card, slotAtX8)).isEmpty();
    // Device 2 an x16 card: the same slot at x8 is narrow for it, and names only it.
    List<Finding> found = judge(DEV2, x8Card, slotAtX8);
    assertThat(found).singleElement().extracting(f -> f.scope().devices()).isEqualTo(List.of(2));
  }
}
