package io.linkwatch.passive.nic;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The ports of every InfiniBand and RoCE adapter, from {@code /sys/class/infiniband/NIC/ports/N/}:
 * {@code state}, {@code phys_state}, {@code rate}, {@code link_layer}, the standard {@code
 * counters/} and the driver's {@code hw_counters/} (RoCE retransmits, sequence and timeout errors).
 * Plain file reads, no device call: a host without adapters reads as none.
 *
 * <p>What sysfs gives that is not plain: the data counters count 4-octet words; the error counters
 * of the standard set are 8 or 16 bits wide and stop at their maximum; a counter an adapter cannot
 * read says {@code N/A (no PMA)} and some drivers have no {@code counters/} at all (both are left
 * out, never published as a sentinel); a state reads {@code 4: ACTIVE}, a rate {@code 100 Gb/sec
 * (4X EDR)}.
 */
public final class InfinibandSysfs {
  /**
   * The error counters read, by where they are: the standard port counters and the drivers' RoCE
   * counters (mlx5's names). Traffic and packet counts are not errors and are not listed.
   */
  static final List<String> PORT_ERRORS =
      List.of(
          "symbol_error",
          "link_error_recovery",
          "local_link_integrity_errors",
          "excessive_buffer_overrun_errors",
          "port_rcv_errors",
          "port_rcv_remote_physical_errors",
          "port_rcv_switch_relay_errors",
          "port_rcv_constraint_errors",
          "port_xmit_constraint_errors",
          "port_xmit_discards",
          "VL15_dropped");

  static final List<String> ROCE_ERRORS =
      List.of(
          "out_of_sequence",
          "packet_seq_err",
          "local_ack_timeout_err",
          "rnr_nak_retry_err",
          "implied_nak_seq_err",
          "duplicate_request",
          "req_cqe_error",
          "resp_cqe_error",
          "req_remote_access_errors",
          "req_remote_invalid_request",
          "resp_local_length_error",
          "resp_remote_access_errors",
          "roce_adp_retrans",
          "roce_slow_restart");

  private static final Pattern STATE = Pattern.compile("^\\s*\\d+\\s*:\\s*(\\S+)\\s*$");
  private static final Pattern RATE =
      Pattern.compile("^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*Gb/sec", Pattern.CASE_INSENSITIVE);

  private final Path sysfs;
  private final Path root;

  /**
   * @param sysfs where sysfs is mounted ({@code /sys}, or the host's inside a container)
   */
  public InfinibandSysfs(Path sysfs) {
    this.sysfs = sysfs;
    this.root = sysfs.resolve("class").resolve("infiniband");
  }

  /**
   * Every port, each labelled with the accelerator its adapter serves: the nearest on the PCIe tree
   * ({@link AdapterAffinity}) of {@code accelerators} (device to PCI address, as the vendor library
   * gave it). An adapter near none keeps no device.
   */
  public List<NicPort> read(Map<Integer, String> accelerators) throws IOException {
    List<NicPort> ports = read();
    if (accelerators.isEmpty() || ports.isEmpty()) {
      return ports;
    }
    Map<Integer, List<String>> devicePaths = new TreeMap<>();
    accelerators.forEach(
        (d, address) -> {
          List<String> p = AdapterAffinity.path(sysfs, address);
          if (!p.isEmpty()) {
            devicePaths.put(d, p);
          }
        });
    Map<String, List<String>> adapterPaths = new TreeMap<>();
    for (NicPort p : ports) {
      adapterPaths.computeIfAbsent(
          p.nic(),
          nic -> pciAddress(nic).map(a -> AdapterAffinity.path(sysfs, a)).orElse(List.of()));
    }
    adapterPaths.values().removeIf(List::isEmpty);
    Map<String, Integer> served = AdapterAffinity.nearest(devicePaths, adapterPaths);
    return ports.stream().map(p -> p.withDevice(served.get(p.nic()))).toList();
  }

  /** The adapter's PCI address: the name its {@code device} link points to. */
  Optional<String> pciAddress(String nic) {
    try {
      Path target = Files.readSymbolicLink(root.resolve(nic).resolve("device"));
      return Optional.of(target.getFileName().toString());
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }

  /** Every port of every adapter, by adapter name and port number. */
  public List<NicPort> read() throws IOException {
    List<NicPort> ports = new ArrayList<>();
    for (Path nic : list(root)) {
      for (Path port : list(nic.resolve("ports"))) {
        Optional<Integer> number = number(port.getFileName().toString());
        if (number.isPresent()) {
          ports.add(port(nic.getFileName().toString(), number.get(), port));
        }
      }
    }
    ports.sort(Comparator.comparing(NicPort::nic).thenComparingInt(NicPort::port));
    return ports;
  }

  private static NicPort port(String nic, int number, Path dir) {
    Map<String, Long> errors = new TreeMap<>();
    PORT_ERRORS.forEach(
        k -> counter(dir.resolve("counters").resolve(k)).ifPresent(v -> errors.put(k, v)));
    ROCE_ERRORS.forEach(
        k -> counter(dir.resolve("hw_counters").resolve(k)).ifPresent(v -> errors.put(k, v)));
    return new NicPort(
        nic,
        number,
        text(dir.resolve("link_layer")).orElse(null),
        text(dir.resolve("state")).map(InfinibandSysfs::state).orElse(null),
        text(dir.resolve("phys_state")).map(InfinibandSysfs::state).orElse(null),
        text(dir.resolve("rate")).flatMap(InfinibandSysfs::rate).orElse(null),
        counter(dir.resolve("counters").resolve("port_xmit_data")).map(w -> w * 4).orElse(null),
        counter(dir.resolve("counters").resolve("port_rcv_data")).map(w -> w * 4).orElse(null),
        counter(dir.resolve("counters").resolve("link_downed")).orElse(null),
        errors,
        text(dir.resolve("gid_attrs").resolve("ndevs").resolve("0")).orElse(null));
  }

  /** {@code 4: ACTIVE} as {@code ACTIVE}; a text of another form as it is. */
  static String state(String text) {
    Matcher m = STATE.matcher(text);
    return m.matches() ? m.group(1) : text.strip();
  }

  /** {@code 100 Gb/sec (4X EDR)} as 100e9 bits per second. */
  static Optional<Double> rate(String text) {
    Matcher m = RATE.matcher(text);
    return m.find() ? Optional.of(Double.parseDouble(m.group(1)) * 1e9) : Optional.empty();
  }

  /** A counter's value; empty when the file is missing, unreadable or not a number. */
  private static Optional<Long> counter(Path file) {
    return text(file)
        .filter(t -> t.matches("\\d+"))
        .flatMap(
            t -> {
              try {
                return Optional.of(Long.parseUnsignedLong(t));
              } catch (NumberFormatException e) {
                return Optional.empty(); // wider than 64 bits: not a counter we can carry
              }
            });
  }

  private static Optional<String> text(Path file) {
    try {
      String s = Files.readString(file).strip();
      return s.isEmpty() ? Optional.empty() : Optional.of(s);
    } catch (IOException | java.io.UncheckedIOException e) {
      return Optional.empty();
    }
  }

  private static Optional<Integer> number(String name) {
    return name.matches("\\d{1,4}") ? Optional.of(Integer.parseInt(name)) : Optional.empty();
  }

  private static List<Path> list(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }
}
