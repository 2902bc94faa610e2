package io.linkwatch.probe.collective;

import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.Communicator;
import io.linkwatch.runtime.DataType;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.util.ByteSize;
import java.util.List;

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
public final class AllgatherProbe implements Probe {
  /** The probe's config key and {@code probe} label. */
  public static final String ID = "allgather";

  /** Rank threads are named this plus the device id, e.g. {@code linkwatch-allgather-rank-1}. */
  public static final String THREAD_PREFIX = CollectiveRounds.threadPrefix(ID);

  private final AllgatherSettings settings;

  public AllgatherProbe(AllgatherSettings settings) {
    this.settings = settings;
  }

  @Override
  public ProbeRun run(ProbeContext context) {
    return RankGroup.overDevices(
        ID,
        settings.devices(),
        context,
        (devices, target, started) -> measure(context, devices, target, started));
  }

  private TargetResult measure(
      ProbeContext context, List<Integer> devices, String target, long started) {
    int n = devices.size();
    for (long size : settings.sizes()) {
      if (size % (2L * n) != 0) {
        return TargetResult.failure(
            target,
            Outcome.ERROR,
            ByteSize.format(size)
                + " does not split into "
                + n
                + " blocks of whole fp16 elements (use a multiple of "
                + 2 * n
                + " bytes)",
            0);
      }
    }
    return CollectiveRounds.measure(
        context,
        devices,
        target,
        started,
        settings.sizes(),
        settings.warmup(),
        settings.iterations(),
        GATHER);
  }

  /** Each rank sends size/n; block k of every receive buffer must hold rank k's value, k+1. */
  private static final CollectiveRounds.Collective GATHER =
      new CollectiveRounds.Collective() {
        @Override
        public String id() {
          return ID;
        }

        @Override
        public long sendBytes(long size, int ranks) {
          return size / ranks;
        }

        @Override
        public void call(
            DeviceRuntime runtime,
            DeviceBuffer send,
            DeviceBuffer recv,
            Communicator comm,
            DeviceStream stream) {
          runtime.allGather(
              send, recv, send.size() / DataType.FP16.bytes(), DataType.FP16, comm, stream);
        }

        @Override
        public void check(
            Fp16Blocks data, DeviceBuffer recv, int ranks, String what, RankGroup.Rank rank) {
          long block = recv.size() / ranks;
          for (int k = 0; k < ranks; k++) {
            data.check(recv, k * block, block, k + 1, what, rank);
          }
        }

        @Override
        public List<Measurement> results(String target, CollectiveRounds.Figures f, int ranks) {
          double algbw = f.algBytesPerSecond();
          return List.of(
              new AllgatherLatency(
                  target,
                  f.sizeBytes(),
                  f.p50Seconds(),
                  f.p99Seconds(),
                  f.rounds(),
                  f.sumSeconds()),
              new AllgatherBusBandwidth(target, f.sizeBytes(), algbw, algbw * (ranks - 1) / ranks));
        }
      };
}
