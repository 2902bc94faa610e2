package io.linkwatch.runtime.ascend;

import static io.linkwatch.runtime.telemetry.DcmiLinkStructs.*;

import com.sun.jna.Memory;
import com.sun.jna.ptr.IntByReference;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.LinkTelemetry;
import io.linkwatch.runtime.LinkType;
import io.linkwatch.runtime.UnsupportedReadings;
import io.linkwatch.runtime.telemetry.DcmiLinkStructs;
import io.linkwatch.runtime.telemetry.DcmiLinkStructs.HccsCounters;
import io.linkwatch.runtime.telemetry.DcmiLinkStructs.HccsPort;
import io.linkwatch.runtime.telemetry.DcmiPortStructs;
import io.linkwatch.runtime.telemetry.DeviceLinks;
import io.linkwatch.runtime.telemetry.LinkReading;
import io.linkwatch.runtime.telemetry.NpuPortReading;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HCCS and SIO link counters through {@code dcmi_get_device_info}: HCCS lane info (main 16, sub 1)
 * for each port's state and lanes, the 64-bit statistics (sub 5) or, where the driver lacks them,
 * the 32-bit ones (sub 3) for traffic in 20-byte flits, CRC errors and retries, and SIO's CRC error
 * counts (main 56, sub 0). A command the product does not support (-8255, -8002, -8013) is noted
 * once and not asked again; any other failure fails the read and names the command.
 *
 * <p>No DCMI call maps an HCCS port to the device at its other end. Where a device has as many HCCS
 * ports as HCCS peers in the topology, the k-th port is labelled with the k-th peer in ascending
 * order (the order of the PCS indices on a full-mesh 910B board; unverified on hardware); otherwise
 * the peer is {@code unknown}.
 */
final class DcmiLinkTelemetry implements LinkTelemetry {
  private static final Logger log = LoggerFactory.getLogger(DcmiLinkTelemetry.class);

  /**
   * Bytes per counted unit of HCCS traffic: the driver's {@code HCCS_SINGLE_PACKETS_BYTES} (20),
   * which it uses to turn its HCCS bandwidth counts into bytes.
   */
  static final long HCCS_FLIT_BYTES = 20;

  private final DcmiCards cards;
  private final BiFunction<Integer, List<LinkType>, List<Integer>> peers;

  private final UnsupportedReadings unsupported = new UnsupportedReadings();

  private final Map<Integer, String> pciAddresses = new HashMap<>();
  private final Map<Integer, Memory> buffers = new HashMap<>();

  /**
   * @param peers the runtime devices a device reaches over any of the given link types, ascending
   */
  DcmiLinkTelemetry(DcmiCards cards, BiFunction<Integer, List<LinkType>, List<Integer>> peers) {
    this.cards = cards;
    this.peers = peers;
  }

  @Override
  public String source() {
    return "dcmi";
  }

  @Override
  public DeviceLinks read(int device) {
    return read(device, false);
  }

  @Override
  public synchronized DeviceLinks read(int device, boolean npuPort) {
    List<LinkReading> links = new ArrayList<>();
    String pci = null;
    try {
      int[] card = cards.card(device);
      pci = pciAddress(device, card);
      links.addAll(hccs(device));
      links.addAll(sio(device));
      NpuPortReading port = npuPort ? npuPort(device) : null;
      return new DeviceLinks(
          device, source(), pci, links, null, unsupported.of(device), null, null, port);
    } catch (DeviceException e) {
      return new DeviceLinks(
          device, source(), pci, links, null, unsupported.of(device), e.getMessage(), e.function());
    }
  }

  /**
   * The device's own RoCE port through the public calls, each part null where its call is not
   * supported (remembered) or failed this time: the hccn_tool reader reads those parts itself, so a
   * failing part never fails the links' read. Null when no part answered.
   */
  private NpuPortReading npuPort(int device) {
    Map<String, Long> counters =
        portCall(
            device,
            "dcmi_get_netdev_pkt_stats_info",
            card -> {
              Memory buf = buffer(DcmiPortStructs.PKT_STATS_SIZE);
              buf.clear(DcmiPortStructs.PKT_STATS_SIZE);
              int rc = cards.dcmi().dcmi_get_netdev_pkt_stats_info(card[0], card[1], 0, buf);
              return new PortAnswer<>(
                  rc,
                  rc == 0
                      ? DcmiPortStructs.parsePktStats(bytes(buf, DcmiPortStructs.PKT_STATS_SIZE))
                      : null);
            });
    String address =
        portCall(
            device,
            "dcmi_get_device_ip",
            card -> {
              Memory ip = new Memory(DcmiPortStructs.IP_ADDR_SIZE);
              Memory mask = new Memory(DcmiPortStructs.IP_ADDR_SIZE);
              ip.clear(DcmiPortStructs.IP_ADDR_SIZE);
              int rc =
                  cards
                      .dcmi()
                      .dcmi_get_device_ip(card[0], card[1], DcmiPortStructs.ROCE_PORT, 0, ip, mask);
              return new PortAnswer<>(
                  rc,
                  rc == 0
                      ? DcmiPortStructs.parseIpAddress(bytes(ip, DcmiPortStructs.IP_ADDR_SIZE))
                      : null);
            });
    NpuPortReading reading = new NpuPortReading(counters, address);
    return reading.empty() ? null : reading;
  }

  /** A port call's return code and what it read. */
  private record PortAnswer<T>(int rc, T value) {}

  private <T> T portCall(
      int device, String function, java.util.function.Function<int[], PortAnswer<T>> call) {
    if (unsupported.has(device, function)) {
      return null;
    }
    PortAnswer<T> a;
    try {
      a = call.apply(cards.card(device));
    } catch (UnsatisfiedLinkError e) {
      // a libdcmi from before the call: as unsupported, for good
      unsupported.add(device, function, function + ": not in this driver's libdcmi");
      return null;
    }
    if (a.rc() != 0 && DcmiCards.permanent(a.rc())) {
      unsupported.add(
          device, function, function + " returned " + a.rc() + ": " + DcmiCards.explain(a.rc()));
      return null;
    }
    if (a.rc() != 0) {
      log.debug(
          "device {}: {} returned {}: {}; hccn_tool reads it this round",
          device,
          function,
          a.rc(),
          DcmiCards.explain(a.rc()));
      return null;
    }
    return a.value();
  }

  private String pciAddress(int device, int[] card) {
    String known = pciAddresses.get(device);
    if (known != null || unsupported.has(device, "pcie_info")) {
      return known;
    }
    Memory info = buffer(PCIE_INFO_SIZE);
    int rc = cards.dcmi().dcmi_get_device_pcie_info_v2(card[0], card[1], info);
    if (rc != 0) {
      // Only the PCIe hops from sysfs depend on it: never a reason to fail the link read.
      unsupported.add(
          device,
          "pcie_info",
          "dcmi_get_device_pcie_info_v2 returned " + rc + ": " + DcmiCards.explain(rc));
      return null;
    }
    String address = DcmiLinkStructs.parsePcieAddress(bytes(info, PCIE_INFO_SIZE));
    pciAddresses.put(device, address);
    return address;
  }

  private List<LinkReading> hccs(int device) {
    Optional<ByteBuffer> lanesRaw =
        get(device, MAIN_HCCS, SUB_HCCS_LANES, LANES_SIZE, "HCCS lanes");
    int bits = 64;
    Optional<ByteBuffer> statsRaw =
        get(device, MAIN_HCCS, SUB_HCCS_STATS_U64, STATS_U64_SIZE, "HCCS statistics u64");
    List<HccsCounters> counters = statsRaw.map(DcmiLinkStructs::parseStatisticsU64).orElse(null);
    if (counters == null) {
      bits = 32;
      counters =
          get(device, MAIN_HCCS, SUB_HCCS_STATS, STATS_SIZE, "HCCS statistics")
              .map(DcmiLinkStructs::parseStatistics)
              .orElse(null);
    }
    List<HccsPort> ports = lanesRaw.map(DcmiLinkStructs::parseLanes).orElse(null);
    if (ports == null && counters == null) {
      return List.of();
    }
    List<Integer> pcsIndices = new ArrayList<>();
    if (ports != null) {
      ports.forEach(p -> pcsIndices.add(p.pcs()));
    } else {
      // No lane info: the ports that ever carried anything.
      counters.stream()
          .filter(c -> c.tx() != 0 || c.rx() != 0 || c.crc() != 0 || c.retry() != 0)
          .forEach(c -> pcsIndices.add(c.pcs()));
    }
    List<Integer> hccsPeers = peers.apply(device, List.of(LinkType.HCCS, LinkType.HCCS_SW));
    List<LinkReading> out = new ArrayList<>();
    for (int i = 0; i < pcsIndices.size(); i++) {
      int pcs = pcsIndices.get(i);
      String peer =
          hccsPeers.size() == pcsIndices.size() ? String.valueOf(hccsPeers.get(i)) : "unknown";
      HccsPort port = ports == null ? null : ports.get(i);
      HccsCounters c = counters == null || pcs >= counters.size() ? null : counters.get(pcs);
      out.add(
          new LinkReading(
              String.valueOf(pcs),
              LinkType.HCCS.label(),
              peer,
              port == null ? null : port.up(),
              port == null ? null : port.lanesInUse(),
              port == null ? null : HCCS_LANES_MAX,
              bits,
              HCCS_FLIT_BYTES,
              c == null ? null : c.tx(),
              c == null ? null : c.rx(),
              c == null ? Map.of() : Map.of("crc", c.crc(), "retry", c.retry())));
    }
    return out;
  }

  private List<LinkReading> sio(int device) {
    List<Integer> sioPeers = peers.apply(device, List.of(LinkType.SIO));
    if (sioPeers.isEmpty()) {
      return List.of(); // no die-to-die link on this product: nothing to ask
    }
    return get(device, MAIN_SIO, SUB_SIO_CRC, SIO_SIZE, "SIO CRC errors")
        .map(
            raw -> {
              long[] crc = DcmiLinkStructs.parseSioCrc(raw);
              return List.of(
                  new LinkReading(
                      "0",
                      LinkType.SIO.label(),
                      String.valueOf(sioPeers.get(0)),
                      null,
                      null,
                      null,
                      16,
                      1,
                      null,
                      null,
                      Map.of("crc_tx", crc[0], "crc_rx", crc[1])));
            })
        .orElse(List.of());
  }

  /**
   * The struct of one command, or empty when the product does not support it (remembered: not asked
   * again in this process). Other failures throw, naming the command.
   */
  private Optional<ByteBuffer> get(int device, int main, int sub, int size, String what) {
    String key = main + "/" + sub;
    if (unsupported.has(device, key)) {
      return Optional.empty();
    }
    // Noted again before each call: the topology look-ups in between note other devices.
    int[] card = cards.card(device);
    Memory buf = buffer(size);
    buf.clear(size);
    IntByReference inOut = new IntByReference(size);
    int rc = cards.dcmi().dcmi_get_device_info(card[0], card[1], main, sub, buf, inOut);
    if (rc != 0 && DcmiCards.permanent(rc)) {
      unsupported.add(
          device,
          key,
          "dcmi_get_device_info("
              + what
              + ", main "
              + main
              + " sub "
              + sub
              + ") returned "
              + rc
              + ": "
              + DcmiCards.explain(rc));
      return Optional.empty();
    }
    if (rc != 0) {
      throw new DeviceException(
          "dcmi_get_device_info",
          rc,
          DcmiCards.explain(rc) + " (" + what + ", main " + main + " sub " + sub + ")");
    }
    return Optional.of(bytes(buf, size));
  }

  private Memory buffer(int size) {
    return buffers.computeIfAbsent(size, Memory::new);
  }

  private static ByteBuffer bytes(Memory m, int size) {
    return m.getByteBuffer(0, size);
  }
}
