package io.linkwatch.verdict;

import static io.linkwatch.verdict.JsonFields.array;
import static io.linkwatch.verdict.JsonFields.isNumber;
import static io.linkwatch.verdict.JsonFields.string;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.linkwatch.passive.LinkErrorRates;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A node's link verdict from what the agent last knew ({@code /api/v1/status}): no device work, so
 * a health-check program may ask at any time. FAIL when a link is down or downtrained (passive
 * reads), a probe target failed, or a figure is under its product's floor; WARN in the warning
 * band; UNKNOWN when the agent has nothing to judge by or its reads fail; else OK.
 *
 * <pre>
 * FAIL - dev0 HCCS link 3 (to 3): LW-LINK-LANES 2 of 4 lanes
 * OK - 2 devices, 2 p2p pairs, 2 links: as expected for Ascend910_9382
 * </pre>
 */
public record Verdict(State state, List<Finding> findings, String summary, List<String> notes) {
  /** The verdict's states, worst last. */
  public enum State {
    OK,
    WARN,
    UNKNOWN,
    FAIL
  }

  /**
   * One thing found: a stable code per kind of failure, what it concerns, and why.
   *
   * @param code e.g. {@code LW-LINK-LANES}
   * @param subject e.g. {@code dev0 HCCS link 3 (to 3)}
   * @param detail e.g. {@code 2 of 4 lanes}
   */
  public record Finding(String code, State state, String subject, String detail) {
    public String line() {
      // The code comes first, so that a first line cut at 80 characters still carries it.
      return subject + ": " + code + " " + detail;
    }
  }

  public static final int MAX_FIRST_LINE = 80;

  /**
   * The version of the status document's shape that the agent writes first in it and that this
   * judges; raised when a field is renamed or removed (added fields keep it). Documents without the
   * field carried their measurements with camelCase fields ({@code bytesPerSecond}); 2: every field
   * snake_case, as {@code probe --json} writes them ({@code bytes_per_second}).
   */
  public static final int STATUS_SCHEMA_VERSION = 2;

  public Verdict {
    findings = List.copyOf(findings);
    notes = List.copyOf(notes);
  }

  /** The verdict when the agent could not be asked at all. */
  public static Verdict unreachable(String url, String why) {
    Finding f = new Finding("LW-NO-AGENT", State.UNKNOWN, "agent at " + url, why);
    return new Verdict(State.UNKNOWN, List.of(f), f.line(), List.of());
  }

  /** Whose figures are judged: what a device busy with other work means differs. */
  public enum Source {
    /** The agent's last figures: a target waiting for an idle device is its normal business. */
    AGENT,
    /** A check's own run: a device it could not measure leaves the verdict UNKNOWN. */
    CHECK
  }

  /** Judges the agent's status document against {@code expected}. */
  public static Verdict judge(JsonObject status, List<ExpectedFigure> expected) {
    return judge(status, expected, Source.AGENT, List.of());
  }

  /**
   * Judges a status document (the agent's, or one a check built of its own runs in the same shape)
   * against {@code expected}, with {@code more} findings made elsewhere (a check's lock, its time).
   */
  public static Verdict judge(
      JsonObject status, List<ExpectedFigure> expected, Source source, List<Finding> more) {
    return judge(status, expected, source, more, java.time.Instant.now());
  }

  /**
   * As {@link #judge(JsonObject, List, Source, List)}, with each finding from the agent's history
   * saying how old it is, as of {@code now}.
   */
  public static Verdict judge(
      JsonObject status,
      List<ExpectedFigure> expected,
      Source source,
      List<Finding> more,
      java.time.Instant now) {
    List<Finding> findings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Map<Integer, String> names = deviceNames(status);
    Set<String> unknownProducts = new LinkedHashSet<>();
    int pairs = 0;
    for (JsonElement e : array(status, "targets")) {
      JsonObject t = e.getAsJsonObject();
      String probe = string(t, "probe");
      String target = string(t, "target");
      String result = string(t, "result");
      String age = age(t, "last_run", now);
      if (result.equals("error")) {
        findings.add(
            new Finding(
                "LW-PROBE-FAILED",
                State.FAIL,
                probe + " " + target,
                result + ": " + oneLine(string(t, "error")) + age));
        continue;
      }
      if (result.equals("timeout")) {
        // A hung call says the node cannot be judged now, not that its links are bad.
        findings.add(
            new Finding(
                "LW-TIMEOUT",
                State.UNKNOWN,
                probe + " " + target,
                oneLine(string(t, "error")) + age));
        continue;
      }
      if (source == Source.CHECK
          && (result.equals("skipped_device_busy") || result.equals("discarded_device_busy"))) {
        findings.add(
            new Finding(
                "LW-DEVICE-BUSY",
                State.UNKNOWN,
                probe + " " + target,
                oneLine(string(t, "error"))));
        continue;
      }
      for (JsonElement m : array(t, "measurements")) {
        Optional<Judged> judged = Judged.of(m.getAsJsonObject(), probe, target);
        if (judged.isEmpty()) {
          continue;
        }
        Judged j = judged.get();
        if (j.pair()) {
          pairs++;
        }
        String name = names.get(j.device());
        var row = ExpectedFigures.find(expected, name, j.link(), probe, j.sizeBytes());
        if (row.isEmpty()) {
          if (name != null && !ExpectedFigures.knows(expected, name)) {
            unknownProducts.add(name);
          }
          continue;
        }
        ExpectedFigure x = row.get();
        String value = x.quantity().format(j.value());
        switch (x.judge(j.value())) {
          case FAIL ->
              findings.add(
                  new Finding(
                      x.quantity() == ExpectedFigure.Quantity.BANDWIDTH
                          ? "LW-BELOW-FLOOR"
                          : "LW-ABOVE-CEILING",
                      State.FAIL,
                      j.subject(),
                      value
                          + (x.quantity() == ExpectedFigure.Quantity.BANDWIDTH
                              ? ", floor "
                              : ", ceiling ")
                          + x.quantity().format(x.fail())
                          + age));
          case WARN ->
              findings.add(
                  new Finding(
                      x.quantity() == ExpectedFigure.Quantity.BANDWIDTH
                          ? "LW-BELOW-EXPECTED"
                          : "LW-ABOVE-EXPECTED",
                      State.WARN,
                      j.subject(),
                      value + ", expected " + x.quantity().format(x.warn()) + age));
          default -> {}
        }
      }
    }
    int links = passive(status, findings, now);
    // After the figures' own findings: a hung call explains why no time was left, not the reverse.
    findings.addAll(more);
    for (String product : unknownProducts) {
      notes.add(
          "no expected figures for "
              + product
              + ": judged on link state, probe health and its own alerts only");
    }
    State state = State.OK;
    for (Finding f : findings) {
      if (f.state().compareTo(state) > 0) {
        state = f.state();
      }
    }
    if (findings.isEmpty() && pairs == 0 && links == 0) {
      Finding f =
          new Finding(
              "LW-NO-DATA", State.UNKNOWN, "agent", "no probe figures or link readings yet");
      findings.add(f);
      state = State.UNKNOWN;
    } else if (state == State.OK && names.isEmpty() && topologyScheduled(status)) {
      // Without the device inventory no figure can be matched to its product's row: "OK - 0
      // devices" would say the figures were judged when none was. The first seconds of an agent.
      findings.add(
          new Finding(
              "LW-NO-DATA", State.UNKNOWN, "agent", "no device inventory yet (topology not run)"));
      state = State.UNKNOWN;
    }
    String summary =
        state == State.OK
            ? String.format(
                Locale.ROOT,
                "%d devices, %d p2p figures, %d links: %s",
                names.size(),
                pairs,
                links,
                unknownProducts.isEmpty() ? "as expected" : "no expected figures")
            : worst(findings, state).line() + more(findings, state);
    return new Verdict(state, findings, summary, notes);
  }

  /**
   * One figure the expected table can judge: the device whose product names the row, what it was
   * measured over, its size, its value and how a finding names it.
   *
   * @param pair whether it is a device pair's copy (counted as a p2p figure)
   */
  private record Judged(
      int device, String link, long sizeBytes, double value, String subject, boolean pair) {
    static Optional<Judged> of(JsonObject fig, String probe, String target) {
      String type = string(fig, "type");
      long size = isNumber(fig, "size_bytes") ? fig.get("size_bytes").getAsLong() : -1;
      String mib = size >= 0 && size % (1 << 20) == 0 ? size / (1 << 20) + "MiB" : size + "B";
      switch (type) {
        case "P2pBandwidth", "P2pBidirectionalBandwidth" -> {
          if (!isNumber(fig, "bytes_per_second")) {
            return Optional.empty();
          }
          String link = string(fig, "link");
          int src = fig.get(type.equals("P2pBandwidth") ? "src" : "a").getAsInt();
          return Optional.of(
              new Judged(
                  src,
                  link,
                  size,
                  fig.get("bytes_per_second").getAsDouble(),
                  probe + " " + target + " " + link + " " + mib,
                  true));
        }
        case "HostTransferBandwidth" -> {
          if (!isNumber(fig, "bytes_per_second")) {
            return Optional.empty();
          }
          String link = string(fig, "memory") + " " + string(fig, "direction");
          return Optional.of(
              new Judged(
                  fig.get("device").getAsInt(),
                  link,
                  size,
                  fig.get("bytes_per_second").getAsDouble(),
                  probe + " " + target + " " + link + " " + mib,
                  false));
        }
        case "AllreduceLatency" -> {
          String[] devices = string(fig, "devices").split(",");
          if (!isNumber(fig, "p50_seconds") || devices[0].isBlank()) {
            return Optional.empty();
          }
          String kib = size % 1024 == 0 ? size / 1024 + "KiB" : size + "B";
          return Optional.of(
              new Judged(
                  Integer.parseInt(devices[0].strip()),
                  devices.length + " ranks",
                  size,
                  fig.get("p50_seconds").getAsDouble(),
                  probe + " " + target + " " + kib + " p50",
                  false));
        }
        default -> {
          return Optional.empty();
        }
      }
    }
  }

  /** Whether the agent runs the topology probe (its schedule lists it), which names the devices. */
  private static boolean topologyScheduled(JsonObject status) {
    JsonElement next = status.get("next_runs");
    return next != null && next.isJsonObject() && next.getAsJsonObject().has("topology");
  }

  /** Link state and read health from the passive section; returns the links seen. */
  private static int passive(JsonObject status, List<Finding> findings, java.time.Instant now) {
    JsonElement p = status.get("passive");
    if (p == null || !p.isJsonObject()) {
      return 0;
    }
    int links = 0;
    for (JsonElement e : array(p.getAsJsonObject(), "devices")) {
      JsonObject d = e.getAsJsonObject();
      String source = string(d, "source");
      String result = string(d, "result");
      String age = age(d, "last_read", now);
      if (result.equals("error") || result.equals("timeout")) {
        String call = string(d, "failed_call");
        findings.add(
            new Finding(
                "LW-READ-FAILED",
                State.UNKNOWN,
                "dev" + d.get("device").getAsInt() + " " + source + " read",
                result + (call.isEmpty() ? "" : " in " + call) + age));
      }
      for (JsonElement le : array(d, "links")) {
        JsonObject l = le.getAsJsonObject();
        links++;
        String subject =
            "dev"
                + d.get("device").getAsInt()
                + " "
                + string(l, "link_type")
                + " link "
                + string(l, "link")
                + " (to "
                + string(l, "peer")
                + ")";
        if (l.has("up") && !l.get("up").isJsonNull() && !l.get("up").getAsBoolean()) {
          findings.add(new Finding("LW-LINK-DOWN", State.FAIL, subject, "down" + age));
        } else if (isNumber(l, "lanes")
            && isNumber(l, "lanes_max")
            && l.get("lanes").getAsInt() < l.get("lanes_max").getAsInt()) {
          findings.add(
              new Finding(
                  "LW-LINK-LANES",
                  State.FAIL,
                  subject,
                  l.get("lanes").getAsInt()
                      + " of "
                      + l.get("lanes_max").getAsInt()
                      + " lanes"
                      + age));
        }
        if (isNumber(l, "errors_per_second")
            && l.get("errors_per_second").getAsDouble() > LinkErrorRates.THRESHOLD_PER_SECOND) {
          // As the alert rule LinkwatchLinkErrorRate counts them: a cable, connector or retimer
          // going bad costs bandwidth first and precedes downtraining or a link down.
          findings.add(
              new Finding(
                  "LW-LINK-ERRORS",
                  State.WARN,
                  subject,
                  String.format(
                          Locale.ROOT,
                          "%.1f errors/s, threshold %s/s",
                          l.get("errors_per_second").getAsDouble(),
                          LinkErrorRates.threshold())
                      + age));
        }
      }
    }
    return links;
  }

  private static Map<Integer, String> deviceNames(JsonObject status) {
    Map<Integer, String> names = new HashMap<>();
    for (JsonElement e : array(status, "targets")) {
      for (JsonElement m : array(e.getAsJsonObject(), "measurements")) {
        JsonObject fig = m.getAsJsonObject();
        if ("DeviceInfo".equals(string(fig, "type"))) {
          names.put(fig.get("device").getAsInt(), string(fig, "name"));
        }
      }
    }
    return names;
  }

  private static Finding worst(List<Finding> findings, State state) {
    return findings.stream().filter(f -> f.state() == state).findFirst().orElseThrow();
  }

  private static String more(List<Finding> findings, State state) {
    long others = findings.stream().filter(f -> f.state() == state).count() - 1;
    return others > 0 ? " (+" + others + " more)" : "";
  }

  /** {@code OK - <summary>}, at most 80 characters. */
  public String firstLine(String stateWord) {
    String line = stateWord + " - " + summary;
    return line.length() <= MAX_FIRST_LINE ? line : line.substring(0, MAX_FIRST_LINE - 1) + "…";
  }

  /** An age as a person reads it at a glance: {@code 40s}, {@code 5m}, {@code 3h}. */
  public static String ago(long seconds) {
    return seconds < 120
        ? seconds + "s"
        : seconds < 7200 ? seconds / 60 + "m" : seconds / 3600 + "h";
  }

  /**
   * How old the agent's reading is, e.g. {@code (read 40s ago)}: a verdict from a state the agent
   * last saw an hour ago says so. Empty when the document has no such time (a check's own run).
   */
  static String age(JsonObject o, String key, java.time.Instant now) {
    String at = string(o, key);
    if (at.isEmpty()) {
      return "";
    }
    try {
      long s =
          Math.max(0, java.time.Duration.between(java.time.Instant.parse(at), now).toSeconds());
      return " (" + (key.equals("last_read") ? "read " : "measured ") + ago(s) + " ago)";
    } catch (java.time.format.DateTimeParseException e) {
      return "";
    }
  }

  private static String oneLine(String s) {
    String line = s.lines().findFirst().orElse("");
    return line.length() > 120 ? line.substring(0, 119) + "…" : line;
  }
}
