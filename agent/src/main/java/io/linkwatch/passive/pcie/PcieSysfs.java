package io.linkwatch.passive.pcie;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of the sysfs PCIe link and AER files, parsed without I/O:
 *
 * <pre>
 * parseSpeed("16.0 GT/s PCIe\n")  -> 1.6E10      parseSpeed("Unknown\n") -> empty
 * parseWidth("8\n")               -> 8
 * parseAer("Receiver Error 2\nBad TLP 0\n...\nTOTAL_ERR_COR 2\n")
 *                                 -> {Receiver Error=2, Bad TLP=0, ..., TOTAL_ERR_COR=2}
 * </pre>
 *
 * Text that is not in the expected form is an empty answer, never an exception: one odd file must
 * not cost the other values of a read.
 */
public final class PcieSysfs {
  // Current kernels print "16.0 GT/s PCIe" (pci_speed_string()); before 4.19 pci-sysfs.c printed
  // "2.5 GT/s", "5 GT/s", "8 GT/s". Both start with the rate and "GT/s", which is all we need. The
  // unit is checked so that a file in some other form is not read as a rate off by 1e9.
  private static final Pattern SPEED = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*GT/s(?:\\s.*)?");
  // Counts are u64 in the kernel; more than 18 digits would not fit a long, and a wrapped value
  // would be a wrong count rather than a missing one.
  private static final Pattern COUNT = Pattern.compile("\\d{1,18}");
  private static final Pattern WIDTH = Pattern.compile("\\d{1,9}");

  private PcieSysfs() {}

  /**
   * A link speed in transfers per second, from {@code current_link_speed} or {@code
   * max_link_speed}; empty for {@code "Unknown"}, {@code "Unknown speed"} (the link is down or the
   * device is in D3cold), blank or malformed text.
   */
  public static OptionalDouble parseSpeed(String text) {
    Matcher m = SPEED.matcher(text.strip());
    if (!m.matches()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Double.parseDouble(m.group(1)) * 1e9);
  }

  /**
   * A lane count from {@code current_link_width} or {@code max_link_width} ({@code "%u\n"}). Zero
   * is kept: a link that trained to no lanes is worth an alert, not a gap.
   */
  public static OptionalInt parseWidth(String text) {
    String trimmed = text.strip();
    if (!WIDTH.matcher(trimmed).matches()) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(Integer.parseInt(trimmed));
  }

  /**
   * The counters of an {@code aer_dev_*} file, one {@code "<name> <count>"} per line, in file
   * order. The names contain spaces ({@code "Receiver Error"}), so the count is the last token and
   * the name the rest. Blank lines, lines without a name and lines whose count is not a
   * non-negative decimal that fits a {@code long} are skipped.
   */
  public static Map<String, Long> parseAer(String text) {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      String trimmed = line.strip();
      int space = lastWhitespace(trimmed);
      if (space < 0) {
        continue; // blank, or a lone token such as the number in aer_rootport_total_err_cor
      }
      String name = trimmed.substring(0, space).strip();
      String count = trimmed.substring(space + 1);
      if (COUNT.matcher(count).matches()) {
        counts.put(name, Long.parseLong(count));
      }
    }
    return counts;
  }

  /**
   * The total of one {@code aer_dev_*} file: its {@code TOTAL_ERR_*} line, or the sum of the other
   * lines when the file has none; empty when the text has no counter at all or the sum overflows.
   *
   * <p>The TOTAL line counts error reports and the named lines count status bits, so they can
   * differ (one report may set two bits). Every kernel that has these files writes a TOTAL line;
   * the sum serves a file that lacks it (a vendor kernel, a hand-written fixture), where it is the
   * closest figure the file offers and still rises exactly when errors arrive, which is what the
   * alert on {@code increase()} needs.
   */
  public static OptionalLong aerTotal(Map<String, Long> counts, AerSeverity severity) {
    Long total = counts.get(severity.totalLine());
    if (total != null) {
      return OptionalLong.of(total);
    }
    if (counts.isEmpty()) {
      return OptionalLong.empty();
    }
    long sum = 0;
    try {
      for (long count : counts.values()) {
        sum = Math.addExact(sum, count);
      }
    } catch (ArithmeticException e) {
      return OptionalLong.empty(); // no sum to give, and a wrapped one would be a sentinel
    }
    return OptionalLong.of(sum);
  }

  private static int lastWhitespace(String s) {
    for (int i = s.length() - 1; i >= 0; i--) {
      if (Character.isWhitespace(s.charAt(i))) {
        return i;
      }
    }
    return -1;
  }
}
