package io.linkwatch.host;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code /proc/<pid>/maps}. A line such as
 *
 * <pre>
 * 7f3a40000000-7f3a41000000 rw-p 00000000 00:00 0          /dev/shm/my file
 * </pre>
 *
 * becomes {@code MapsRange[start=0x7f3a40000000, end=0x7f3a41000000, perms=rw-p, path=/dev/shm/my
 * file]}. The path is everything after the inode: maps does not escape spaces in it.
 */
public final class ProcMaps {
  private ProcMaps() {}

  /**
   * @throws IllegalArgumentException for a line that is not a maps line
   */
  public static List<MapsRange> parse(String text) {
    List<MapsRange> ranges = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isBlank()) {
        ranges.add(parseLine(line));
      }
    }
    return List.copyOf(ranges);
  }

  static MapsRange parseLine(String line) {
    // Fields: range perms offset dev inode [path]; split the first five, keep the rest whole.
    String[] fields = line.strip().split("\\s+", 6);
    int dash = fields[0].indexOf('-');
    if (fields.length < 5 || dash < 0) {
      throw new IllegalArgumentException("not a /proc/pid/maps line: '" + line + "'");
    }
    try {
      long start = Long.parseUnsignedLong(fields[0].substring(0, dash), 16);
      long end = Long.parseUnsignedLong(fields[0].substring(dash + 1), 16);
      return new MapsRange(start, end, fields[1], fields.length == 6 ? fields[5].strip() : "");
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a /proc/pid/maps line: '" + line + "'", e);
    }
  }
}
