package io.linkwatch.probe;

import io.linkwatch.probe.result.AllreduceBusBandwidth;
import io.linkwatch.probe.result.AllreduceLatency;
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
import java.util.List;

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
 * <p>The ranks run in a {@link RankGroup}: a failing rank stops the others at their next line-up,
 * the run reports the first error, and every rank thread is joined and every resource released
 * before it returns.
 *
 * <p>Produces, per size, e.g. {@code AllreduceLatency[devices=0,1, sizeBytes=1024,
 * p50Seconds=2.727e-4, p99Seconds=2.75e-4]} and {@code AllreduceBusBandwidth[devices=0,1,
 * sizeBytes=1073741824, algBytesPerSecond=1.051e11, busBytesPerSecond=1.051e11]}.
 */
public final class AllreduceProbe implements Probe {
  /** The probe's config key and {@code probe} label. */
  public static final String ID = "allreduce";

  /** Rank threads are named this plus the device id, e.g. {@code linkwatch-allreduce-rank-1}. */
  public static final String THREAD_PREFIX = "linkwatch-allreduce-rank-";

  private final AllreduceSettings settings;

  public AllreduceProbe(AllreduceSettings settings) {
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
    try {
      List<Measurement> measured =
          new Group(context.runtime(), devices, target, context.progress()).measure();
      return TargetResult.success(target, P2pProbe.seconds(started), measured);
    } catch (DeviceException | DataMismatchException | BackendUnavailableException e) {
      // BackendUnavailableException: no libhccl.so, although AscendCL itself loaded
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
          long count = size / DataType.FP16.bytes();
          if (rank == 0) {
            progress.step(target + " " + ByteSize.format(size));
          }
          try (DeviceBuffer send = runtime.allocate(device, size);
              DeviceBuffer recv = runtime.allocate(device, size)) {
            data.fill(send, Fp16.encode(rank + 1));
            for (int i = 0; i < settings.warmup(); i++) {
              r.lineUp();
              runtime.allReduceSum(send, recv, count, DataType.FP16, comm, stream);
              runtime.synchronize(stream);
            }
            for (int i = 0; i < settings.iterations(); i++) {
              r.lineUp();
              runtime.record(start, stream);
              runtime.allReduceSum(send, recv, count, DataType.FP16, comm, stream);
              runtime.record(end, stream);
              runtime.synchronize(stream);
              seconds[s][rank][i] = runtime.elapsedMillis(start, end) / 1e3;
            }
            // every element is the sum of 1..n
            data.check(
                recv, 0, size, n * (n + 1) / 2, ID + " " + target + " " + ByteSize.format(size), r);
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
        double busbw = algbw * 2.0 * (n - 1) / n;
        out.add(
            new AllreduceLatency(
                target, size, p50, p99, rounds.length, java.util.Arrays.stream(rounds).sum()));
        out.add(new AllreduceBusBandwidth(target, size, algbw, busbw));
      }
      return out;
    }
  }
}
