package io.linkwatch.runtime.ascend;

import com.sun.jna.ptr.IntByReference;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.calls.CallJournal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

/**
 * DCMI, initialized once on first use, and the (card, device) pair of each runtime device: DCMI
 * numbers devices as the host does and ignores {@code ASCEND_RT_VISIBLE_DEVICES}, so a runtime
 * device is mapped through its host number (DCMI's logic id), once. Shared by every DCMI reader.
 */
final class DcmiCards {
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
  DcmiCards(Supplier<DcmiLibrary> library, CallJournal journal, IntUnaryOperator hostId) {
    this.library = library;
    this.journal = journal;
    this.hostId = hostId;
  }

  synchronized DcmiLibrary dcmi() {
    if (dcmi == null) {
      DcmiLibrary lib = library.get();
      check("dcmi_init", lib.dcmi_init());
      dcmi = lib;
    }
    return dcmi;
  }

  /** {card_id, device_id} of a runtime device; the calls that follow are noted on it. */
  int[] card(int device) {
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

  /** Not permitted, in a container, not supported: none changes within a process. */
  static boolean permanent(int code) {
    return code == -8002 || code == -8013 || code == -8255;
  }

  static void check(String function, int code) {
    if (code != 0) {
      throw new DeviceException(function, code, explain(code));
    }
  }

  /** The codes the DCMI documentation gives ({@code -8000 - k}). */
  static String explain(int code) {
    return switch (code) {
      case -8001 -> "invalid parameter";
      case -8002 -> "operation not permitted";
      case -8005 -> "internal error";
      case -8006 -> "timed out";
      case -8008 -> "device does not exist";
      case -8013 -> "not supported in a container";
      case -8255 -> "not supported on this device";
      default -> "DCMI error";
    };
  }
}
