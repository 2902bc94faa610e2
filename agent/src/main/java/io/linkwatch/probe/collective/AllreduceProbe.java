package io.linkwatch.probe.collective;

import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceRuntime;

/**
 * Sum-allreduce of fp16 data over a group of devices, the way the field notes (seed 001) run it:
 * one communicator per device from one {@code HcclCommInitAll}, one platform thread per rank (HCCL
 * requires it), warm-up rounds, then timed rounds. In each timed round every rank records a start
 * event, calls the allreduce, records an end event and synchronizes its stream; the round's time is
 * the slowest rank's. The ranks line up between rounds, so no rank starts a round while another is
 * still busy with the previous one.
 *
 * <p>The result is checked: rank {@code r} sends the value {@code r+1} everywhere, so every rank
 * must receive {@code n(n+1)/2}; sampled blocks of every receive buffer are read back after the
 * timed rounds.
 *
 * <p>The rounds are {@link CollectiveRounds} in a {@link RankGroup}: a failing rank stops the
 * others at their next line-up, the run reports the first error, and every rank thread is joined
 * and every resource released before it returns.
 *
 * <p>Produces, per size, e.g. {@code AllreduceLatency[devices=0,1, sizeBytes=1024,
 * p50Seconds=2.727e-4, p99Seconds=2.75e-4]} and {@code AllreduceBusBandwidth[devices=0,1,
 * sizeBytes=1073741824, algBytesPerSecond=1.051e11, busBytesPerSecond=1.051e11]}.
 */
public final class AllreduceProbe extends CollectiveProbe {
  /** The probe's config key and {@code probe} label. */
  public static final String ID = "allreduce";

  /** Rank threads are named this plus the device id, e.g. {@code linkwatch-allreduce-rank-1}. */
  public static final String THREAD_PREFIX = CollectiveRounds.threadPrefix(ID);

  private static final Kind SUM =
      new Kind(ID, DeviceRuntime::allReduceSum, AllreduceLatency::new, AllreduceBusBandwidth::new);

  public AllreduceProbe(AllreduceSettings settings) {
    super(SUM, settings.sizes(), settings.warmup(), settings.iterations(), settings.devices());
  }

  /** Every rank sends and receives the whole message. */
  @Override
  long sendBytes(long size, int ranks) {
    return size;
  }

  /** Every element must be the sum of 1..n. */
  @Override
  void check(Fp16Blocks data, DeviceBuffer recv, int ranks, String what, RankGroup.Rank rank) {
    data.check(recv, 0, recv.size(), ranks * (ranks + 1) / 2, what, rank);
  }

  /** busbw = algbw * 2(n-1)/n. */
  @Override
  double busBytesPerSecond(double algbw, int ranks) {
    return algbw * 2.0 * (ranks - 1) / ranks;
  }
}
