package io.linkwatch.passive.nic;

import java.util.List;
import java.util.Locale;

/**
 * The states of an NPU's own network health probe ({@code hccn_tool -net_health -g}, {@code
 * dcmi_get_device_network_health}): the device pings its {@code netdetect} address and says how
 * that went. The names are the driver's ({@code tool_ops.c}); an older driver printed {@code Socket
 * failed} for {@code Socket fail}. Success and Init count as healthy, as Huawei's exporter counts
 * them: Init is a port whose detect address has not been answered yet.
 */
public final class NetHealth {
  /** Every state, in the driver's order (its codes 0 to 9). */
  public static final List<String> STATES =
      List.of(
          "Success",
          "Socket fail",
          "Receive timeout",
          "Unreachable",
          "Time exceeded",
          "Fault",
          "Init",
          "Thread error",
          "Detect ip set",
          "Unknown");

  private NetHealth() {}

  /** The driver's spelling of {@code printed}; a state no driver prints is kept as printed. */
  public static String canonical(String printed) {
    String p = printed.strip();
    if (p.equalsIgnoreCase("Socket failed")) {
      return "Socket fail";
    }
    for (String s : STATES) {
      if (s.equalsIgnoreCase(p)) {
        return s;
      }
    }
    return p;
  }

  public static boolean healthy(String state) {
    return "Success".equals(state) || "Init".equals(state);
  }

  /** {@code Socket fail} as {@code socket_fail}: the {@code state} label of the state set. */
  public static String label(String state) {
    return state.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
  }
}
