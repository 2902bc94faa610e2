package io.linkwatch.runtime.cuda;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PCI addresses as sysfs names them ({@code 0000:18:00.0}: a domain of at least four lowercase hex
 * digits). CUDA prints a four-digit uppercase domain, NVML an eight-digit one, so each is brought
 * to this form before comparing or looking up {@code /sys/bus/pci/devices}.
 */
final class PciBusId {
  private static final Pattern ADDRESS =
      Pattern.compile("([0-9a-fA-F]{1,8}):([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\\.([0-7])");

  private PciBusId() {}

  /** The sysfs form, or null when {@code text} is not a PCI address. */
  static String normalize(String text) {
    if (text == null) {
      return null;
    }
    Matcher m = ADDRESS.matcher(text.strip());
    if (!m.matches()) {
      return null;
    }
    long domain = Long.parseLong(m.group(1), 16);
    return String.format(Locale.ROOT, "%04x:%s:%s.%s", domain, m.group(2), m.group(3), m.group(4))
        .toLowerCase(Locale.ROOT);
  }
}
