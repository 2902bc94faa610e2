package io.linkwatch.passive.nic;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code hccn_tool -i N -OPTION -g} prints, read into values: pure functions from the text to
 * records, so each is tested on real outputs. Every reader tolerates the driver versions seen in
 * the field: {@code [devid 0]} and {@code [device 0]} line prefixes, {@code Socket failed} and
 * {@code Socket fail}, {@code NA} and {@code not supported} for a reading the port cannot give.
 * Text of another shape gives an empty result, never a made-up value.
 */
public final class HccnToolText {
  private HccnToolText() {}

  /**
   * What {@code -ping -g address IP} printed.
   *
   * @param sent echoes sent, as the summary line counts them
   * @param received echoes answered
   * @param rttSeconds the round trip of each answered echo, in the order printed
   */
  public record Ping(int sent, int received, List<Double> rttSeconds) {
    public Ping {
      rttSeconds = List.copyOf(rttSeconds);
    }
  }

  private static final Pattern PING_SUMMARY =
      Pattern.compile(
          "(?im)^\\s*(\\d{1,9})\\s+packets?\\s+transmitted,\\s*(\\d{1,9})\\s+received\\b");
  private static final Pattern PING_REPLY =
      Pattern.compile(
          "(?im)^\\s*recv\\s+seq\\s*=\\s*\\d+\\s*,\\s*time\\s*=\\s*([0-9]+(?:\\.[0-9]+)?)\\s*ms");

  /**
   * {@code -ping}'s answer: {@code device 0 PING 10.10.100.10}, a line per echo ({@code recv
   * seq=0,time=0.067000ms} or {@code recv time out seq=1}), then {@code 3 packets transmitted, 2
   * received, 33.33% packet loss}. Empty without the summary line (a tool that stopped early, or
   * another shape), whatever echoes were printed: an unfinished ping is no measurement.
   */
  public static Optional<Ping> ping(String text) {
    Matcher summary = PING_SUMMARY.matcher(text);
    if (!summary.find()) {
      return Optional.empty();
    }
    int sent = Integer.parseInt(summary.group(1));
    int received = Integer.parseInt(summary.group(2));
    if (received > sent) {
      return Optional.empty();
    }
    List<Double> rtts = new ArrayList<>();
    Matcher reply = PING_REPLY.matcher(text);
    while (reply.find()) {
      rtts.add(Double.parseDouble(reply.group(1)) / 1e3);
    }
    return Optional.of(new Ping(sent, received, rtts));
  }

  /** {@code link status: UP}: true for UP, false for DOWN; empty for anything else. */
  public static Optional<Boolean> linkUp(String text) {
    Matcher m = Pattern.compile("(?im)^\\s*link status\\s*:\\s*(\\S+)\\s*$").matcher(text);
    if (!m.find()) {
      return Optional.empty();
    }
    String s = m.group(1).toUpperCase(Locale.ROOT);
    return s.equals("UP")
        ? Optional.of(true)
        : s.equals("DOWN") ? Optional.of(false) : Optional.empty();
  }

  /**
   * {@code Speed: 100000 Mb/s} as bits per second; empty for {@code Speed: Unknown!} (a port that
   * is down has no speed) or any other text.
   */
  public static Optional<Double> speedBitsPerSecond(String text) {
    Matcher m = Pattern.compile("(?im)^\\s*speed\\s*:\\s*([0-9]+)\\s*Mb/s\\s*$").matcher(text);
    return m.find() ? Optional.of(Long.parseLong(m.group(1)) * 1e6) : Optional.empty();
  }

  /**
   * The {@code link up count} of {@code -link_stat}: {@code [device 0]link up count : 2}, or with
   * an older driver {@code [devid 0]link up count : 2}.
   */
  public static OptionalLong linkUpCount(String text) {
    Matcher m =
        Pattern.compile(
                "(?im)^\\s*(?:\\[dev(?:ice|id)\\s*\\d+\\])?\\s*link up count\\s*:\\s*(\\d+)")
            .matcher(text);
    return m.find() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
  }

  /**
   * The {@code key:value} lines of {@code -stat} after {@code packet statistics:}, e.g. {@code
   * roce_rx_err_pkt_num:0}, in the order printed. A line whose value is not a whole number is left
   * out (a driver that cannot count one says so in words).
   */
  public static Map<String, Long> statistics(String text) {
    Map<String, Long> out = new LinkedHashMap<>();
    Pattern line = Pattern.compile("^\\s*([A-Za-z0-9_]+)\\s*:\\s*([0-9]+)\\s*$");
    for (String l : text.split("\\R")) {
      Matcher m = line.matcher(l);
      if (m.matches()) {
        try {
          out.put(m.group(1), Long.parseUnsignedLong(m.group(2)));
        } catch (NumberFormatException e) {
          // wider than 64 bits: not a counter this model carries
        }
      }
    }
    return out;
  }

  /** {@code net health status: Success}, as printed; null-free: empty when absent. */
  public static Optional<String> netHealth(String text) {
    Matcher m = Pattern.compile("(?im)^\\s*net health status\\s*:\\s*(.+?)\\s*$").matcher(text);
    return m.find() ? Optional.of(NetHealth.canonical(m.group(1))) : Optional.empty();
  }

  /**
   * {@code ipaddr:192.161.200.10}; empty when the port has no address (the tool prints nothing).
   */
  public static Optional<String> ipAddress(String text) {
    Matcher m = Pattern.compile("(?im)^\\s*ipaddr\\s*:\\s*(\\S+)\\s*$").matcher(text);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /**
   * The switch and switch port of {@code -lldp}: the {@code Ifname:} line after {@code Port ID
   * TLV}, and the line after {@code System Name TLV}. Empty when neither is there (no LLDP
   * neighbour, or a switch that sends no LLDP).
   */
  public static Optional<NicPort.Neighbour> lldpNeighbour(String text) {
    List<String> lines = text.lines().map(String::strip).toList();
    String port = null;
    String system = null;
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (l.startsWith("Port ID TLV")) {
        for (int j = i + 1; j < lines.size() && !lines.get(j).endsWith("TLV"); j++) {
          if (lines.get(j).startsWith("Ifname:")) {
            port = blankToNull(lines.get(j).substring("Ifname:".length()).strip());
            break;
          }
        }
      } else if (l.startsWith("System Name TLV") && i + 1 < lines.size()) {
        system = blankToNull(lines.get(i + 1));
      }
    }
    return port == null && system == null
        ? Optional.empty()
        : Optional.of(new NicPort.Neighbour(system, port));
  }

  private static final Pattern OPTICAL_LINE = Pattern.compile("^\\s*([^:]+?)\\s*:\\s*(.*?)\\s*$");
  private static final Pattern POWER =
      Pattern.compile("(?i)^(tx|rx)\\s*power\\s*(?:lane)?\\s*(\\d+)\\s*(\\(dbm\\))?$");
  private static final Pattern BIAS = Pattern.compile("(?i)^tx\\s*bias\\s*(?:lane)?\\s*(\\d+)$");
  private static final Pattern SNR = Pattern.compile("(?i)^(host|media)\\s*snr\\s*lane\\s*(\\d+)$");
  private static final Pattern NUMBER =
      Pattern.compile("^(-?[0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)$");

  /**
   * The {@code key : value unit} lines of {@code -optical} after {@code optical info:}: temperature
   * ({@code 47 C}), Vcc ({@code 3262.90 mV}), {@code Tx Power0..3} and {@code Rx Power0..3} ({@code
   * mW}, or {@code TxPower Lane0(dBm)} on newer modules), {@code Tx Bias0..3} ({@code mA}), {@code
   * Host SNR Lane0..3} and {@code Media SNR Lane0..3} ({@code dB}). The module's own thresholds,
   * identity and flag lines are not readings and are left out. Empty when the text has no reading.
   */
  public static Optional<Optics> optics(String text) {
    String present = null;
    Double temperature = null;
    Double vcc = null;
    SortedMap<Integer, Double> tx = new TreeMap<>();
    SortedMap<Integer, Double> rx = new TreeMap<>();
    SortedMap<Integer, Double> bias = new TreeMap<>();
    SortedMap<Integer, Double> hostSnr = new TreeMap<>();
    SortedMap<Integer, Double> mediaSnr = new TreeMap<>();
    List<String> unsupported = new ArrayList<>();
    boolean any = false;
    for (String l : text.split("\\R")) {
      Matcher line = OPTICAL_LINE.matcher(l);
      if (!line.matches()) {
        continue;
      }
      String key = line.group(1).replaceAll("\\s+", " ");
      String value = line.group(2);
      if (key.equalsIgnoreCase("present")) {
        present = blankToNull(value);
        continue;
      }
      Matcher power = POWER.matcher(key);
      Matcher b = BIAS.matcher(key);
      Matcher snr = SNR.matcher(key);
      boolean reading =
          key.equalsIgnoreCase("temperature")
              || key.equalsIgnoreCase("Vcc")
              || power.matches()
              || b.matches()
              || snr.matches();
      if (!reading) {
        continue;
      }
      any = true;
      Optional<Double> v = number(value);
      if (v.isEmpty()) {
        if (unsupportedWord(value)) {
          unsupported.add(key);
        }
        continue;
      }
      double x = v.get();
      String unit = unit(value);
      if (key.equalsIgnoreCase("temperature")) {
        temperature = x;
      } else if (key.equalsIgnoreCase("Vcc")) {
        vcc = unit.equalsIgnoreCase("mV") ? x / 1e3 : x;
      } else if (power.matches()) {
        boolean dbm = power.group(3) != null || unit.equalsIgnoreCase("dBm");
        double watts = dbm ? Math.pow(10, x / 10) / 1e3 : x / 1e3;
        (power.group(1).equalsIgnoreCase("tx") ? tx : rx)
            .put(Integer.parseInt(power.group(2)), watts);
      } else if (b.matches()) {
        bias.put(Integer.parseInt(b.group(1)), x / 1e3);
      } else {
        (snr.group(1).equalsIgnoreCase("host") ? hostSnr : mediaSnr)
            .put(Integer.parseInt(snr.group(2)), x);
      }
    }
    return any
        ? Optional.of(
            new Optics(present, temperature, vcc, tx, rx, bias, hostSnr, mediaSnr, unsupported))
        : Optional.empty();
  }

  /** Whether the tool said of a reading or a whole command that the port cannot give it. */
  public static boolean unsupportedWord(String text) {
    String s = text.strip().toLowerCase(Locale.ROOT);
    return s.equals("na")
        || s.equals("n/a")
        || s.contains("not support")
        || s.contains("unsupport");
  }

  private static Optional<Double> number(String value) {
    Matcher m = NUMBER.matcher(value.strip());
    return m.matches() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty();
  }

  private static String unit(String value) {
    Matcher m = NUMBER.matcher(value.strip());
    return m.matches() ? m.group(2) : "";
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
