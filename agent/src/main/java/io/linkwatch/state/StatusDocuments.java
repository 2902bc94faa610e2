package io.linkwatch.state;

import io.linkwatch.passive.PassiveStore;
import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.status.DeviceEntry;
import io.linkwatch.status.PassiveSection;
import io.linkwatch.status.PeerSection;
import io.linkwatch.status.PodLookupEntry;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.status.TargetEntry;
import io.linkwatch.status.UnencodedFigure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The agent's {@link StatusDocument}, from its stores as they are now. */
public final class StatusDocuments {
  private StatusDocuments() {}

  /**
   * @param passive null when no passive source runs
   * @param nextRuns each scheduled probe's next run
   */
  public static StatusDocument of(
      ResultStore store, PassiveStore passive, Map<String, Instant> nextRuns) {
    List<TargetEntry> targets = new ArrayList<>();
    for (TargetStatus s : store.statuses()) {
      targets.add(
          new TargetEntry(
              s.probe(),
              s.target(),
              s.lastOutcome(),
              s.error(),
              s.call().isEmpty() ? null : s.call(),
              s.durationSeconds(),
              instant(s.lastRunEpochSeconds()),
              s.lastSuccessEpochSeconds() > 0 ? instant(s.lastSuccessEpochSeconds()) : null,
              nextRuns.get(s.probe()),
              s.measurements().stream().map(UnencodedFigure::of).toList(),
              s.deferred() ? instant(s.deferredSinceEpochSeconds()) : null,
              s.deferred() ? s.deferredBecause() : null));
    }
    List<DeviceEntry> devices = new ArrayList<>();
    for (DeviceActivity a : store.deviceActivity()) {
      devices.add(DeviceEntry.of(a, store.holders(a)));
    }
    return new StatusDocument(
        StatusDocument.SCHEMA_VERSION,
        targets,
        devices,
        new LinkedHashMap<>(nextRuns),
        new TreeMap<>(store.notApplicable()),
        new LinkedHashMap<>(store.lastTolerated()),
        passive == null ? null : PassiveSection.of(passive),
        store.podLookup().map(PodLookupEntry::of).orElse(null),
        store.findings(),
        store.probeDeviceSeconds(),
        store.peers().map(p -> PeerSection.of(p, store.pairs())).orElse(null));
  }

  private static Instant instant(double epochSeconds) {
    return Instant.ofEpochMilli((long) (epochSeconds * 1000));
  }
}
