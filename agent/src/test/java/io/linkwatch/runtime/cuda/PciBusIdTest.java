package io.linkwatch.runtime.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.runtime.LinkType;
import org.junit.jupiter.api.Test;

/** The three spellings of one PCI address meet in sysfs's, and NVML's levels in link types. */
class PciBusIdTest {
  @Test
  void cudaNvmlAndSysfsFormsAreTheSameAddress() {
    assertThat(PciBusId.normalize("0000:1A:00.0")).isEqualTo("0000:1a:00.0"); // CUDA
    assertThat(PciBusId.normalize("00000000:1A:00.0")).isEqualTo("0000:1a:00.0"); // NVML
    assertThat(PciBusId.normalize("0000:1a:00.0")).isEqualTo("0000:1a:00.0"); // sysfs
    assertThat(PciBusId.normalize(" 0001:db:00.1\n")).isEqualTo("0001:db:00.1");
    // VMD domains above 0xffff keep all their digits, as sysfs writes them
    assertThat(PciBusId.normalize("10000:01:00.0")).isEqualTo("10000:01:00.0");
  }

  @Test
  void anythingElseIsNoAddress() {
    assertThat(PciBusId.normalize(null)).isNull();
    assertThat(PciBusId.normalize("")).isNull();
    assertThat(PciBusId.normalize("GPU-5c8a...")).isNull();
    assertThat(PciBusId.normalize("0000:1a:00")).isNull();
    assertThat(PciBusId.normalize("0000:1a:00.8")).isNull();
  }

  @Test
  void nvmlTopologyLevelsAreNvidiaSmisNames() {
    assertThat(LinkType.fromNvmlTopologyLevel(0)).isEqualTo(LinkType.PIX);
    assertThat(LinkType.fromNvmlTopologyLevel(10)).isEqualTo(LinkType.PIX);
    assertThat(LinkType.fromNvmlTopologyLevel(20)).isEqualTo(LinkType.PXB);
    assertThat(LinkType.fromNvmlTopologyLevel(30)).isEqualTo(LinkType.PHB);
    assertThat(LinkType.fromNvmlTopologyLevel(40)).isEqualTo(LinkType.NODE);
    assertThat(LinkType.fromNvmlTopologyLevel(50)).isEqualTo(LinkType.SYS);
    assertThat(LinkType.fromNvmlTopologyLevel(60)).isEqualTo(LinkType.UNKNOWN);
    assertThat(LinkType.fromToken("nvlink")).contains(LinkType.NVLINK);
  }
}
