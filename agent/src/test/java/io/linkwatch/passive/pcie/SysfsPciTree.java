package io.linkwatch.passive.pcie;

import io.linkwatch.host.HostPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a sysfs PCI tree in a temporary directory, as the kernel lays it out: each function's
 * directory nested below its parent's under {@code devices/pciDDDD:BB/}, and a link {@code
 * bus/pci/devices/<address> -> ../../../devices/pci.../<address>}. Built at test time because
 * Maven's resource copying does not keep symbolic links.
 *
 * <pre>
 * HostPaths paths =
 *     SysfsPciTree.builder()
 *         .rootPort("0000:00:01.0").link("32.0 GT/s PCIe", 16).aer()
 *         .bridge("0000:01:00.0").link("32.0 GT/s PCIe", 16)
 *         .device("0000:02:00.0").link("8.0 GT/s PCIe", 8, "32.0 GT/s PCIe", 16)
 *         .aer(AerSeverity.NONFATAL, "CmpltTO", 2)
 *         .build(tempDir);
 * </pre>
 *
 * {@code bridge} and {@code device} add a function below the current one and make it current;
 * {@code at} goes back to an earlier function to start a sibling branch. The two write the same
 * thing (sysfs does not say which is which); they differ only to make a tree readable.
 */
public final class SysfsPciTree {
  // The names current kernels print (aer.c, since 5.x); 4.19 printed longer ones ("Receiver
  // Error"), which PcieSysfsTest covers.
  private static final List<String> CORRECTABLE_NAMES =
      List.of(
          "RxErr",
          "BadTLP",
          "BadDLLP",
          "Rollover",
          "Timeout",
          "NonFatalErr",
          "CorrIntErr",
          "HeaderOF");
  private static final List<String> UNCORRECTABLE_NAMES =
      List.of(
          "Undefined",
          "DLP",
          "SDES",
          "TLP",
          "FCP",
          "CmpltTO",
          "CmpltAbrt",
          "UnxCmplt",
          "RxOF",
          "MalfTLP",
          "ECRC",
          "UnsupReq",
          "ACSViol",
          "UncorrIntErr",
          "BlockedTLP",
          "AtomicOpBlocked",
          "TLPBlockedErr",
          "PoisonTLPBlocked");

  private SysfsPciTree() {}

  public static Builder builder() {
    return new Builder();
  }

  /** The kernel's {@code aer_dev_*} text for these counts, TOTAL line last. */
  public static String aerText(AerSeverity severity, Map<String, Long> counts) {
    StringBuilder text = new StringBuilder();
    long total = 0;
    List<String> names =
        severity == AerSeverity.CORRECTABLE ? CORRECTABLE_NAMES : UNCORRECTABLE_NAMES;
    for (String name : names) {
      long count = counts.getOrDefault(name, 0L);
      text.append(name).append(' ').append(count).append('\n');
      total += count;
    }
    return text.append(severity.totalLine()).append(' ').append(total).append('\n').toString();
  }

  private static final class Function {
    final Path path; // relative to devices/
    final Map<String, String> files = new LinkedHashMap<>();
    final Map<AerSeverity, Map<String, Long>> aer = new EnumMap<>(AerSeverity.class);

    Function(Path path) {
      this.path = path;
    }
  }

  public static final class Builder {
    private final Map<String, Function> functions = new LinkedHashMap<>();
    private Function current;

    /**
     * A function directly below its host bridge ({@code pciDDDD:BB} from its own domain and bus): a
     * root port, or a device with no bridge above it.
     */
    public Builder rootPort(String address) {
      return add(address, Path.of("pci" + address.substring(0, address.lastIndexOf(':'))));
    }

    /** A switch port below the current function. */
    public Builder bridge(String address) {
      return add(address, currentPath());
    }

    /** An endpoint below the current function. */
    public Builder device(String address) {
      return add(address, currentPath());
    }

    /** Makes an earlier function current again, to add a sibling below it. */
    public Builder at(String address) {
      current = functions.get(address);
      if (current == null) {
        throw new IllegalArgumentException("no function " + address + " yet");
      }
      return this;
    }

    /** A link that trained to its maximum. */
    public Builder link(String speed, int width) {
      return link(speed, width, speed, width);
    }

    public Builder link(String speed, int width, String maxSpeed, int maxWidth) {
      return file("current_link_speed", speed + "\n")
          .file("max_link_speed", maxSpeed + "\n")
          .file("current_link_width", width + "\n")
          .file("max_link_width", maxWidth + "\n");
    }

    /** The three AER files, all counts zero: an AER-capable function that saw nothing. */
    public Builder aer() {
      for (AerSeverity severity : AerSeverity.values()) {
        current.aer.computeIfAbsent(severity, s -> new LinkedHashMap<>());
      }
      return this;
    }

    /** The three AER files, with {@code count} on one line of one (and in its TOTAL line). */
    public Builder aer(AerSeverity severity, String name, long count) {
      aer();
      current.aer.get(severity).put(name, count);
      return this;
    }

    /** Any file in the current function's directory, as given. */
    public Builder file(String name, String text) {
      current.files.put(name, text);
      return this;
    }

    /** Writes the tree under {@code dir/sys} and returns paths with that sysfs. */
    public HostPaths build(Path dir) throws IOException {
      Path sys = dir.resolve("sys");
      Path links = Files.createDirectories(sys.resolve("bus/pci/devices"));
      for (Map.Entry<String, Function> entry : functions.entrySet()) {
        Function function = entry.getValue();
        Path fnDir = Files.createDirectories(sys.resolve("devices").resolve(function.path));
        for (Map.Entry<String, String> file : function.files.entrySet()) {
          Files.writeString(fnDir.resolve(file.getKey()), file.getValue());
        }
        for (Map.Entry<AerSeverity, Map<String, Long>> aer : function.aer.entrySet()) {
          Files.writeString(
              fnDir.resolve(aer.getKey().file()), aerText(aer.getKey(), aer.getValue()));
        }
        Files.createSymbolicLink(
            links.resolve(entry.getKey()), Path.of("../../../devices").resolve(function.path));
      }
      return new HostPaths(dir.resolve("proc"), sys);
    }

    private Path currentPath() {
      if (current == null) {
        throw new IllegalStateException("a rootPort first");
      }
      return current.path;
    }

    private Builder add(String address, Path parent) {
      if (functions.containsKey(address)) {
        throw new IllegalArgumentException("function " + address + " twice");
      }
      current = new Function(parent.resolve(address));
      functions.put(address, current);
      return this;
    }
  }
}
