package io.linkwatch.probe.collective;

import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.PeerP2pBandwidth;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.runtime.DataType;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Point to point between one device on each of two hosts ({@code peer_p2p}): per size, rank 0 (the
 * prober's device) to rank 1, rank 1 to rank 0, then both ways at once, each in the timed rounds of
 * the collectives ({@link CollectiveRounds}) over a group of two formed across the hosts. One way
 * shows a port or a path that is slow in one direction only (a duplex mismatch, a lossy transmit
 * lane); both ways shows whether the port carries both at once.
 *
 * <p>Each rank sends {@code rank+1}; the receiving rank checks that every sampled element is its
 * peer's value, so bytes that crossed the network wrong fail the run. Produces, per size and
 * direction, e.g. {@code PeerP2pBandwidth[fromRank=0, toRank=1, bothWays=false, sizeBytes=67108864,
 * bytesPerSecond=2.3e10, ...]}.
 */
public final class PeerP2pProbe implements Probe {
  /** The id of the two-host point to point: its {@code probe} label and its families' prefix. */
  public static final String ID = "peer_p2p";

  private final PeerPairSettings settings;

  PeerP2pProbe(PeerPairSettings settings) {
    this.settings = settings;
  }

  @Override
  public ProbeRun run(ProbeContext context) {
    List<CollectiveRounds.Step> steps = new ArrayList<>();
    for (long size : settings.sizes()) {
      steps.add(new CollectiveRounds.Step(size, new Direction(0, 1, false)));
      steps.add(new CollectiveRounds.Step(size, new Direction(1, 0, false)));
      steps.add(new CollectiveRounds.Step(size, new Direction(0, 1, true)));
    }
    return PeerSide.run(context, ID, settings, steps);
  }

  /** One direction of the pair, or both at once, as a step of the rounds. */
  private record Direction(int from, int to, boolean bothWays)
      implements CollectiveRounds.Collective {
    @Override
    public String id() {
      return ID;
    }

    @Override
    public long sendBytes(long size, int ranks) {
      return size;
    }

    @Override
    public void call(
        DeviceRuntime runtime,
        DeviceBuffer send,
        DeviceBuffer recv,
        RankGroup.Rank rank,
        DeviceStream stream) {
      long count = send.size() / DataType.FP16.bytes();
      int me = rank.rank();
      int other = 1 - me;
      if (bothWays) {
        runtime.exchange(send, recv, count, DataType.FP16, other, rank.comm(), stream);
      } else if (me == from) {
        runtime.exchange(send, null, count, DataType.FP16, to, rank.comm(), stream);
      } else {
        runtime.exchange(null, recv, count, DataType.FP16, from, rank.comm(), stream);
      }
    }

    /** What a rank received must be its peer's {@code rank+1}; a rank that only sent has none. */
    @Override
    public void check(
        Fp16Blocks data, DeviceBuffer recv, int ranks, String what, RankGroup.Rank rank) {
      int me = rank.rank();
      if (bothWays || me == to) {
        String way = bothWays ? "both ways" : from + "->" + to;
        data.check(recv, 0, recv.size(), (1 - me) + 1, what + " " + way, rank);
      }
    }

    @Override
    public List<Measurement> results(String target, CollectiveRounds.Figures f, int ranks) {
      double moved = bothWays ? 2.0 * f.sizeBytes() : f.sizeBytes();
      return List.of(
          new PeerP2pBandwidth(
              from,
              to,
              bothWays,
              f.sizeBytes(),
              moved / f.p50Seconds(),
              f.p50Seconds(),
              f.p99Seconds(),
              f.rounds()));
    }
  }
}
