package io.linkwatch.verdict;

import io.linkwatch.passive.ExpectedPorts;
import io.linkwatch.passive.LinkErrorRates;
import io.linkwatch.passive.LinkState;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.HostCopy;
import io.linkwatch.probe.result.Judged;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.status.FindingEntry;
import io.linkwatch.status.PassiveSection;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.status.TargetEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
   * @param detail the evidence, e.g. {@code 2 of 4 lanes}
   * @param action what to do about it, from the actions table (escalated when the agent saw it come
   *     back often); empty when the table has no row for the code
   */
  public record Finding(
      String code,
      State state,
      String subject,
      String detail,
      String action,
      Scope scope,
      Instant round) {
    public Finding(String code, State state, String subject, String detail) {
      this(code, state, subject, detail, "", Scope.NONE, null);
    }

    public Finding(String code, State state, String subject, String detail, String action) {
      this(code, state, subject, detail, action, Scope.NONE, null);
    }

    /** This finding as one about {@code devices}' {@code subsystem}. */
    Finding about(Subsystem subsystem, Integer... devices) {
      return new Finding(
          code, state, subject, detail, action, new Scope(subsystem, List.of(devices)), round);
    }

    /**
     * This finding as a pattern named from one round's figures, the round that ended at {@code at}:
     * the agent names it once a second round shows it too (or a link counter backs it).
     */
    Finding inRound(Instant at) {
      return new Finding(code, state, subject, detail, action, scope, at);
    }

    /** Whether it names a pattern of one round's figures (a culprit), not a reading or a figure. */
    public boolean pattern() {
      return round != null;
    }

    Finding withAction(State state, String action) {
      return new Finding(code, state, subject, detail, action, scope, round);
    }

    public String line() {
      // The code comes first, so that a first line cut at 80 characters still carries it.
      return subject + ": " + code + " " + detail;
    }
  }

  /**
   * Which devices' which subsystem a finding concerns, for their health ({@code
   * linkwatch_device_health}); {@link #NONE} for a finding about no device (the host, a probe, a
   * network port of the host's).
   *
   * @param subsystem null in {@link #NONE}
   */
  public record Scope(Subsystem subsystem, List<Integer> devices) {
    public static final Scope NONE = new Scope(null, List.of());

    public Scope {
      devices = List.copyOf(devices);
    }
  }

  public static final int MAX_FIRST_LINE = 80;

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
    /**
     * The agent's status as {@code status} reads it: its last figures (a target waiting for an idle
     * device is its normal business), and its standing findings, which confirm a culprit seen in
     * two rounds and escalate what keeps coming back.
     */
    AGENT,
    /**
     * The agent's last figures alone, as its own watch judges them each time: culprits named from
     * one round, for the standing findings to confirm.
     */
    RESULTS,
    /** A check's own run: a device it could not measure leaves the verdict UNKNOWN. */
    CHECK
  }

  /** Judges the agent's status document against {@code expected}, every link expected up. */
  public static Verdict judge(StatusDocument status, List<ExpectedFigure> expected) {
    return judge(status, Expectations.of(expected));
  }

  /** Judges the agent's status document against {@code expected}. */
  public static Verdict judge(StatusDocument status, Expectations expected) {
    return judge(status, expected, Source.AGENT, List.of());
  }

  /**
   * Judges a status document (the agent's, or one a check built of its own runs) against {@code
   * expected}, with {@code more} findings made elsewhere (a check's lock, its time).
   */
  public static Verdict judge(
      StatusDocument status, Expectations expected, Source source, List<Finding> more) {
    return judge(status, expected, source, more, Instant.now());
  }

  /**
   * As {@link #judge(StatusDocument, List, Source, List)}, with each finding from the agent's
   * history saying how old it is, as of {@code now}.
   */
  public static Verdict judge(
      StatusDocument status,
      Expectations expectations,
      Source source,
      List<Finding> more,
      Instant now) {
    Verdict results = ofResults(status, expectations, source, more, now);
    return source == Source.AGENT
        ? results.asStanding(status.findings(), expectations.actions())
        : results;
  }

  /**
   * This verdict of the agent's results as its standing findings have it: a culprit named from one
   * round only, or one they do not hold yet, is unattributed ({@code LW-UNATTRIBUTED}, with what
   * was seen) until a second round or a link counter confirms it; an escalated finding takes its
   * severity and action. What {@code status}, the status page and the agent's journal say.
   */
  public Verdict asStanding(List<FindingEntry> standing, FindingActions actions) {
    List<Finding> out = new ArrayList<>(findings);
    out.replaceAll(f -> f.pattern() && !confirmed(f, standing) ? unattributed(f, actions) : f);
    withActions(out, actions, standing);
    State worst = State.OK;
    for (Finding f : out) {
      if (f.state().compareTo(worst) > 0) {
        worst = f.state();
      }
    }
    String line = worst == State.OK ? summary : worst(out, worst).line() + more(out, worst);
    return new Verdict(worst, out, line, notes);
  }

  /**
   * The findings of a link's own counters or state: what backs a culprit on the same device, in its
   * evidence and in the standing findings (named at once, without a second round).
   */
  public static final java.util.Set<String> LINK_COUNTERS =
      java.util.Set.of("LW-LINK-DOWN", "LW-LINK-LANES", "LW-LINK-ERRORS", "LW-PCIE-WIDTH");

  /** Whether {@code counter} is a link counter's finding on one of {@code culprit}'s devices. */
  static boolean backs(Finding counter, Finding culprit) {
    return LINK_COUNTERS.contains(counter.code())
        && counter.scope().devices().stream().anyMatch(culprit.scope().devices()::contains);
  }

  /**
   * Each culprit's evidence with the link counters of its devices read in the same window: the
   * bandwidth figures and the counters of one link together are the finding.
   */
  private static void backedByCounters(List<Finding> findings) {
    findings.replaceAll(
        f -> {
          if (!Attribution.CODES.contains(f.code())) {
            return f;
          }
          List<Finding> counters = findings.stream().filter(c -> backs(c, f)).toList();
          if (counters.isEmpty()) {
            return f;
          }
          String more = counters.size() > 1 ? " (+" + (counters.size() - 1) + " more)" : "";
          return new Finding(
              f.code(),
              f.state(),
              f.subject(),
              f.detail() + "; backed by " + counters.get(0).line() + more,
              f.action(),
              f.scope(),
              f.round());
        });
  }

  /**
   * Whether the standing findings hold {@code f} as named (they hold an unconfirmed one as such).
   */
  private static boolean confirmed(Finding f, List<FindingEntry> standing) {
    return standing.stream()
        .anyMatch(e -> e.code().equals(f.code()) && e.subject().equals(f.subject()));
  }

  /** What one round showed, not yet named: its severity, and the pattern as its evidence. */
  static Finding unattributed(Finding f, FindingActions actions) {
    return new Finding(
        "LW-UNATTRIBUTED",
        f.state(),
        "pattern: " + f.subject(),
        "one round: " + f.code() + " " + f.detail() + "; named if the next round shows it too",
        actions.of("LW-UNATTRIBUTED").map(FindingAction::action).orElse(""));
  }

  private static Verdict ofResults(
      StatusDocument status,
      Expectations expectations,
      Source source,
      List<Finding> more,
      Instant now) {
    List<ExpectedFigure> expected = expectations.figures();
    List<Finding> findings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Map<Integer, String> names = deviceNames(status);
    Set<String> unknownProducts = new LinkedHashSet<>();
    List<Attribution.Copy> copies = new ArrayList<>();
    List<Attribution.HostCopy> numa = new ArrayList<>();
    int pairs = 0;
    for (TargetEntry t : status.targets()) {
      String probe = t.probe();
      String target = t.target();
      String age = age("measured ", t.lastRun(), now);
      Outcome result = t.result();
      if (result == Outcome.ERROR) {
        findings.add(
            new Finding(
                "LW-PROBE-FAILED",
                State.FAIL,
                probe + " " + target,
                result.label() + ": " + oneLine(t.error()) + age));
        continue;
      }
      if (result == Outcome.TIMEOUT) {
        // A hung call says the node cannot be judged now, not that its links are bad.
        findings.add(
            new Finding(
                "LW-TIMEOUT", State.UNKNOWN, probe + " " + target, oneLine(t.error()) + age));
        continue;
      }
      if (source == Source.CHECK && result != null && result.deferred()) {
        findings.add(
            new Finding("LW-DEVICE-BUSY", State.UNKNOWN, probe + " " + target, oneLine(t.error())));
        continue;
      }
      for (Measurement m : t.measurements()) {
        if (!(m instanceof Judged judged)) {
          continue;
        }
        Judged.Figure j = judged.judged();
        if (Double.isNaN(j.value())) {
          continue;
        }
        if (j.pair()) {
          pairs++;
        }
        String name = names.get(j.device());
        var row = ExpectedFigures.find(expected, name, j.over(), probe, j.sizeBytes());
        if (j.pair() && !j.bothWays()) {
          copies.add(
              new Attribution.Copy(
                  j.device(),
                  j.peer(),
                  j.over(),
                  j.sizeBytes(),
                  j.value(),
                  row.map(ExpectedFigure::fail).orElse(Double.NaN),
                  row.map(r -> r.judge(j.value())).orElse(null),
                  t.lastRun()));
        }
        if (m instanceof HostCopy h && h.memNode().matches("[0-9]+")) {
          numa.add(
              new Attribution.HostCopy(
                  h.device(),
                  Integer.parseInt(h.memNode()),
                  j.over(),
                  j.sizeBytes(),
                  j.value(),
                  row.map(ExpectedFigure::fail).orElse(Double.NaN),
                  row.map(r -> r.judge(j.value())).orElse(null),
                  t.lastRun()));
        }
        if (row.isEmpty()) {
          if (name != null && !ExpectedFigures.knows(expected, name)) {
            unknownProducts.add(name);
          }
          continue;
        }
        ExpectedFigure x = row.get();
        String subject = probe + " " + target + " " + j.detail();
        String value = x.quantity().format(j.value());
        boolean bandwidth = x.quantity() == ExpectedFigure.Quantity.BANDWIDTH;
        switch (x.judge(j.value())) {
          case FAIL ->
              findings.add(
                  ofFigure(
                      probe,
                      j,
                      new Finding(
                          bandwidth ? "LW-BELOW-FLOOR" : "LW-ABOVE-CEILING",
                          State.FAIL,
                          subject,
                          value
                              + (bandwidth ? ", floor " : ", ceiling ")
                              + x.quantity().format(x.fail())
                              + age)));
          case WARN ->
              findings.add(
                  ofFigure(
                      probe,
                      j,
                      new Finding(
                          bandwidth ? "LW-BELOW-EXPECTED" : "LW-ABOVE-EXPECTED",
                          State.WARN,
                          subject,
                          value + ", expected " + x.quantity().format(x.warn()) + age)));
          default -> {}
        }
      }
    }
    // The culprit first, so that the first line names it; the figures it explains stay as its
    // evidence.
    findings.addAll(0, Attribution.numaCulprits(numa));
    findings.addAll(0, Attribution.culprits(copies, pcieGroups(status)));
    Map<InactiveLink, Integer> inactive = new LinkedHashMap<>();
    int links =
        status
            .passiveSection()
            .map(p -> passive(p, findings, now, names, expectations.inactiveLinks(), inactive))
            .orElse(0);
    inactive.forEach(
        (row, count) ->
            notes.add(
                count
                    + (count == 1 ? " link" : " links")
                    + " inactive by design, not judged: "
                    + row.describe()));
    backedByCounters(findings);
    status
        .peerSection()
        .ifPresent(p -> peers(p, status.passiveSection().orElse(null), findings, notes));
    // After the figures' own findings: a hung call explains why no time was left, not the reverse.
    findings.addAll(more);
    for (String product : unknownProducts) {
      notes.add(
          "no expected figures for "
              + product
              + ": judged on link state, probe health and its own alerts only");
    }
    withActions(findings, expectations.actions(), List.of());
    State state = State.OK;
    for (Finding f : findings) {
      if (f.state().compareTo(state) > 0) {
        state = f.state();
      }
    }
    if (findings.isEmpty() && pairs == 0 && links == 0) {
      findings.add(noData("no probe figures or link readings yet", expectations.actions()));
      state = State.UNKNOWN;
    } else if (state == State.OK && names.isEmpty() && topologyScheduled(status)) {
      // Without the device inventory no figure can be matched to its product's row: "OK - 0
      // devices" would say the figures were judged when none was. The first seconds of an agent.
      findings.add(noData("no device inventory yet (topology not run)", expectations.actions()));
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

  /** {@code f} as a finding about a device's own port (an NPU's); else about no device. */
  private static Finding ofPort(PassiveSection.NicEntry n, Finding f) {
    return n.device() == null ? f : f.about(Subsystem.NIC, n.device());
  }

  /** {@code f} as a finding about the devices of a figure of {@code probe}. */
  private static Finding ofFigure(String probe, Judged.Figure j, Finding f) {
    Subsystem subsystem = Subsystem.ofProbe(probe);
    if (subsystem == null || j.device() < 0) {
      return f;
    }
    return j.pair() ? f.about(subsystem, j.device(), j.peer()) : f.about(subsystem, j.device());
  }

  private static Finding noData(String why, FindingActions actions) {
    String action = actions.of("LW-NO-DATA").map(FindingAction::action).orElse("");
    return new Finding("LW-NO-DATA", State.UNKNOWN, "agent", why, action);
  }

  /**
   * Each finding with what to do about it: the agent's standing finding of the same code and
   * subject says (its table is the one the operator configured for it, and it knows how often the
   * finding came back: escalated, it raises the severity too); else the row of {@code actions}.
   */
  private static void withActions(
      List<Finding> findings, FindingActions actions, List<FindingEntry> standing) {
    findings.replaceAll(
        f -> {
          Optional<FindingEntry> entry =
              standing.stream()
                  .filter(e -> e.code().equals(f.code()) && e.subject().equals(f.subject()))
                  .findFirst();
          String action =
              entry
                  .map(FindingEntry::action)
                  .filter(a -> !a.isEmpty())
                  .or(() -> actions.of(f.code()).map(FindingAction::action))
                  .orElse("");
          State state = f.state();
          if (entry.isPresent() && entry.get().escalated()) {
            State to = State.valueOf(entry.get().state());
            state = to.compareTo(state) > 0 ? to : state;
          }
          return f.withAction(state, action);
        });
  }

  /**
   * Whether the agent runs the probe that names the devices (its schedule lists it): the one whose
   * figures are the device inventory.
   */
  private static boolean topologyScheduled(StatusDocument status) {
    return status.nextRuns().keySet().stream()
        .anyMatch(p -> ProbeKind.byId(p).map(ProbeKind::takesInventory).orElse(false));
  }

  /**
   * The probes between servers: this host named by its own evidence is a finding (its side of every
   * path fails: keep it out of multi-node jobs); a peer or switch it names is a note, never this
   * host's fault, so a healthy host is not drained for a neighbour's NIC or another rack's switch.
   */
  private static void peers(
      io.linkwatch.status.PeerSection p,
      PassiveSection passive,
      List<Finding> findings,
      List<String> notes) {
    for (io.linkwatch.status.PeerSection.Suspect s : p.suspects()) {
      if (s.kind().equals("self")) {
        findings.add(
            new Finding(
                "LW-PEER-NIC",
                State.FAIL,
                "network" + (s.nic() == null ? "" : " " + s.nic()),
                s.evidence() + portEvidence(passive, s.nic())));
      } else {
        // A switch every path through which failed is named as it, once, not as its hosts.
        // A peer's interface, where known, says which of its ports: an NPU port's pings name it.
        notes.add(
            (s.kind().equals("tor") ? "switch " : "peer ")
                + s.host()
                + (s.nic() == null || s.nic().isEmpty() ? "" : " (" + s.nic() + ")")
                + ": "
                + s.evidence());
      }
    }
    // A failed two-host run is a note: one pair alone cannot tell its two ends apart (the fleet's
    // alerts name a host when two or more of its pairs fail).
    for (io.linkwatch.status.PairEntry e : p.pairs()) {
      if (Boolean.FALSE.equals(e.ok())) {
        notes.add(
            e.probe()
                + " with "
                + e.dstHost()
                + ": last run "
                + e.result()
                + (e.error().isEmpty() ? "" : " (" + e.error() + ")"));
      }
    }
  }

  /**
   * What the port readers say of the interface this host's probes leave by ({@code ; port nic npu0
   * port 0: up, 400 Gb/s, counters roce_rx_err_pkt 12, switch leaf-3 port Ethernet1/7}), matched by
   * its netdev or adapter name: the counters and the switch port beside the paths' failures are one
   * finding. Empty where no reader knows that interface.
   */
  static String portEvidence(PassiveSection passive, String nic) {
    if (passive == null || nic == null) {
      return "";
    }
    for (PassiveSection.NicEntry n : passive.nicPorts()) {
      if (nic.equals(n.netdev()) || nic.equals(n.nic())) {
        List<String> parts = new ArrayList<>();
        parts.add(n.up() ? "up" : "down (" + n.state() + ")");
        if (n.speedBitsPerSecond() != null) {
          parts.add(ExpectedPorts.formatSpeed(n.speedBitsPerSecond()));
        }
        List<String> counted = n.countedErrors();
        if (!counted.isEmpty()) {
          parts.add("counters " + String.join(", ", counted));
        }
        if (n.lldpSystem() != null) {
          parts.add(
              "switch " + n.lldpSystem() + (n.lldpPort() == null ? "" : " port " + n.lldpPort()));
        }
        return "; port " + n.subject() + ": " + String.join(", ", parts);
      }
    }
    return "";
  }

  /** Link state and read health from the passive section; returns the links seen. */
  /**
   * The findings of the link and port readings; a link that a row of {@code inactiveLinks} covers
   * is counted per row into {@code inactive}, not judged.
   */
  private static int passive(
      PassiveSection p,
      List<Finding> findings,
      Instant now,
      Map<Integer, String> names,
      List<InactiveLink> inactiveLinks,
      Map<InactiveLink, Integer> inactive) {
    int links = 0;
    for (PassiveSection.NicEntry n : p.nicPorts()) {
      links++;
      if (!n.up() && n.wasUp()) {
        // Down now after being up: a port never up since the agent started may be unused by
        // design and is no finding; one that went down takes its server off the fabric.
        findings.add(
            ofPort(
                n,
                new Finding(
                    "LW-NIC-DOWN",
                    State.FAIL,
                    n.subject(),
                    "down ("
                        + n.state()
                        + (n.physState() == null ? "" : ", " + n.physState())
                        + ") after being up"
                        + age("read ", n.lastRead(), now))));
      } else if (n.up()
          && n.expectedSpeedBitsPerSecond() != null
          && n.speedBitsPerSecond() != null
          && n.speedBitsPerSecond() < n.expectedSpeedBitsPerSecond()) {
        // Trained below its speed: the port carries collectives at a fraction of the rate, so
        // every multi-server job through it runs slower, but runs.
        findings.add(
            ofPort(
                n,
                new Finding(
                    "LW-NIC-SLOW",
                    State.WARN,
                    n.subject(),
                    "trained at "
                        + ExpectedPorts.formatSpeed(n.speedBitsPerSecond())
                        + ", expected "
                        + ExpectedPorts.formatSpeed(n.expectedSpeedBitsPerSecond())
                        + age("read ", n.lastRead(), now))));
      }
    }
    for (io.linkwatch.passive.PortExpectations.PortCount c : p.nicPortCounts()) {
      if (c.shortOfCount()) {
        // Fewer rails than the product has: jobs spread over the host's ports lose one of them.
        findings.add(
            new Finding(
                "LW-NIC-PORTS",
                State.FAIL,
                c.reader().id() + " ports",
                c.atSpeed()
                    + " of "
                    + c.count()
                    + " up at "
                    + ExpectedPorts.formatSpeed(c.speedBitsPerSecond())
                    + " or faster ("
                    + c.source()
                    + ")"));
      }
    }
    for (PassiveSection.Device d : p.devices()) {
      String age = age("read ", d.lastRead(), now);
      if (d.failed()) {
        String call = d.failedCall() == null ? "" : d.failedCall();
        findings.add(
            new Finding(
                "LW-READ-FAILED",
                State.UNKNOWN,
                "dev" + d.device() + " " + d.source().id() + " read",
                d.result().label() + (call.isEmpty() ? "" : " in " + call) + age));
      }
      for (LinkState l : d.links()) {
        links++;
        Optional<InactiveLink> byDesign =
            InactiveLink.find(inactiveLinks, names.get(d.device()), l.linkType(), l.link());
        if (byDesign.isPresent()) {
          inactive.merge(byDesign.get(), 1, Integer::sum);
          continue;
        }
        String subject = l.subject(d.device());
        if (Boolean.FALSE.equals(l.up())) {
          findings.add(
              new Finding("LW-LINK-DOWN", State.FAIL, subject, "down" + age)
                  .about(Subsystem.LINKS, d.device()));
        } else if (l.lanes() != null && l.lanesMax() != null && l.lanes() < l.lanesMax()) {
          findings.add(
              new Finding(
                      "LW-LINK-LANES",
                      State.FAIL,
                      subject,
                      l.lanes() + " of " + l.lanesMax() + " lanes" + age)
                  .about(Subsystem.LINKS, d.device()));
        }
        if (l.errorsPerSecond() != null
            && l.errorsPerSecond() > LinkErrorRates.THRESHOLD_PER_SECOND) {
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
                              l.errorsPerSecond(),
                              LinkErrorRates.threshold())
                          + age)
                  .about(Subsystem.LINKS, d.device()));
        }
      }
    }
    findings.addAll(PcieWidth.findings(p, now));
    return links;
  }

  /**
   * The devices under each PCIe switch port and root port the watcher read, by address, the hops
   * nearest the devices first; empty without PCIe readings.
   */
  private static Map<String, Set<Integer>> pcieGroups(StatusDocument status) {
    Map<String, Set<Integer>> groups = new LinkedHashMap<>();
    status
        .passiveSection()
        .ifPresent(
            p ->
                p.devices()
                    .forEach(
                        d ->
                            d.pcie().stream()
                                .filter(h -> h.role() != io.linkwatch.passive.pcie.PcieRole.DEVICE)
                                .forEach(
                                    h ->
                                        groups
                                            .computeIfAbsent(
                                                h.pciAddress(), a -> new java.util.TreeSet<>())
                                            .add(d.device()))));
    return groups;
  }

  /** Each device's product name, from the inventory's figures. */
  private static Map<Integer, String> deviceNames(StatusDocument status) {
    Map<Integer, String> names = new HashMap<>();
    for (TargetEntry.Figure f : status.figures()) {
      if (f.measurement() instanceof DeviceInfo d) {
        names.put(d.device(), d.name());
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
  static String age(String what, Instant at, Instant now) {
    if (at == null) {
      return "";
    }
    long s = Math.max(0, java.time.Duration.between(at, now).toSeconds());
    return " (" + what + ago(s) + " ago)";
  }

  private static String oneLine(String s) {
    String line = (s == null ? "" : s).lines().findFirst().orElse("");
    return line.length() > 120 ? line.substring(0, 119) + "…" : line;
  }
}
