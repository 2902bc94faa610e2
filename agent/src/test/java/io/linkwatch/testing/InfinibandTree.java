package io.linkwatch.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * A writable {@code /sys/class/infiniband} tree of an HGX-style host: adapters {@code mlx5_0} ...
 * each with one InfiniBand port at 400 Gb/s NDR, active, with the standard counters, except the
 * last adapter, whose driver has no {@code counters/} directory (as some do). The files are written
 * as the kernel writes them ({@code 4: ACTIVE}, {@code 400 Gb/sec (4X NDR)}), and a test changes
 * them while an agent reads the tree: a port taken down, trained slower, or counting errors.
 */
public final class InfinibandTree {
  private final Path root;

  private InfinibandTree(Path root) {
    this.root = root;
  }

  /**
   * As {@link #hgx(Path, int)}, on a PCIe tree as an HGX board wires it: adapter {@code mlx5_i} and
   * the GPU at {@code gpus.get(i)} under one PCIe switch, each switch under a root port of its own
   * ({@code bus/pci/devices} links into {@code devices/pci0000:BB/...}, as the kernel makes them).
   * A GPU at bus {@code b} gets the root port at bus {@code b-3}, the switch at {@code b-2} and
   * {@code b-1}, and its adapter bus {@code b+1}.
   */
  public static InfinibandTree hgx(Path sysfs, List<String> gpus) throws IOException {
    InfinibandTree tree = hgx(sysfs, gpus.size());
    Path byAddress = Files.createDirectories(sysfs.resolve("bus/pci/devices"));
    for (int i = 0; i < gpus.size(); i++) {
      int bus = Integer.parseInt(gpus.get(i).substring(5, 7), 16);
      String root = String.format("0000:%02x:01.0", bus - 3);
      String up = String.format("0000:%02x:00.0", bus - 2);
      String gpu = String.format("0000:%02x:00.0", bus);
      String hca = String.format("0000:%02x:00.0", bus + 1);
      Path sw = Path.of("devices", String.format("pci0000:%02x", bus - 3), root, up);
      Path gpuDir = sw.resolve(String.format("0000:%02x:00.0", bus - 1)).resolve(gpu);
      Path hcaDir = sw.resolve(String.format("0000:%02x:01.0", bus - 1)).resolve(hca);
      for (Path dir : List.of(gpuDir, hcaDir)) {
        Files.createDirectories(sysfs.resolve(dir));
        Files.createSymbolicLink(
            byAddress.resolve(dir.getFileName().toString()), Path.of("../../..").resolve(dir));
      }
      Files.createSymbolicLink(
          tree.root.resolve("mlx5_" + i).resolve("device"), Path.of("../../..", hca));
    }
    return tree;
  }

  /** {@code adapters} adapters under {@code sysfs/class/infiniband}. */
  public static InfinibandTree hgx(Path sysfs, int adapters) throws IOException {
    InfinibandTree tree = new InfinibandTree(sysfs.resolve("class").resolve("infiniband"));
    for (int i = 0; i < adapters; i++) {
      String nic = "mlx5_" + i;
      Path port = tree.port(nic);
      Files.createDirectories(port);
      Files.writeString(tree.root.resolve(nic).resolve("hca_type"), "MT4129\n");
      Files.writeString(port.resolve("link_layer"), "InfiniBand\n");
      tree.write(port.resolve("state"), "4: ACTIVE");
      tree.write(port.resolve("phys_state"), "5: LinkUp");
      tree.write(port.resolve("rate"), "400 Gb/sec (4X NDR)");
      if (i < adapters - 1) {
        for (String counter :
            new String[] {
              "port_xmit_data",
              "port_rcv_data",
              "link_downed",
              "symbol_error",
              "port_rcv_errors",
              "link_error_recovery",
              "local_link_integrity_errors",
              "excessive_buffer_overrun_errors"
            }) {
          tree.counter(nic, counter, 0);
        }
      }
    }
    return tree;
  }

  private Path port(String nic) {
    return root.resolve(nic).resolve("ports").resolve("1");
  }

  /** Replaces a file whole, so a reader never sees it half written. */
  private void write(Path file, String line) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, line + "\n");
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  public void counter(String nic, String name, long value) throws IOException {
    Path counters = Files.createDirectories(port(nic).resolve("counters"));
    write(counters.resolve(name), String.valueOf(value));
  }

  /** The port as a pulled cable leaves it. */
  public void down(String nic) throws IOException {
    write(port(nic).resolve("state"), "1: DOWN");
    write(port(nic).resolve("phys_state"), "3: Disabled");
  }

  public void up(String nic) throws IOException {
    write(port(nic).resolve("state"), "4: ACTIVE");
    write(port(nic).resolve("phys_state"), "5: LinkUp");
  }

  public void rate(String nic, String rate) throws IOException {
    write(port(nic).resolve("rate"), rate);
  }
}
