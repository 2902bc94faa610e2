package io.linkwatch.probe;

import io.linkwatch.probe.result.AllgatherBusBandwidth;
import io.linkwatch.probe.result.AllgatherLatency;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.BackendUnavailableException;
import io.linkwatch.runtime.Communicator;
import io.linkwatch.runtime.DataType;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceEvent;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Stats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Allgather of fp16 data over a group of devices, run like the allreduce probe (a {@link
 * RankGroup}: one thread per rank, warm-up rounds, timed rounds lined up, the slowest rank's time
 * per round). A size is the gathered total, as nccl-tests count it: each of the n ranks sends
 * {@code size / n} and receives every rank's block.
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
  public static final String THREAD_PREFIX = "linkwatch-allgather-rank-";

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
    try {
      List<Measurement> measured =
          new Group(context.runtime(), devices, target, context.progress()).measure();
      return TargetResult.success(target, P2pProbe.seconds(started), measured);
    } catch (DeviceException | DataMismatchException | BackendUnavailableException e) {
      return TargetResult.failure(target, Outcome.ERROR, e.getMessage(), P2pProbe.seconds(started));
    }
  }

  /** One run over one group of devices: the rank threads and their samples. */
  private final class Group {
    private final DeviceRuntime runtime;
    private final List<Integer> devices;
    private final String target;
    private final Progress progress;
    private final int n;
    private final Fp16Blocks data;

    /** seconds[size][rank][iteration], each rank writing its own slots. */
    private final double[][][] seconds;

    Group(DeviceRuntime runtime, List<Integer> devices, String target, Progress progress) {
      this.runtime = runtime;
      this.devices = devices;
      this.target = target;
      this.progress = progress;
      this.n = devices.size();
      this.data = new Fp16Blocks(runtime);
      this.seconds = new double[settings.sizes().size()][n][settings.iterations()];
    }

    List<Measurement> measure() {
      RankGroup.run(runtime, devices, THREAD_PREFIX, this::measureRank);
      return results();
    }

    private void measureRank(RankGroup.Rank r) {
      int device = r.device();
      int rank = r.rank();
      Communicator comm = r.comm();
      try (DeviceStream stream = runtime.createStream(device);
          DeviceEvent start = runtime.createEvent(device);
          DeviceEvent end = runtime.createEvent(device)) {
        List<Long> sizes = settings.sizes();
        for (int s = 0; s < sizes.size(); s++) {
          long size = sizes.get(s);
          long block = size / n;
          long count = block / DataType.FP16.bytes();
          if (rank == 0) {
            progress.step(target + " " + ByteSize.format(size));
          }
          try (DeviceBuffer send = runtime.allocate(device, block);
              DeviceBuffer recv = runtime.allocate(device, size)) {
            data.fill(send, Fp16.encode(rank + 1));
            for (int i = 0; i < settings.warmup(); i++) {
              r.lineUp();
              runtime.allGather(send, recv, count, DataType.FP16, comm, stream);
              runtime.synchronize(stream);
            }
            for (int i = 0; i < settings.iterations(); i++) {
              r.lineUp();
              runtime.record(start, stream);
              runtime.allGather(send, recv, count, DataType.FP16, comm, stream);
              runtime.record(end, stream);
              runtime.synchronize(stream);
              seconds[s][rank][i] = runtime.elapsedMillis(start, end) / 1e3;
            }
            String what = ID + " " + target + " " + ByteSize.format(size);
            for (int k = 0; k < n; k++) {
              data.check(recv, k * block, block, k + 1, what, r); // block k is rank k's
            }
          }
          // A rank whose check failed stops the others here, before the next size's first call.
          r.lineUp();
        }
      }
    }

    private List<Measurement> results() {
      List<Measurement> out = new ArrayList<>();
      List<Long> sizes = settings.sizes();
      for (int s = 0; s < sizes.size(); s++) {
        long size = sizes.get(s);
        double[] rounds = RankGroup.slowestPerRound(seconds[s]);
        double p50 = Stats.quantile(rounds, 0.5);
        double p99 = Stats.quantile(rounds, 0.99);
        double algbw = size / p50;
        double busbw = algbw * (n - 1) / n;
        out.add(
            new AllgatherLatency(
                target, size, p50, p99, rounds.length, Arrays.stream(rounds).sum()));
        out.add(new AllgatherBusBandwidth(target, size, algbw, busbw));
      }
      return out;
    }
  }
}
