package io.linkwatch.probe.collective;

import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.ProbeRun;

/**
 * This host's part of a sum-allreduce whose ranks span two hosts ({@code peer_allreduce}): the
 * in-host allreduce's rounds, data and check ({@link AllreduceProbe}), over a group formed with
 * {@code HcclCommInitRootInfo} / {@code ncclCommInitRank} instead of one {@code HcclCommInitAll}.
 * Every rank sends {@code rank+1}, so every rank of both hosts must receive {@code n(n+1)/2}: bytes
 * that crossed the network wrong fail the run.
 */
public final class PeerAllreduceProbe implements Probe {
  /** The id of the two-host allreduce: its {@code probe} label and its families' prefix. */
  public static final String ID = "peer_allreduce";

  private final PeerPairSettings settings;
  private final CollectiveRounds.Collective collective =
      new AllreduceProbe(AllreduceSettings.DEFAULTS).collective();

  PeerAllreduceProbe(PeerPairSettings settings) {
    this.settings = settings;
  }

  @Override
  public ProbeRun run(ProbeContext context) {
    return PeerSide.run(
        context,
        ID,
        settings,
        settings.sizes().stream()
            .map(size -> new CollectiveRounds.Step(size, collective))
            .toList());
  }
}
