package io.linkwatch.status;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the agent knows, as one typed value: every target's last run and figures, the devices' busy
 * state, the schedule, the passive link readings and the kubelet lookup. The agent builds it for
 * {@code /api/v1/status}, the status page and its own verdict; {@code linkwatch check} builds one
 * of its own runs; {@link StatusCodec} is its only JSON spelling, and everything else reads it as
 * types.
 *
 * @param devices the busy check's devices; empty in a check's document
 * @param nextRuns the next run of each scheduled probe; empty in a check's document
 * @param notApplicable probes that do not apply to this host, with why
 * @param toleratedFailures per probe, the failures its last run was allowed
 * @param passive the link readings; null when no passive source runs
 * @param podResources the kubelet's last lookup; null when none is configured
 * @param findings what the agent's own verdict finds now, as of its last judgement (a few seconds
 *     after new results); empty in a check's document, whose verdict is its output
 * @param probeDeviceSeconds the seconds the agent's probes have held each device since it started
 *     (what linkwatch took from the devices); empty in a check's document
 * @param peers the probes between servers; null when no {@code peers:} source is configured
 */
public record StatusDocument(
    int schemaVersion,
    List<TargetEntry> targets,
    List<DeviceEntry> devices,
    Map<String, Instant> nextRuns,
    Map<String, String> notApplicable,
    Map<String, List<String>> toleratedFailures,
    PassiveSection passive,
    PodLookupEntry podResources,
    List<FindingEntry> findings,
    Map<Integer, Double> probeDeviceSeconds,
    PeerSection peers) {

  /**
   * The version of this shape, written first in the document; raised when a field is renamed or
   * removed (added fields keep it). Documents without the field carried their measurements with
   * camelCase fields ({@code bytesPerSecond}); 2: every field snake_case, as {@code probe --json}
   * writes them ({@code bytes_per_second}).
   */
  public static final int SCHEMA_VERSION = 2;

  public StatusDocument {
    targets = targets == null ? List.of() : List.copyOf(targets);
    findings = findings == null ? List.of() : List.copyOf(findings);
    devices = devices == null ? List.of() : List.copyOf(devices);
    nextRuns = nextRuns == null ? Map.of() : java.util.Collections.unmodifiableMap(nextRuns);
    notApplicable =
        notApplicable == null ? Map.of() : java.util.Collections.unmodifiableMap(notApplicable);
    toleratedFailures =
        toleratedFailures == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(toleratedFailures);
    probeDeviceSeconds =
        probeDeviceSeconds == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(probeDeviceSeconds));
  }

  /** A document without the probes' device time (tests, and documents of older agents). */
  public StatusDocument(
      int schemaVersion,
      List<TargetEntry> targets,
      List<DeviceEntry> devices,
      Map<String, Instant> nextRuns,
      Map<String, String> notApplicable,
      Map<String, List<String>> toleratedFailures,
      PassiveSection passive,
      PodLookupEntry podResources,
      List<FindingEntry> findings) {
    this(
        schemaVersion,
        targets,
        devices,
        nextRuns,
        notApplicable,
        toleratedFailures,
        passive,
        podResources,
        findings,
        null,
        null);
  }

  /** A check's document: its own runs and the link readings it used, nothing scheduled. */
  public static StatusDocument ofCheck(List<TargetEntry> targets, PassiveSection passive) {
    return new StatusDocument(
        SCHEMA_VERSION, targets, List.of(), Map.of(), Map.of(), Map.of(), passive, null, List.of());
  }

  /** This document with {@code peers} as its section of the probes between servers. */
  public StatusDocument withPeers(PeerSection peers) {
    return new StatusDocument(
        schemaVersion,
        targets,
        devices,
        nextRuns,
        notApplicable,
        toleratedFailures,
        passive,
        podResources,
        findings,
        probeDeviceSeconds,
        peers);
  }

  /** This document with {@code findings} as the agent's standing findings. */
  public StatusDocument withFindings(List<FindingEntry> findings) {
    return new StatusDocument(
        schemaVersion,
        targets,
        devices,
        nextRuns,
        notApplicable,
        toleratedFailures,
        passive,
        podResources,
        findings,
        probeDeviceSeconds,
        peers);
  }

  public Optional<PeerSection> peerSection() {
    return Optional.ofNullable(peers);
  }

  public Optional<PassiveSection> passiveSection() {
    return Optional.ofNullable(passive);
  }

  /** Every figure of every target, with the target it came from. */
  public List<TargetEntry.Figure> figures() {
    return targets.stream().flatMap(t -> t.figures().stream()).toList();
  }
}
