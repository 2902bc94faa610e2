package io.linkwatch.runtime.ascend;

import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceMonitor;
import io.linkwatch.runtime.DeviceProcess;
import io.linkwatch.runtime.Utilization;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
  private final Supplier<DcmiLibrary> library;
  private final CallJournal journal;
  private final IntUnaryOperator hostId;
  private final Map<Integer, int[]> cards = new ConcurrentHashMap<>();
  private DcmiLibrary dcmi;

  /**
   * @param library loads {@code libdcmi.so} on first use
   * @param journal where the calls' devices are noted
   * @param hostId the host's number (DCMI's logic id) of a runtime device
   */
  public DcmiMonitor(Supplier<DcmiLibrary> library, CallJournal journal, IntUnaryOperator hostId) {
    this.library = library;
    this.journal = journal;
    this.hostId = hostId;
  }

  private synchronized DcmiLibrary dcmi() {
    if (dcmi == null) {
      DcmiLibrary lib = library.get();
      check("dcmi_init", lib.dcmi_init());
      dcmi = lib;
    }
    return dcmi;
  }

  private int[] card(int device) {
    journal.onDevice(device);
    int[] known = cards.get(device);
    if (known != null) {
      return known;
    }
    IntByReference card = new IntByReference();
    IntByReference dev = new IntByReference();
    check(
        "dcmi_get_card_id_device_id_from_logicid",
        dcmi().dcmi_get_card_id_device_id_from_logicid(card, dev, hostId.applyAsInt(device)));
    int[] mapped = {card.getValue(), dev.getValue()};
    cards.put(device, mapped);
    return mapped;
  }

  @Override
  public String source() {
    return "dcmi";
  }

  /** Not permitted, in a container, not supported: none changes within a process. */
  @Override
  public boolean permanent(int code) {
    return code == -8002 || code == -8013 || code == -8255;
  }

  @Override
  public List<DeviceProcess> processes(int device) {
    int[] c = card(device);
    DcmiLibrary.ProcMemInfo first = new DcmiLibrary.ProcMemInfo();
    DcmiLibrary.ProcMemInfo[] entries =
        (DcmiLibrary.ProcMemInfo[]) first.toArray(DcmiLibrary.MAX_PROC_NUM);
    IntByReference count = new IntByReference(0);
    check(
        "dcmi_get_device_resource_info",
        dcmi().dcmi_get_device_resource_info(c[0], c[1], first, count));
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
    int[] c = card(device);
    IntByReference rate = new IntByReference();
    check(
        "dcmi_get_device_utilization_rate",
        dcmi().dcmi_get_device_utilization_rate(c[0], c[1], inputType(kind), rate));
    return Integer.toUnsignedLong(rate.getValue()) / 100.0;
  }

  static int inputType(Utilization kind) {
    return switch (kind) {
      case AICORE -> 2;
      case HBM_BANDWIDTH -> 10;
      case NPU -> 13;
    };
  }

  private static void check(String function, int code) {
    if (code != 0) {
      throw new DeviceException(function, code, explain(code));
    }
  }

  /** The codes the DCMI documentation gives ({@code -8000 - k}). */
  static String explain(int code) {
    return switch (code) {
      case -8001 -> "invalid parameter";
      case -8002 -> "operation not permitted";
      case -8013 -> "not supported in a container";
      case -8255 -> "not supported on this device";
      default -> "DCMI error";
    };
  }
}
