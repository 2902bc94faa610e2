package io.linkwatch.probe.collective;

import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.util.Durations;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * This host's part of a two-host probe: its devices checked before and after, as every probe's are,
 * and the steps measured over a group that spans both hosts. Busy before, nothing touches the
 * devices and no blob is made (the side holding rank 0 never writes its file, which tells its
 * agent); busy after, the figures are thrown away.
 */
final class PeerSide {
  private PeerSide() {}

  static ProbeRun run(
      ProbeContext context,
      String probe,
      PeerPairSettings settings,
      List<CollectiveRounds.Step> steps) {
    List<Integer> devices = settings.devices();
    String target = devices.stream().map(String::valueOf).collect(Collectors.joining(","));
    long started = System.nanoTime();
    ProbeRun missing =
        RankGroup.missingDevice(probe, target, devices, context.runtime().deviceCount());
    if (missing != null) {
      return missing;
    }
    SpreadGroup group = SpreadGroup.of(settings);
    return ProbeRun.of(
        probe,
        List.of(
            context
                .gate()
                .guard(
                    target,
                    devices,
                    () -> {
                      try {
                        return CollectiveRounds.measureSteps(
                            context,
                            devices,
                            group,
                            settings.ranks(),
                            target,
                            started,
                            steps,
                            settings.warmup(),
                            settings.iterations());
                      } catch (UncheckedIOException e) {
                        return TargetResult.failure(
                            target,
                            Outcome.ERROR,
                            "writing the root info for the peer: " + e.getCause().getMessage(),
                            Durations.secondsSince(started));
                      }
                    })));
  }
}
