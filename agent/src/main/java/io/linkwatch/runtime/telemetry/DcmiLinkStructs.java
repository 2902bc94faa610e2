package io.linkwatch.runtime.telemetry;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The DCMI link structs of {@code dcmi_interface_api.h}, decoded from their bytes: pure functions,
 * tested on fixture bytes, so the JNA side only fetches. Sizes and offsets are those of gcc on
 * x86-64 and aarch64 (both LP64, natural alignment), as the reference gives them:
 *
 * <pre>
 * struct dcmi_hccs_statues                 12 B  (main 16, sub 0) pcs_status@0 hdlc_status@4
 * struct dcmi_hccs_lane_info              132 B  (main 16, sub 1) bitmap@0 pcs_lane_bitmap[16]@4
 * struct dcmi_hccs_statistic_info         512 B  (main 16, sub 3) tx@0 rx@64 crc@128 retry@192 (u32)
 * struct dcmi_hccs_statistic_info_u64    1024 B  (main 16, sub 5) tx@0 rx@128 crc@256 retry@384 (u64)
 * struct dcmi_sio_crc_err_statistics_info  12 B  (main 56, sub 0) tx@0 rx@2 (u16)
 * struct dcmi_pcie_info_all                64 B  domain@16 bus@20 device@24 function@28
 * </pre>
 */
public final class DcmiLinkStructs {
  public static final int MAIN_HCCS = 16;
  public static final int MAIN_SIO = 56;
  public static final int SUB_HCCS_STATUS = 0;
  public static final int SUB_HCCS_LANES = 1;
  public static final int SUB_HCCS_STATS = 3;
  public static final int SUB_HCCS_STATS_U64 = 5;
  public static final int SUB_SIO_CRC = 0;

  /** DCMI_HCCS_MAX_PCS_NUM: every per-port array has this many entries. */
  public static final int MAX_PCS = 16;

  public static final int STATUS_SIZE = 12;
  public static final int LANES_SIZE = 132;
  public static final int STATS_SIZE = 512;
  public static final int STATS_U64_SIZE = 1024;
  public static final int SIO_SIZE = 12;
  public static final int PCIE_INFO_SIZE = 64;

  /** HCCS links run in x4 mode ("the chip uses only x4 mode"): the full lane count of a port. */
  public static final int HCCS_LANES_MAX = 4;

  private DcmiLinkStructs() {}

  /** {@code struct dcmi_hccs_statues}: the device's HCCS summary. */
  public record HccsStatus(long pcsStatus, long hdlcStatus) {
    /** pcs_status 0 is normal; else bit 0 says abnormal. */
    public boolean normal() {
      return pcsStatus == 0;
    }

    /** The first faulty PCS (bits 8-15), meaningful when not {@link #normal()}. */
    public int firstFaultyPcs() {
      return (int) ((pcsStatus >> 8) & 0xff);
    }

    /** hdlc_status bits 0-1: 11 is DCMI_HDLC_STATUS_OK. */
    public boolean hdlcOk() {
      return (hdlcStatus & 0x3) == 0x3;
    }
  }

  /** One HCCS port from {@code struct dcmi_hccs_lane_info}. */
  public record HccsPort(int pcs, boolean switchedToHccs, int lanesInUse, int laneMode) {
    /** Up: switched to HCCS with at least one lane in use. */
    public boolean up() {
      return switchedToHccs && lanesInUse > 0;
    }
  }

  /** One port's cumulative counters, in flits (traffic) and events (errors). */
  public record HccsCounters(int pcs, long tx, long rx, long crc, long retry) {}

  public static HccsStatus parseStatus(ByteBuffer b) {
    ByteBuffer le = view(b, STATUS_SIZE);
    return new HccsStatus(
        Integer.toUnsignedLong(le.getInt(0)), Integer.toUnsignedLong(le.getInt(4)));
  }

  /**
   * The ports of {@code struct dcmi_hccs_lane_info}: {@code pcs_lane_bitmap[j]} describes the port
   * of the j-th set bit of {@code hccs_port_pcs_bitmap}; bit 0 "switched to HCCS", bits 1-8 one bit
   * per lane in use, bits 9-10 the lane mode (00: 0 lanes, 01: 1, 10: 4, 11: 2).
   */
  public static List<HccsPort> parseLanes(ByteBuffer b) {
    ByteBuffer le = view(b, LANES_SIZE);
    int ports = le.getInt(0);
    List<HccsPort> out = new ArrayList<>();
    int j = 0;
    for (int pcs = 0; pcs < 32 && j < MAX_PCS; pcs++) {
      if ((ports & (1 << pcs)) == 0) {
        continue;
      }
      int lane = le.getInt(4 + 4 * j);
      j++;
      int inUse = Integer.bitCount((lane >> 1) & 0xff);
      int mode =
          switch ((lane >> 9) & 0x3) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> 4;
            default -> 2;
          };
      out.add(new HccsPort(pcs, (lane & 1) != 0, inUse, mode));
    }
    return out;
  }

  /** The 32-bit statistics (sub 3), every port of the 16; they wrap at 2^32. */
  public static List<HccsCounters> parseStatistics(ByteBuffer b) {
    ByteBuffer le = view(b, STATS_SIZE);
    List<HccsCounters> out = new ArrayList<>(MAX_PCS);
    for (int k = 0; k < MAX_PCS; k++) {
      out.add(
          new HccsCounters(
              k,
              Integer.toUnsignedLong(le.getInt(4 * k)),
              Integer.toUnsignedLong(le.getInt(64 + 4 * k)),
              Integer.toUnsignedLong(le.getInt(128 + 4 * k)),
              Integer.toUnsignedLong(le.getInt(192 + 4 * k))));
    }
    return out;
  }

  /** The 64-bit statistics (sub 5), every port of the 16. */
  public static List<HccsCounters> parseStatisticsU64(ByteBuffer b) {
    ByteBuffer le = view(b, STATS_U64_SIZE);
    List<HccsCounters> out = new ArrayList<>(MAX_PCS);
    for (int k = 0; k < MAX_PCS; k++) {
      out.add(
          new HccsCounters(
              k,
              le.getLong(8 * k),
              le.getLong(128 + 8 * k),
              le.getLong(256 + 8 * k),
              le.getLong(384 + 8 * k)));
    }
    return out;
  }

  /** {@code struct dcmi_sio_crc_err_statistics_info}: {tx, rx} CRC error counts, 16 bits each. */
  public static long[] parseSioCrc(ByteBuffer b) {
    ByteBuffer le = view(b, SIO_SIZE);
    return new long[] {Short.toUnsignedLong(le.getShort(0)), Short.toUnsignedLong(le.getShort(2))};
  }

  /**
   * The PCI address of {@code struct dcmi_pcie_info_all} in sysfs form, e.g. {@code 0000:c1:00.0}.
   */
  public static String parsePcieAddress(ByteBuffer b) {
    ByteBuffer le = view(b, PCIE_INFO_SIZE);
    return String.format(
        java.util.Locale.ROOT,
        "%04x:%02x:%02x.%x",
        le.getInt(16),
        le.getInt(20),
        le.getInt(24),
        le.getInt(28));
  }

  /** {@code b} as a native-order view of a struct of {@code size} bytes, checked to hold it. */
  static ByteBuffer view(ByteBuffer b, int size) {
    if (b.remaining() < size) {
      throw new IllegalArgumentException(
          "struct of " + size + " bytes expected, got " + b.remaining());
    }
    return b.slice().order(ByteOrder.nativeOrder());
  }
}
