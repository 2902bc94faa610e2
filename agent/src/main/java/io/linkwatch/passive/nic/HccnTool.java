package io.linkwatch.passive.nic;

import io.linkwatch.process.ExternalCommand;
import io.linkwatch.runtime.telemetry.NpuPortReading;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Reads an Ascend NPU's own RoCE port, the one its collectives to other servers take, with {@code
 * hccn_tool -i DEVICE -OPTION -g}: {@link #OPTIONS} in turn, each under its own timeout, one call
 * at a time (the tool answers a second concurrent call with "hccn_tool is busy", and the device
 * channel it talks through is shared), with a clean environment. A port is a {@link NicPort} named
 * {@code npuN port 0}.
 *
 * <p>{@code -i} takes the device's physical id; the reader passes the logical number the agent uses
 * elsewhere, which is the same on a host that hides no device from the agent (the usual case: the
 * agent runs on the host, not inside a job's container).
 *
 * <p>Where the watcher's DCMI read gave the port's counters or address ({@code
 * dcmi_get_netdev_pkt_stats_info}, {@code dcmi_get_device_ip}: public calls, no process per
 * reading), those are taken and {@code -stat} and {@code -ip} are not called; any part DCMI did not
 * give this round is read here as before.
 *
 * <p>A reading the tool says the port cannot give ({@code not supported}) is listed as unsupported;
 * any other failed call fails the device's read and is named ({@code hccn_tool -link}), so no
 * half-read port is published. The read stops at the round's deadline.
 */
public final class HccnTool {
  /** What is read, in this order: the link first, so a dead tool fails fast. */
  public static final List<String> OPTIONS =
      List.of("-link", "-speed", "-link_stat", "-stat", "-optical", "-lldp", "-net_health", "-ip");

  /**
   * The {@code -stat} counters published as port errors, by the {@code kind} label they get (the
   * driver's name less {@code _num}): bad and FCS-failed frames, RoCE errored packets, retries,
   * out-of-order and unexpected acknowledgements, verification and queue-pair state errors. DCMI's
   * struct names three of these its own way ({@code roce_err_ack}, {@code roce_err_psn}, {@code
   * roce_err_qp_status}); they keep those names rather than be mapped on a guess.
   */
  public static final List<String> ERROR_KINDS =
      List.of(
          "mac_rx_bad_pkt",
          "mac_tx_bad_pkt",
          "mac_rx_bad_oct",
          "mac_tx_bad_oct",
          "mac_rx_fcs_err_pkt",
          "roce_rx_err_pkt",
          "roce_tx_err_pkt",
          "roce_unexpected_ack",
          "roce_out_of_order",
          "roce_verification_err",
          "roce_qp_status_err",
          "roce_new_pkt_rty",
          // dcmi_get_netdev_pkt_stats_info's own names, which -stat does not print
          "roce_err_ack",
          "roce_err_psn",
          "roce_err_qp_status");

  /** The tool's path on an Ascend host with the driver installed. */
  public static final Path DEFAULT_PROGRAM = Path.of("/usr/local/Ascend/driver/tools/hccn_tool");

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

  private static final String BUSY = "hccn_tool is busy";
  private static final long BUSY_RETRY_MILLIS = 200;

  /** One call at a time in this process, whichever reader makes it. */
  private static final ReentrantLock ONE_CALL = new ReentrantLock(true);

  /** How reading one device's port ended. */
  public sealed interface Read permits Port, Failed, Absent {}

  /** The port as read. */
  public record Port(NicPort port) implements Read {}

  /**
   * A call that failed; the device's port is not published.
   *
   * @param call the call as the status names it, e.g. {@code hccn_tool -link}; null when the read
   *     was not made because the round's deadline had passed
   * @param timedOut whether it ran out of time (its own timeout, or the round's deadline)
   */
  public record Failed(String call, String reason, boolean timedOut) implements Read, PingRead {}

  /** The tool is not installed: nothing to read, which is no failed read. */
  public record Absent(String reason) implements Read, PingRead {}

  private final Path program;
  private final Duration timeout;
  private final Map<String, String> environment;

  /**
   * @param agentEnvironment the agent's environment, from which the tool gets only {@code PATH},
   *     {@code LD_LIBRARY_PATH} (the driver's libraries) and the simulator's {@code
   *     LINKWATCH_SIM_*} (which the real tool ignores), with {@code LANG=C} so that its words are
   *     the ones parsed
   */
  public HccnTool(Path program, Duration timeout, Map<String, String> agentEnvironment) {
    this.program = program;
    this.timeout = timeout;
    this.environment = cleanEnvironment(agentEnvironment);
  }

  static Map<String, String> cleanEnvironment(Map<String, String> agent) {
    Map<String, String> env = new TreeMap<>();
    agent.forEach(
        (k, v) -> {
          if (k.equals("PATH") || k.equals("LD_LIBRARY_PATH") || k.startsWith("LINKWATCH_SIM_")) {
            env.put(k, v);
          }
        });
    env.putIfAbsent("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("LANG", "C");
    env.put("LC_ALL", "C");
    return env;
  }

  public Path program() {
    return program;
  }

  /** Why nothing can be read here: the tool is not installed; empty when it is. */
  public Optional<String> absent() {
    return Files.isExecutable(program)
        ? Optional.empty()
        : Optional.of(program + " is not installed (or not executable)");
  }

  /** Reads device {@code device}'s port, giving up once {@code deadlineNanos} (nanoTime) passes. */
  public Read read(int device, long deadlineNanos) throws InterruptedException {
    return read(device, deadlineNanos, null);
  }

  /**
   * The same, taking from {@code fromDcmi} (null: nothing) what the public DCMI calls already gave:
   * those options are not called. The link's state, speed, flaps, optics and neighbour have no
   * public call, and the health's may block (see {@link NpuPortReading}): they come from the tool.
   */
  public Read read(int device, long deadlineNanos, NpuPortReading fromDcmi)
      throws InterruptedException {
    Optional<String> absent = absent();
    if (absent.isPresent()) {
      return new Absent(absent.get());
    }
    Map<String, String> printed = new LinkedHashMap<>();
    List<String> unsupported = new ArrayList<>();
    for (String option : OPTIONS) {
      if (givenBy(fromDcmi, option)) {
        continue;
      }
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        // no call failed: the round ran out of time on an earlier device (or call)
        return new Failed(null, "not read: the read round's deadline had passed", true);
      }
      Duration limit =
          timeout.compareTo(Duration.ofNanos(left)) < 0 ? timeout : Duration.ofNanos(left);
      Answer a = call(device, option, limit);
      if (a.failed() != null && a.failed().timedOut() && limit.compareTo(timeout) < 0) {
        // cut short by the round's deadline, not its own timeout: no call to blame
        return new Failed(
            null, "not read: the read round's deadline passed during " + a.failed().call(), true);
      }
      if (a.failed() != null) {
        return a.failed();
      }
      if (a.unsupported()) {
        unsupported.add(option.substring(1));
      } else {
        printed.put(option, a.text());
      }
    }
    return parse(device, printed, unsupported, fromDcmi);
  }

  /** Whether the DCMI reading holds what {@code option} would print. */
  static boolean givenBy(NpuPortReading fromDcmi, String option) {
    if (fromDcmi == null) {
      return false;
    }
    return switch (option) {
      case "-stat" -> fromDcmi.counters() != null;
      case "-ip" -> fromDcmi.address() != null;
      default -> false;
    };
  }

  /** One call's answer: its text, or that the port cannot give it, or how it failed. */
  private record Answer(String text, boolean unsupported, Failed failed) {}

  /**
   * How long a ping may take: the driver's default of three echoes, each waited for about a second,
   * and the tool's start.
   */
  public static final Duration PING_TIMEOUT = Duration.ofSeconds(10);

  /** How a ping from a device's port ended: what it printed, or why it did not run. */
  public sealed interface PingRead permits Pinged, Failed, Absent {}

  /** The echoes as the tool counted them. */
  public record Pinged(HccnToolText.Ping ping) implements PingRead {}

  /**
   * {@code hccn_tool -i DEVICE -ping -g address ADDRESS}: echoes sent by the device from its own
   * port (the host's network stack is not on the path), under the same one-call-at-a-time rule as
   * the reads.
   */
  public PingRead ping(int device, String address) throws InterruptedException {
    Optional<String> absent = absent();
    if (absent.isPresent()) {
      return new Absent(absent.get());
    }
    Answer a = call(device, "-ping", PING_TIMEOUT, "address", address);
    if (a.failed() != null) {
      return a.failed();
    }
    if (a.unsupported()) {
      return new Failed(call("-ping"), "the port cannot ping (not supported)", false);
    }
    return HccnToolText.ping(a.text())
        .<PingRead>map(Pinged::new)
        .orElseGet(
            () ->
                new Failed(
                    call("-ping"),
                    "unexpected answer: "
                        + a.text().strip().lines().reduce((x, y) -> y).orElse("nothing"),
                    false));
  }

  private Answer call(int device, String option, Duration limit, String... arguments)
      throws InterruptedException {
    List<String> argv =
        new ArrayList<>(List.of(program.toString(), "-i", String.valueOf(device), option, "-g"));
    argv.addAll(List.of(arguments));
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      ExternalCommand.Result r;
      // Fair: a reader waiting on the agent's NPU port pings gets the tool at the next turn.
      if (!ONE_CALL.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
        return new Answer(
            null, false, new Failed(call(option), "another call held the tool", true));
      }
      try {
        long left = Math.max(1, deadline - System.nanoTime());
        r = new ExternalCommand(argv, Duration.ofNanos(left), environment).run();
      } catch (ExternalCommand.Failed e) {
        return new Answer(null, false, new Failed(call(option), e.getMessage(), e.timedOut()));
      } finally {
        ONE_CALL.unlock();
      }
      String all = r.stdout() + "\n" + r.stderr();
      if (all.contains(BUSY)
          && deadline - System.nanoTime() > TimeUnit.MILLISECONDS.toNanos(BUSY_RETRY_MILLIS)) {
        // Another program is using the tool (an operator, NPU-Exporter, or this agent's other
        // process: the watcher reads the ports while the agent pings from them): again, shortly,
        // until the call's own time is up.
        Thread.sleep(BUSY_RETRY_MILLIS);
        continue;
      }
      if (r.status() != 0
          && !all.contains(BUSY)
          && option.equals("-ping")
          && HccnToolText.ping(r.stdout()).isPresent()) {
        // A ping that lost its echoes may end with a failing status: its count is the answer.
        return new Answer(r.stdout(), false, null);
      }
      if (r.status() != 0 || all.contains(BUSY)) {
        if (HccnToolText.unsupportedWord(r.firstLine())) {
          return new Answer(null, true, null);
        }
        String line = r.firstLine();
        return new Answer(
            null,
            false,
            new Failed(
                call(option),
                "exit status " + r.status() + (line.isEmpty() ? "" : ": " + line),
                false));
      }
      return new Answer(r.stdout(), false, null);
    }
  }

  private static String call(String option) {
    return "hccn_tool " + option;
  }

  /** The port the answers describe; a {@code -link} answer of another shape fails the read. */
  static Read parse(int device, Map<String, String> printed, List<String> unsupported) {
    return parse(device, printed, unsupported, null);
  }

  /** The same, with what DCMI gave in place of the options it covers. */
  static Read parse(
      int device, Map<String, String> printed, List<String> unsupported, NpuPortReading fromDcmi) {
    String link = printed.getOrDefault("-link", "");
    var up = HccnToolText.linkUp(link);
    if (up.isEmpty()) {
      String first = link.strip().lines().findFirst().orElse("nothing");
      return new Failed(call("-link"), "unexpected answer: " + first, false);
    }
    Map<String, Long> stats =
        givenBy(fromDcmi, "-stat")
            ? fromDcmi.counters()
            : HccnToolText.statistics(printed.getOrDefault("-stat", ""));
    Map<String, Long> errors = new TreeMap<>();
    for (String kind : ERROR_KINDS) {
      Long n = stats.get(kind + "_num");
      if (n != null) {
        errors.put(kind, n);
      }
    }
    Optics optics =
        HccnToolText.optics(printed.getOrDefault("-optical", ""))
            .filter(o -> !o.empty())
            .orElse(null);
    var linkUps = HccnToolText.linkUpCount(printed.getOrDefault("-link_stat", ""));
    return new Port(
        new NicPort(
            "npu" + device,
            0,
            "Ethernet",
            up.get() ? NicPort.ACTIVE : "DOWN",
            null,
            HccnToolText.speedBitsPerSecond(printed.getOrDefault("-speed", "")).orElse(null),
            stats.get("nic_tx_all_oct_num"),
            stats.get("nic_rx_all_oct_num"),
            null,
            errors,
            null,
            device,
            linkUps.isPresent() ? linkUps.getAsLong() : null,
            optics,
            HccnToolText.netHealth(printed.getOrDefault("-net_health", "")).orElse(null),
            HccnToolText.lldpNeighbour(printed.getOrDefault("-lldp", "")).orElse(null),
            givenBy(fromDcmi, "-ip")
                ? fromDcmi.address()
                : HccnToolText.ipAddress(printed.getOrDefault("-ip", "")).orElse(null),
            unsupported));
  }
}
