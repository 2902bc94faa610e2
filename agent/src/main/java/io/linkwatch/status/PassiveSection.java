package io.linkwatch.status;

import io.linkwatch.passive.DeviceState;
import io.linkwatch.passive.LinkState;
import io.linkwatch.passive.PassiveSource;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.passive.PortExpectations;
import io.linkwatch.passive.ReadResult;
import io.linkwatch.passive.nic.NicPort;
import io.linkwatch.passive.pcie.PcieHop;
import io.linkwatch.passive.pcie.PcieRole;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code passive} part of the status: per source and device, the last read's result, the
 * failing call, why a read was skipped, what the product does not support, and each link's state,
 * e.g.
 *
 * <pre>
 * {"source": "dcmi", "device": 0, "result": "timeout", "failed_call": "dcmi_get_device_info",
 *  "error": "timeout in dcmi_get_device_info (device 0) after 10.0 s: ...",
 *  "unsupported": ["dcmi_get_device_info(SIO CRC errors, main 56 sub 0) returned -8255: ..."]}
 * </pre>
 */
public record PassiveSection(
    List<Round> rounds,
    List<Device> devices,
    List<NicEntry> nicPorts,
    List<PortExpectations.PortCount> nicPortCounts) {
  public PassiveSection {
    rounds = rounds == null ? List.of() : List.copyOf(rounds);
    devices = devices == null ? List.of() : List.copyOf(devices);
    nicPorts = nicPorts == null ? List.of() : List.copyOf(nicPorts);
    nicPortCounts = nicPortCounts == null ? List.of() : List.copyOf(nicPortCounts);
  }

  public PassiveSection(List<Round> rounds, List<Device> devices, List<NicEntry> nicPorts) {
    this(rounds, devices, nicPorts, List.of());
  }

  /**
   * One port to other servers (an InfiniBand or RoCE adapter's, or an NPU's own), as last read.
   *
   * @param source the source that read it ({@code infiniband}, {@code hccn_tool})
   * @param device the accelerator it serves, or null when not known
   * @param up whether its logical state is {@code ACTIVE}
   * @param wasUp whether it was up at any read since the agent started
   * @param errors its error counters by the source's name
   * @param linkUps how often its link came up (hccn_tool), or null
   * @param health the NPU's own probe of its detect address (net_health), or null
   * @param optics its optical module's readings in base units, or null
   * @param expectedSpeedBitsPerSecond the speed it should train at ({@code expected_ports}), or
   *     null when no row holds it to one
   */
  public record NicEntry(
      PassiveSource source,
      Integer device,
      String nic,
      int port,
      String linkLayer,
      String state,
      String physState,
      boolean up,
      boolean wasUp,
      Double speedBitsPerSecond,
      Double expectedSpeedBitsPerSecond,
      Long transmitBytes,
      Long receiveBytes,
      Long linkDowned,
      Map<String, Long> errors,
      String netdev,
      Long linkUps,
      String health,
      String lldpSystem,
      String lldpPort,
      String address,
      io.linkwatch.passive.nic.Optics optics,
      List<String> unsupported,
      Instant lastRead) {
    public NicEntry {
      errors = errors == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(errors));
      unsupported = unsupported == null ? List.of() : List.copyOf(unsupported);
    }

    /** {@code mlx5_0 port 1}. */
    public String name() {
      return nic + " port " + port;
    }

    /** The error counters above 0, as the page and findings write them: {@code symbol_error 37}. */
    public List<String> countedErrors() {
      List<String> out = new java.util.ArrayList<>();
      errors.forEach(
          (k, v) -> {
            if (v > 0) {
              out.add(k + " " + v);
            }
          });
      return out;
    }

    /** How findings and job reports name this port: {@code nic mlx5_0 port 1}. */
    public String subject() {
      return "nic " + name();
    }

    static NicEntry of(PassiveStore.NicState s) {
      NicPort p = s.port();
      return new NicEntry(
          s.source(),
          p.device(),
          p.nic(),
          p.port(),
          p.linkLayer(),
          p.state(),
          p.physState(),
          p.up(),
          s.wasUp(),
          p.rateBitsPerSecond(),
          s.expectedSpeedBitsPerSecond(),
          p.transmitBytes(),
          p.receiveBytes(),
          p.linkDowned(),
          p.errors(),
          p.netdev(),
          p.linkUps(),
          p.health(),
          p.neighbour() == null ? null : p.neighbour().system(),
          p.neighbour() == null ? null : p.neighbour().port(),
          p.address(),
          p.optics(),
          p.unsupported(),
          Instant.ofEpochMilli(s.lastReadMillis()));
    }
  }

  /** One read round of a source: when it ended and how long it took. */
  public record Round(PassiveSource source, Instant ended, double durationSeconds) {}

  /**
   * One device as one source last read it.
   *
   * @param lastSuccess null before the first successful read
   * @param failedCall null unless a call failed
   * @param skippedBecause null unless the read was skipped
   */
  public record Device(
      PassiveSource source,
      int device,
      ReadResult result,
      Instant lastRead,
      Instant lastSuccess,
      String error,
      String failedCall,
      String skippedBecause,
      List<String> unsupported,
      String pciAddress,
      List<LinkState> links,
      List<PcieLink> pcie) {
    public Device {
      unsupported = unsupported == null ? List.of() : List.copyOf(unsupported);
      links = links == null ? List.of() : List.copyOf(links);
      pcie = pcie == null ? List.of() : List.copyOf(pcie);
    }

    /** Whether the last read failed or hung. */
    public boolean failed() {
      return result == ReadResult.ERROR || result == ReadResult.TIMEOUT;
    }
  }

  /**
   * One PCIe hop from sysfs, device first; a value sysfs did not give is null.
   *
   * @param speedTransfersPerSecond {@code current_link_speed}, GT/s x 1e9
   * @param width {@code current_link_width}, lanes
   */
  public record PcieLink(
      String pciAddress,
      PcieRole role,
      Double speedTransfersPerSecond,
      Double maxSpeedTransfersPerSecond,
      Integer width,
      Integer maxWidth) {
    static PcieLink of(PcieHop h) {
      return new PcieLink(
          h.pciAddress(),
          h.role(),
          h.speedTransfersPerSecond().isPresent()
              ? h.speedTransfersPerSecond().getAsDouble()
              : null,
          h.maxSpeedTransfersPerSecond().isPresent()
              ? h.maxSpeedTransfersPerSecond().getAsDouble()
              : null,
          h.width().isPresent() ? h.width().getAsInt() : null,
          h.maxWidth().isPresent() ? h.maxWidth().getAsInt() : null);
    }
  }

  /** What {@code store} holds now. */
  public static PassiveSection of(PassiveStore store) {
    List<Device> devices =
        store.states().stream()
            .map(
                (DeviceState d) ->
                    new Device(
                        d.source(),
                        d.device(),
                        d.lastResult(),
                        Instant.ofEpochMilli(d.lastReadMillis()),
                        d.lastSuccessMillis() > 0
                            ? Instant.ofEpochMilli(d.lastSuccessMillis())
                            : null,
                        d.error(),
                        d.failedCall(),
                        d.skippedBecause(),
                        d.unsupported(),
                        d.pciAddress(),
                        d.links(),
                        d.pcie().stream().map(PcieLink::of).toList()))
            .toList();
    List<Round> rounds =
        store.rounds().stream()
            .map(r -> new Round(r.source(), Instant.ofEpochMilli(r.endedMillis()), r.seconds()))
            .toList();
    return new PassiveSection(
        rounds, devices, store.nicPorts().stream().map(NicEntry::of).toList(), store.portCounts());
  }

  /**
   * The readings of {@code devices} only (all when empty): a job's prolog judges the job's devices,
   * not a link of a device the job does not use.
   */
  public PassiveSection onlyDevices(List<Integer> devices) {
    if (devices.isEmpty()) {
      return this;
    }
    return new PassiveSection(
        rounds,
        this.devices.stream().filter(d -> devices.contains(d.device())).toList(),
        nicPorts,
        nicPortCounts);
  }
}
