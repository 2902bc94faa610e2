package io.linkwatch.probe.collective;

import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.util.ByteSize;

/**
 * Allgather of fp16 data over a group of devices, run like the allreduce probe ({@link
 * CollectiveRounds} in a {@link RankGroup}: one thread per rank, warm-up rounds, timed rounds lined
 * up, the slowest rank's time per round). A size is the gathered total, as nccl-tests count it:
 * each of the n ranks sends {@code size / n} and receives every rank's block.
 *
 * <p>The result is checked: rank {@code r} sends the value {@code r+1}, so block k of every receive
 * buffer must hold {@code k+1}; sampled blocks of each are read back after the timed rounds.
 *
 * <p>Produces, per size, e.g. {@code AllgatherLatency[devices=0,1, sizeBytes=1024,
 * p50Seconds=2.705e-4, ...]} and {@code AllgatherBusBandwidth[devices=0,1, sizeBytes=268435456,
 * algBytesPerSecond=2.6e11, busBytesPerSecond=1.3e11]}.
 */
public final class AllgatherProbe extends CollectiveProbe {
  /** The probe's config key and {@code probe} label. */
  public static final String ID = "allgather";

  /** Rank threads are named this plus the device id, e.g. {@code linkwatch-allgather-rank-1}. */
  public static final String THREAD_PREFIX = CollectiveRounds.threadPrefix(ID);

  public AllgatherProbe(AllgatherSettings settings) {
    super(GATHER, settings.sizes(), settings.warmup(), settings.iterations(), settings.devices());
  }

  /** A size must split into n blocks of whole fp16 elements. */
  @Override
  String refusal(long size, int n) {
    if (size % (2L * n) == 0) {
      return null;
    }
    return ByteSize.format(size)
        + " does not split into "
        + n
        + " blocks of whole fp16 elements (use a multiple of "
        + 2 * n
        + " bytes)";
  }

  /** Each rank sends size/n. */
  @Override
  long sendBytes(long size, int ranks) {
    return size / ranks;
  }

  /** busbw = algbw * (n-1)/n. */
  @Override
  double busBytesPerSecond(double algbw, int ranks) {
    return algbw * (ranks - 1) / ranks;
  }

  /** Block k of every receive buffer must hold rank k's value, k+1. */
  @Override
  void check(Fp16Blocks data, DeviceBuffer recv, int ranks, String what, RankGroup.Rank rank) {
    long block = recv.size() / ranks;
    for (int k = 0; k < ranks; k++) {
      data.check(recv, k * block, block, k + 1, what, rank);
    }
  }

  private static final Kind GATHER =
      new Kind(ID, DeviceRuntime::allGather, AllgatherLatency::new, AllgatherBusBandwidth::new);
}
