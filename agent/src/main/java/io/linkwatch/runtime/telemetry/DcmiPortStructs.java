package io.linkwatch.runtime.telemetry;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The structs of the public DCMI calls on an NPU's own RoCE port ({@code dcmi_interface_api.h}),
 * decoded from their bytes: pure functions, tested on fixture bytes. Layouts of gcc on LP64:
 *
 * <pre>
 * struct dcmi_network_pkt_stats_info  464 B  48 x u64 counters@0, long tv_sec@384, tv_usec@392
 * struct dcmi_ip_addr                  20 B  union {ip6[16], ip4[4]}@0, enum ip_type@16
 * </pre>
 */
public final class DcmiPortStructs {
  public static final int PKT_STATS_SIZE = 464;
  public static final int IP_ADDR_SIZE = 20;

  /** {@code enum dcmi_port_type}: the RoCE port, not the host-device virtual NIC. */
  public static final int ROCE_PORT = 1;

  /**
   * The counters of {@code struct dcmi_network_pkt_stats_info} in the header's order, by the names
   * its fields have (which are the names {@code hccn_tool -stat} prints where both have one).
   */
  public static final List<String> PKT_STATS_FIELDS =
      List.of(
          "mac_tx_mac_pause_num",
          "mac_rx_mac_pause_num",
          "mac_tx_pfc_pkt_num",
          "mac_tx_pfc_pri0_pkt_num",
          "mac_tx_pfc_pri1_pkt_num",
          "mac_tx_pfc_pri2_pkt_num",
          "mac_tx_pfc_pri3_pkt_num",
          "mac_tx_pfc_pri4_pkt_num",
          "mac_tx_pfc_pri5_pkt_num",
          "mac_tx_pfc_pri6_pkt_num",
          "mac_tx_pfc_pri7_pkt_num",
          "mac_rx_pfc_pkt_num",
          "mac_rx_pfc_pri0_pkt_num",
          "mac_rx_pfc_pri1_pkt_num",
          "mac_rx_pfc_pri2_pkt_num",
          "mac_rx_pfc_pri3_pkt_num",
          "mac_rx_pfc_pri4_pkt_num",
          "mac_rx_pfc_pri5_pkt_num",
          "mac_rx_pfc_pri6_pkt_num",
          "mac_rx_pfc_pri7_pkt_num",
          "mac_tx_total_pkt_num",
          "mac_tx_total_oct_num",
          "mac_tx_bad_pkt_num",
          "mac_tx_bad_oct_num",
          "mac_rx_total_pkt_num",
          "mac_rx_total_oct_num",
          "mac_rx_bad_pkt_num",
          "mac_rx_bad_oct_num",
          "mac_rx_fcs_err_pkt_num",
          "roce_rx_rc_pkt_num",
          "roce_rx_all_pkt_num",
          "roce_rx_err_pkt_num",
          "roce_tx_rc_pkt_num",
          "roce_tx_all_pkt_num",
          "roce_tx_err_pkt_num",
          "roce_cqe_num",
          "roce_rx_cnp_pkt_num",
          "roce_tx_cnp_pkt_num",
          "roce_err_ack_num",
          "roce_err_psn_num",
          "roce_verification_err_num",
          "roce_err_qp_status_num",
          "roce_new_pkt_rty_num",
          "roce_ecn_db_num",
          "nic_tx_all_pkg_num",
          "nic_tx_all_oct_num",
          "nic_rx_all_pkg_num",
          "nic_rx_all_oct_num");

  private DcmiPortStructs() {}

  /**
   * The counters by field name. They are unsigned 64-bit; one past {@code Long.MAX_VALUE} would
   * take centuries at line rate, so they are read as signed.
   */
  public static Map<String, Long> parsePktStats(ByteBuffer b) {
    ByteBuffer le = DcmiLinkStructs.view(b, PKT_STATS_SIZE);
    Map<String, Long> out = new LinkedHashMap<>();
    for (int i = 0; i < PKT_STATS_FIELDS.size(); i++) {
      out.put(PKT_STATS_FIELDS.get(i), le.getLong(i * 8));
    }
    return out;
  }

  /**
   * {@code struct dcmi_ip_addr} as text: dotted IPv4, or IPv6 in full hexadecimal groups; null for
   * an address of all zeros (none set).
   */
  public static String parseIpAddress(ByteBuffer b) {
    ByteBuffer le = DcmiLinkStructs.view(b, IP_ADDR_SIZE);
    int type = le.getInt(16);
    int length = type == 1 ? 16 : 4;
    byte[] raw = new byte[length];
    boolean any = false;
    for (int i = 0; i < length; i++) {
      raw[i] = le.get(i);
      any |= raw[i] != 0;
    }
    if (!any) {
      return null;
    }
    StringBuilder s = new StringBuilder();
    if (length == 4) {
      for (int i = 0; i < 4; i++) {
        s.append(i == 0 ? "" : ".").append(Byte.toUnsignedInt(raw[i]));
      }
    } else {
      for (int i = 0; i < 16; i += 2) {
        s.append(i == 0 ? "" : ":")
            .append(
                Integer.toHexString(
                    (Byte.toUnsignedInt(raw[i]) << 8) | Byte.toUnsignedInt(raw[i + 1])));
      }
    }
    return s.toString();
  }
}
