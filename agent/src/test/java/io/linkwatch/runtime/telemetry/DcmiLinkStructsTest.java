package io.linkwatch.runtime.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.runtime.telemetry.DcmiLinkStructs.HccsCounters;
import io.linkwatch.runtime.telemetry.DcmiLinkStructs.HccsPort;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The DCMI link structs against the sizes and offsets of {@code
 * shared/reference/passive-telemetry.md} (gcc x86-64 on the cited headers); the sim's C test checks
 * the same figures with sizeof and offsetof, so both sides agree with the header.
 */
class DcmiLinkStructsTest {
  private static ByteBuffer bytes(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
  }

  @Test
  void structSizesAreTheReferenceFigures() {
    assertThat(DcmiLinkStructs.STATUS_SIZE).isEqualTo(12);
    assertThat(DcmiLinkStructs.LANES_SIZE).isEqualTo(132);
    assertThat(DcmiLinkStructs.STATS_SIZE).isEqualTo(512);
    assertThat(DcmiLinkStructs.STATS_U64_SIZE).isEqualTo(1024);
    assertThat(DcmiLinkStructs.SIO_SIZE).isEqualTo(12);
    assertThat(DcmiLinkStructs.PCIE_INFO_SIZE).isEqualTo(64);
    assertThat(DcmiLinkStructs.MAX_PCS).isEqualTo(16);
  }

  @Test
  void statisticsU32ReadTxRxCrcRetryAtTheirOffsets() {
    ByteBuffer b = bytes(512);
    b.putInt(4 * 3, 0xFFFFFFF0); // tx[3], unsigned
    b.putInt(64 + 4 * 3, 7); // rx[3] @64
    b.putInt(128 + 4 * 3, 5); // crc[3] @128
    b.putInt(192 + 4 * 3, 2); // retry[3] @192
    HccsCounters c = DcmiLinkStructs.parseStatistics(b).get(3);
    assertThat(c).isEqualTo(new HccsCounters(3, 0xFFFFFFF0L, 7, 5, 2));
    assertThat(DcmiLinkStructs.parseStatistics(b)).hasSize(16);
  }

  @Test
  void statisticsU64ReadTxRxCrcRetryAtTheirOffsets() {
    ByteBuffer b = bytes(1024);
    b.putLong(8 * 7, 1L << 40); // tx[7]
    b.putLong(128 + 8 * 7, 9); // rx[7] @128
    b.putLong(256 + 8 * 7, 4); // crc[7] @256
    b.putLong(384 + 8 * 7, 3); // retry[7] @384
    assertThat(DcmiLinkStructs.parseStatisticsU64(b).get(7))
        .isEqualTo(new HccsCounters(7, 1L << 40, 9, 4, 3));
  }

  @Test
  void laneInfoDescribesThePortOfEachSetBitInOrder() {
    ByteBuffer b = bytes(132);
    b.putInt(0, 0b1010); // ports 1 and 3
    b.putInt(4, 1 | (0xF << 1) | (0b10 << 9)); // port 1: HCCS, 4 lanes, mode 4
    b.putInt(8, 1 | (0b11 << 1) | (0b11 << 9)); // port 3: HCCS, 2 lanes, mode 2
    List<HccsPort> ports = DcmiLinkStructs.parseLanes(b);
    assertThat(ports).containsExactly(new HccsPort(1, true, 4, 4), new HccsPort(3, true, 2, 2));
    assertThat(ports.get(0).up()).isTrue();
  }

  @Test
  void aPortNotSwitchedToHccsOrWithoutLanesIsDown() {
    ByteBuffer b = bytes(132);
    b.putInt(0, 0b110);
    b.putInt(4, 0); // port 1: nothing
    b.putInt(8, 1); // port 2: switched, no lane in use
    assertThat(DcmiLinkStructs.parseLanes(b))
        .extracting(HccsPort::up)
        .containsExactly(false, false);
  }

  @Test
  void statusSaysNormalOrTheFirstFaultyPcs() {
    ByteBuffer b = bytes(12);
    b.putInt(0, 1 | (5 << 8));
    b.putInt(4, 3);
    DcmiLinkStructs.HccsStatus s = DcmiLinkStructs.parseStatus(b);
    assertThat(s.normal()).isFalse();
    assertThat(s.firstFaultyPcs()).isEqualTo(5);
    assertThat(s.hdlcOk()).isTrue();
  }

  @Test
  void sioCountersAreUnsigned16Bit() {
    ByteBuffer b = bytes(12);
    b.putShort(0, (short) 0xFFFF);
    b.putShort(2, (short) 3);
    assertThat(DcmiLinkStructs.parseSioCrc(b)).containsExactly(65535, 3);
  }

  @Test
  void pcieInfoGivesTheSysfsAddress() {
    ByteBuffer b = bytes(64);
    b.putInt(0, 0x19e5); // venderid
    b.putInt(16, 0); // domain @16
    b.putInt(20, 0xc1); // bus @20
    b.putInt(24, 0); // device @24
    b.putInt(28, 1); // function @28
    assertThat(DcmiLinkStructs.parsePcieAddress(b)).isEqualTo("0000:c1:00.1");
  }

  @Test
  void aShortBufferIsRefused() {
    assertThatThrownBy(() -> DcmiLinkStructs.parseStatisticsU64(bytes(512)))
        .hasMessageContaining("1024 bytes expected, got 512");
  }
}
