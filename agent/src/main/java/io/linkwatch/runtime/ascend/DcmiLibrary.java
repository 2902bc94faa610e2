package io.linkwatch.runtime.ascend;

import com.sun.jna.Library;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;

/**
 * The DCMI calls that read device activity and link counters ({@code libdcmi.so}, {@code
 * dcmi_interface_api.h}). Every call returns 0 or a negative code {@code -8000 - k}.
 */
public interface DcmiLibrary extends Library {
  /**
   * Entries the caller provides for {@code dcmi_get_device_resource_info}: libdcmi fills up to
   * {@code MAX_PROC_NUM_IN_DEVICE} (64 in current drivers, 32 before) without being told the size.
   */
  int MAX_PROC_NUM = 64;

  /** {@code struct dcmi_proc_mem_info { int proc_id; unsigned long proc_mem_usage; }}. */
  @Structure.FieldOrder({"proc_id", "proc_mem_usage"})
  class ProcMemInfo extends Structure {
    public int proc_id;
    public NativeLong proc_mem_usage;
  }

  int dcmi_init();

  int dcmi_get_card_id_device_id_from_logicid(
      IntByReference cardId, IntByReference deviceId, int deviceLogicId);

  int dcmi_get_device_resource_info(
      int cardId, int deviceId, ProcMemInfo procInfo, IntByReference procNum);

  int dcmi_get_device_utilization_rate(
      int cardId, int deviceId, int inputType, IntByReference utilizationRate);

  /**
   * The generic getter of the link counters: {@code buf} holds the struct of ({@code mainCmd},
   * {@code subCmd}); {@code size} is its size in, the size written out.
   */
  int dcmi_get_device_info(
      int cardId, int deviceId, int mainCmd, int subCmd, Pointer buf, IntByReference size);

  /** {@code struct dcmi_pcie_info_all} (64 bytes) of a device: its PCI ids and address. */
  int dcmi_get_device_pcie_info_v2(int cardId, int deviceId, Pointer info);

  /**
   * The device's own RoCE port: its packet counters ({@code struct dcmi_network_pkt_stats_info},
   * 464 bytes; port 0 only) and its address ({@code struct dcmi_ip_addr}, 20 bytes each). Absent
   * from older drivers' libdcmi: JNA then throws {@link UnsatisfiedLinkError} at the call.
   */
  int dcmi_get_netdev_pkt_stats_info(int cardId, int deviceId, int portId, Pointer info);

  int dcmi_get_device_ip(
      int cardId, int deviceId, int portType, int portId, Pointer ip, Pointer mask);
}
