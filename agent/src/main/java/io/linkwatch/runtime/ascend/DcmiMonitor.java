package io.linkwatch.runtime.ascend;

import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import io.linkwatch.runtime.DeviceMonitor;
import io.linkwatch.runtime.DeviceProcess;
import io.linkwatch.runtime.Utilization;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

/**
 * {@link DeviceMonitor} over DCMI. {@code dcmi_init} runs once, on first use; a logical device id
 * is mapped to DCMI's (card, device) once and remembered, through the host's number of the device:
 * DCMI does not apply {@code ASCEND_RT_VISIBLE_DEVICES}. Errors name the call and explain the
 * documented codes, e.g. {@code dcmi_get_device_resource_info returned -8013: not supported in a
 * container}.
 */
public final class DcmiMonitor implements DeviceMonitor {
  private final DcmiCards cards;

  DcmiMonitor(DcmiCards cards) {
    this.cards = cards;
  }

  /**
   * @param library loads {@code libdcmi.so} on first use
   * @param journal where the calls' devices are noted
   * @param hostId the host's number (DCMI's logic id) of a runtime device
   */
  public DcmiMonitor(Supplier<DcmiLibrary> library, CallJournal journal, IntUnaryOperator hostId) {
    this(new DcmiCards(library, journal, hostId));
  }

  @Override
  public String source() {
    return "dcmi";
  }

  /** Not permitted, in a container, not supported: none changes within a process. */
  @Override
  public boolean permanent(int code) {
    return DcmiCards.permanent(code);
  }

  @Override
  public List<DeviceProcess> processes(int device) {
    int[] c = cards.card(device);
    DcmiLibrary.ProcMemInfo first = new DcmiLibrary.ProcMemInfo();
    DcmiLibrary.ProcMemInfo[] entries =
        (DcmiLibrary.ProcMemInfo[]) first.toArray(DcmiLibrary.MAX_PROC_NUM);
    IntByReference count = new IntByReference(0);
    DcmiCards.check(
        "dcmi_get_device_resource_info",
        cards.dcmi().dcmi_get_device_resource_info(c[0], c[1], first, count));
    int n = Math.min(Math.max(count.getValue(), 0), DcmiLibrary.MAX_PROC_NUM);
    List<DeviceProcess> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Structure s = entries[i];
      s.read();
      DcmiLibrary.ProcMemInfo p = (DcmiLibrary.ProcMemInfo) s;
      out.add(new DeviceProcess(p.proc_id, p.proc_mem_usage.longValue()));
    }
    return out;
  }

  @Override
  public double utilization(int device, Utilization kind) {
    int[] c = cards.card(device);
    IntByReference rate = new IntByReference();
    DcmiCards.check(
        "dcmi_get_device_utilization_rate",
        cards.dcmi().dcmi_get_device_utilization_rate(c[0], c[1], inputType(kind), rate));
    return Integer.toUnsignedLong(rate.getValue()) / 100.0;
  }

  static int inputType(Utilization kind) {
    return switch (kind) {
      case AICORE -> 2;
      case HBM_BANDWIDTH -> 10;
      case NPU -> 13;
    };
  }

  /** The codes the DCMI documentation gives ({@code -8000 - k}). */
  static String explain(int code) {
    return DcmiCards.explain(code);
  }
}
