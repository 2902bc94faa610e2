package io.linkwatch.probe;

/**
 * Reads logical device ids from config files and the command line, the same way everywhere, and
 * names the target of a per-device run ({@code dev0}), for every probe that has one.
 */
public final class DeviceIds {
  private DeviceIds() {}

  /**
   * Reads one device id, e.g. {@code 3}.
   *
   * @throws IllegalArgumentException with a message that says what is wrong
   */
  public static int parse(String text) {
    String t = text == null ? "" : text.strip();
    int id;
    try {
      id = Integer.parseInt(t);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a device id (use e.g. 0)");
    }
    if (id < 0) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a device id: it must not be negative");
    }
    return id;
  }

  /** The target name of a per-device probe's run on {@code device}: {@code dev0}. */
  public static String target(int device) {
    return "dev" + device;
  }
}
