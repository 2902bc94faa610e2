package io.linkwatch.runtime.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The NPU port structs against the header's layout (48 u64 counters, then two longs and 64 reserved
 * bytes; a 16-byte address union and its type); the sim's C test checks the same offsets.
 */
class DcmiPortStructsTest {
  private static ByteBuffer bytes(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
  }

  @Test
  void everyCounterIsReadAtItsFieldsOffset() {
    assertThat(DcmiPortStructs.PKT_STATS_FIELDS).hasSize(48).doesNotHaveDuplicates();
    ByteBuffer b = bytes(DcmiPortStructs.PKT_STATS_SIZE);
    for (int i = 0; i < 48; i++) {
      b.putLong(i * 8, 1000 + i);
    }
    b.putLong(384, 1_700_000_000L); // tv_sec: not a counter
    Map<String, Long> c = DcmiPortStructs.parsePktStats(b);
    assertThat(c).hasSize(48);
    assertThat(c.get("mac_tx_mac_pause_num")).isEqualTo(1000);
    assertThat(c.get("mac_rx_pfc_pkt_num")).isEqualTo(1011);
    assertThat(c.get("mac_rx_fcs_err_pkt_num")).isEqualTo(1028);
    assertThat(c.get("roce_err_ack_num")).isEqualTo(1038);
    assertThat(c.get("roce_new_pkt_rty_num")).isEqualTo(1042);
    assertThat(c.get("nic_rx_all_oct_num")).isEqualTo(1047);
  }

  @Test
  void addressesAreIpv4OrIpv6ByTheirTypeAndAllZerosIsNone() {
    ByteBuffer v4 = bytes(DcmiPortStructs.IP_ADDR_SIZE);
    v4.put(0, (byte) 192).put(1, (byte) 168).put(2, (byte) 100).put(3, (byte) 250);
    v4.putInt(16, 0);
    assertThat(DcmiPortStructs.parseIpAddress(v4)).isEqualTo("192.168.100.250");

    ByteBuffer v6 = bytes(DcmiPortStructs.IP_ADDR_SIZE);
    v6.put(0, (byte) 0xfe).put(1, (byte) 0x80).put(15, (byte) 0x01);
    v6.putInt(16, 1);
    assertThat(DcmiPortStructs.parseIpAddress(v6)).isEqualTo("fe80:0:0:0:0:0:0:1");

    assertThat(DcmiPortStructs.parseIpAddress(bytes(DcmiPortStructs.IP_ADDR_SIZE))).isNull();
  }
}
