package io.linkwatch.runtime.cuda;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.LinkTelemetry;
import io.linkwatch.runtime.LinkType;
import io.linkwatch.runtime.UnsupportedReadings;
import io.linkwatch.runtime.calls.CallJournal;
import io.linkwatch.runtime.telemetry.DeviceLinks;
import io.linkwatch.runtime.telemetry.LinkReading;
import io.linkwatch.runtime.telemetry.NvmlFieldValues;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * NVLink and PCIe counters through NVML: each link's state ({@code nvmlDeviceGetNvLinkState}), its
 * data-link error counters (replay, recovery, CRC flit, CRC data), its data traffic (field values
 * 138/139, cumulative KiB, one {@code nvmlDeviceGetFieldValues} call per device), and the GPU's
 * PCIe replay counter. Which links exist is found once: a link index NVML refuses as invalid ends
 * the list, one that is not supported is skipped. The far end of each link is found once too: the
 * GPU with that PCI address, or {@code nvswitch}.
 *
 * <p>NVML's replay counter is the NVLink retransmission that HCCS calls a retry, so it is published
 * under the same {@code kind="retry"}.
 */
final class NvmlLinkTelemetry implements LinkTelemetry {
  private final NvmlDevices devices;
  private final CallJournal journal;
  private final Function<String, Integer> deviceByBusId;
  private final Map<Integer, List<Link>> links = new HashMap<>();
  private final UnsupportedReadings unsupported = new UnsupportedReadings();
  private final Function<Integer, String> pciAddress;
  private final Map<Integer, String> pciAddresses = new HashMap<>();

  /**
   * The data-link error counters by the {@code kind} they are published as. The replay counter is
   * the NVLink retransmission that HCCS calls a retry, so both are {@code kind="retry"}.
   */
  private static final Map<String, Integer> ERROR_COUNTERS =
      orderedOf(
          "retry", NvmlLibrary.NVML_NVLINK_ERROR_DL_REPLAY,
          "recovery", NvmlLibrary.NVML_NVLINK_ERROR_DL_RECOVERY,
          "crc_flit", NvmlLibrary.NVML_NVLINK_ERROR_DL_CRC_FLIT,
          "crc_data", NvmlLibrary.NVML_NVLINK_ERROR_DL_CRC_DATA);

  private static Map<String, Integer> orderedOf(Object... pairs) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], (Integer) pairs[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(m);
  }

  /** A link that exists, with its far end. */
  private record Link(int index, String peer) {}

  /**
   * @param deviceByBusId the CUDA device with a PCI address (sysfs form), or null
   * @param pciAddress a CUDA device's PCI address (sysfs form), or null
   */
  NvmlLinkTelemetry(
      NvmlDevices devices,
      CallJournal journal,
      Function<String, Integer> deviceByBusId,
      Function<Integer, String> pciAddress) {
    this.devices = devices;
    this.journal = journal;
    this.deviceByBusId = deviceByBusId;
    this.pciAddress = pciAddress;
  }

  @Override
  public String source() {
    return "nvml";
  }

  @Override
  public synchronized DeviceLinks read(int device) {
    List<LinkReading> out = new ArrayList<>();
    String pci = pciAddresses.computeIfAbsent(device, pciAddress);
    Long replays = null;
    try {
      NvmlLibrary nvml = devices.nvml();
      Pointer handle = devices.handle(device);
      journal.onDevice(device);
      List<Link> known = links.computeIfAbsent(device, d -> discover(nvml, handle, d));
      long[][] traffic = traffic(nvml, handle, device, known);
      for (int i = 0; i < known.size(); i++) {
        Link link = known.get(i);
        IntByReference state = new IntByReference();
        NvmlDevices.check(
            nvml,
            "nvmlDeviceGetNvLinkState",
            nvml.nvmlDeviceGetNvLinkState(handle, link.index(), state));
        Map<String, Long> errors = new LinkedHashMap<>();
        error(nvml, handle, device, link, NvmlLibrary.NVML_NVLINK_ERROR_DL_REPLAY, "retry", errors);
        error(
            nvml,
            handle,
            device,
            link,
            NvmlLibrary.NVML_NVLINK_ERROR_DL_RECOVERY,
            "recovery",
            errors);
        error(
            nvml,
            handle,
            device,
            link,
            NvmlLibrary.NVML_NVLINK_ERROR_DL_CRC_FLIT,
            "crc_flit",
            errors);
        error(
            nvml,
            handle,
            device,
            link,
            NvmlLibrary.NVML_NVLINK_ERROR_DL_CRC_DATA,
            "crc_data",
            errors);
        out.add(
            new LinkReading(
                String.valueOf(link.index()),
                LinkType.NVLINK.label(),
                link.peer(),
                state.getValue() == NvmlLibrary.NVML_FEATURE_ENABLED,
                null,
                null,
                64,
                NvmlFieldValues.KIB,
                traffic == null || traffic[i][0] < 0 ? null : traffic[i][0],
                traffic == null || traffic[i][1] < 0 ? null : traffic[i][1],
                errors));
      }
      replays = replays(nvml, handle, device);
      return new DeviceLinks(
          device, source(), pci, out, replays, unsupported.of(device), null, null);
    } catch (DeviceException e) {
      return new DeviceLinks(
          device,
          source(),
          pci,
          out,
          replays,
          unsupported.of(device),
          e.getMessage(),
          e.function());
    }
  }

  /** The links NVML answers for, up to the first index it calls invalid, with their far ends. */
  private List<Link> discover(NvmlLibrary nvml, Pointer handle, int device) {
    List<Link> found = new ArrayList<>();
    for (int link = 0; link < NvmlLibrary.NVML_NVLINK_MAX_LINKS; link++) {
      IntByReference state = new IntByReference();
      int rc = nvml.nvmlDeviceGetNvLinkState(handle, link, state);
      if (rc == NvmlLibrary.NVML_ERROR_INVALID_ARGUMENT) {
        break;
      }
      if (rc == NvmlLibrary.NVML_ERROR_NOT_SUPPORTED) {
        if (link == 0) {
          unsupported.add(device, "nvlink", "nvmlDeviceGetNvLinkState returned 3: not supported");
          break; // a GPU without NVLink
        }
        continue;
      }
      NvmlDevices.check(nvml, "nvmlDeviceGetNvLinkState", rc);
      found.add(new Link(link, peer(nvml, handle, link)));
    }
    return List.copyOf(found);
  }

  private String peer(NvmlLibrary nvml, Pointer handle, int link) {
    IntByReference type = new IntByReference();
    if (nvml.nvmlDeviceGetNvLinkRemoteDeviceType(handle, link, type) == NvmlLibrary.NVML_SUCCESS
        && type.getValue() == NvmlLibrary.NVML_NVLINK_DEVICE_TYPE_SWITCH) {
      return "nvswitch";
    }
    NvmlLibrary.PciInfo pci = new NvmlLibrary.PciInfo();
    if (nvml.nvmlDeviceGetNvLinkRemotePciInfo_v2(handle, link, pci) != NvmlLibrary.NVML_SUCCESS) {
      return "unknown";
    }
    Integer peer = deviceByBusId.apply(PciBusId.normalize(Native.toString(pci.busId)));
    return peer == null ? "unknown" : String.valueOf(peer);
  }

  /** {tx, rx} KiB per link (-1: not supported), or null when the call is not supported at all. */
  private long[][] traffic(NvmlLibrary nvml, Pointer handle, int device, List<Link> known) {
    if (known.isEmpty() || unsupported.has(device, "fields")) {
      return null;
    }
    int count = known.size() * 2;
    Memory values = new Memory((long) count * NvmlFieldValues.ENTRY_SIZE);
    ByteBuffer entries = values.getByteBuffer(0, values.size());
    for (int i = 0; i < known.size(); i++) {
      int link = known.get(i).index();
      NvmlFieldValues.request(entries, 2 * i, NvmlFieldValues.FI_NVLINK_THROUGHPUT_DATA_TX, link);
      NvmlFieldValues.request(
          entries, 2 * i + 1, NvmlFieldValues.FI_NVLINK_THROUGHPUT_DATA_RX, link);
    }
    int rc = nvml.nvmlDeviceGetFieldValues(handle, count, values);
    if (rc == NvmlLibrary.NVML_ERROR_NOT_SUPPORTED) {
      unsupported.add(device, "fields", "nvmlDeviceGetFieldValues returned 3: not supported");
      return null;
    }
    NvmlDevices.check(nvml, "nvmlDeviceGetFieldValues", rc);
    long[][] out = new long[known.size()][2];
    for (int i = 0; i < known.size(); i++) {
      for (int dir = 0; dir < 2; dir++) {
        OptionalLong v = NvmlFieldValues.count(entries, 2 * i + dir);
        out[i][dir] = v.isPresent() ? v.getAsLong() : -1;
      }
    }
    return out;
  }

  private void error(
      NvmlLibrary nvml,
      Pointer handle,
      int device,
      Link link,
      int counter,
      String kind,
      Map<String, Long> into) {
    String key = "error/" + kind;
    if (unsupported.has(device, key)) {
      return;
    }
    LongByReference value = new LongByReference();
    int rc = nvml.nvmlDeviceGetNvLinkErrorCounter(handle, link.index(), counter, value);
    if (rc == NvmlLibrary.NVML_ERROR_NOT_SUPPORTED) {
      unsupported.add(
          device, key, "nvmlDeviceGetNvLinkErrorCounter(" + kind + ") returned 3: not supported");
      return;
    }
    NvmlDevices.check(nvml, "nvmlDeviceGetNvLinkErrorCounter", rc);
    into.put(kind, value.getValue());
  }

  private Long replays(NvmlLibrary nvml, Pointer handle, int device) {
    if (unsupported.has(device, "pcie_replay")) {
      return null;
    }
    IntByReference value = new IntByReference();
    int rc = nvml.nvmlDeviceGetPcieReplayCounter(handle, value);
    if (rc == NvmlLibrary.NVML_ERROR_NOT_SUPPORTED) {
      unsupported.add(
          device, "pcie_replay", "nvmlDeviceGetPcieReplayCounter returned 3: not supported");
      return null;
    }
    NvmlDevices.check(nvml, "nvmlDeviceGetPcieReplayCounter", rc);
    return Integer.toUnsignedLong(value.getValue());
  }
}
