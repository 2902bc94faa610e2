package io.linkwatch.peer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NPU ports' addresses as {@code /etc/hccn.conf} gives them: {@code address_N=IP} for the
 * device whose physical id is N, the file the driver's tools configure the ports from and HCCL's
 * rank tables are written from. Its other lines ({@code netmask_N}, {@code netdetect_N}, {@code
 * gateway_N}, {@code send_arp_status_N}) and comments are not needed here.
 */
public final class HccnConf {
  private static final Pattern ADDRESS =
      Pattern.compile("^\\s*address_(\\d{1,4})\\s*=\\s*(\\d{1,3}(?:\\.\\d{1,3}){3})\\s*$");

  private HccnConf() {}

  /** The path where the driver's tools keep it. */
  public static final Path DEFAULT = Path.of("/etc/hccn.conf");

  /**
   * Each device's port address, by device.
   *
   * @throws java.nio.file.NoSuchFileException where the file does not exist (a host without the
   *     driver's network configuration)
   */
  public static SortedMap<Integer, String> read(Path file) throws IOException {
    return parse(Files.readString(file));
  }

  /** The addresses in {@code text}; a line of another shape is passed over. */
  static SortedMap<Integer, String> parse(String text) {
    SortedMap<Integer, String> out = new TreeMap<>();
    for (String line : text.lines().toList()) {
      Matcher m = ADDRESS.matcher(line);
      if (m.matches()) {
        out.put(Integer.parseInt(m.group(1)), m.group(2));
      }
    }
    return Collections.unmodifiableSortedMap(out);
  }
}
