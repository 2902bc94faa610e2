package io.linkwatch.status;

import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.runtime.ToleratedFailure;
import java.util.List;

/**
 * What {@code linkwatch probe NAME --json} prints: one run's targets, in the status document's
 * spelling ({@code result}, {@code failed_call}), the devices' busy checks and the failures the run
 * was allowed.
 *
 * @param skippedBecause why the run measured nothing, empty when it ran
 */
public record ProbeRunDocument(
    int schemaVersion,
    String probe,
    List<TargetEntry> targets,
    String skippedBecause,
    List<DeviceEntry> devices,
    List<ToleratedFailure> tolerated) {

  /**
   * 2: targets spelled as in {@code /api/v1/status} ({@code result} for {@code outcome}, {@code
   * failed_call} for {@code call}, every field present) and devices as its {@code devices}.
   */
  public static final int SCHEMA_VERSION = 2;

  public static ProbeRunDocument of(ProbeRun run) {
    return new ProbeRunDocument(
        SCHEMA_VERSION,
        run.probe(),
        run.targets().stream().map(t -> TargetEntry.of(run.probe(), t)).toList(),
        run.skippedBecause(),
        run.devices().stream().map(a -> DeviceEntry.of(a, List.of())).toList(),
        run.tolerated());
  }
}
