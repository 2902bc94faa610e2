package io.linkwatch.probe.collective;

import io.linkwatch.probe.DataMismatchException;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.Progress;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.BackendUnavailableException;
import io.linkwatch.runtime.Communicator;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceEvent;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Durations;
import io.linkwatch.util.Stats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The timed rounds of a collective probe, the way the field notes (seed 001) run them, in a {@link
 * RankGroup}: per size every rank allocates its buffers and fills its send buffer with {@code
 * rank+1}, runs the warm-up rounds, then the timed rounds (line up, start event, the collective,
 * end event, synchronize), and checks sampled blocks of its result. A round's time is the slowest
 * rank's; per size come the p50, the p99 and the algorithm bandwidth {@code size / p50}, which the
 * probe turns into its own records.
 */
final class CollectiveRounds {
  /** What one collective does differently. */
  interface Collective {
    /** The probe's id, for progress and mismatch messages. */
    String id();

    /** Bytes each rank sends for a figure of {@code size} (the probe's size convention). */
    long sendBytes(long size, int ranks);

    /** One call of the collective on {@code stream}; {@code recv} holds {@code size} bytes. */
    void call(
        DeviceRuntime runtime,
        DeviceBuffer send,
        DeviceBuffer recv,
        Communicator comm,
        DeviceStream stream);

    /** Checks the received data; throws {@link DataMismatchException}. */
    void check(Fp16Blocks data, DeviceBuffer recv, int ranks, String what, RankGroup.Rank rank);

    /** The records of one size's figures. */
    List<Measurement> results(String target, Figures figures, int ranks);
  }

  /** One size's figures over the timed rounds. */
  record Figures(
      long sizeBytes, double p50Seconds, double p99Seconds, int rounds, double sumSeconds) {
    double algBytesPerSecond() {
      return sizeBytes / p50Seconds;
    }
  }

  private CollectiveRounds() {}

  /** Rank threads are named this plus the device id, e.g. {@code linkwatch-allreduce-rank-1}. */
  static String threadPrefix(String probe) {
    return "linkwatch-" + probe + "-rank-";
  }

  /** The target's result: the collective's records, or the first error of any rank. */
  static TargetResult measure(
      ProbeContext context,
      List<Integer> devices,
      String target,
      long startedNanos,
      List<Long> sizes,
      int warmup,
      int iterations,
      Collective collective) {
    return measure(
        context,
        devices,
        RankGroup.Members.ONE_PROCESS,
        devices.size(),
        target,
        startedNanos,
        sizes,
        warmup,
        iterations,
        collective);
  }

  /**
   * As above, this process's ranks on {@code devices} from {@code members}, of a group of {@code
   * ranks} in all (more than {@code devices} where the group spreads over processes).
   */
  static TargetResult measure(
      ProbeContext context,
      List<Integer> devices,
      RankGroup.Members members,
      int ranks,
      String target,
      long startedNanos,
      List<Long> sizes,
      int warmup,
      int iterations,
      Collective collective) {
    try {
      Run run = new Run(context, devices, ranks, target, sizes, warmup, iterations, collective);
      RankGroup.run(context.runtime(), devices, members, threadPrefix(collective.id()), run::rank);
      return TargetResult.success(target, Durations.secondsSince(startedNanos), run.results());
    } catch (DeviceException | DataMismatchException | BackendUnavailableException e) {
      // BackendUnavailableException: no libhccl.so, although AscendCL itself loaded
      return TargetResult.error(target, e, Durations.secondsSince(startedNanos));
    }
  }

  /** One run over one group: what every rank does, and the samples they leave. */
  private static final class Run {
    private final DeviceRuntime runtime;
    private final Progress progress;
    private final String target;
    private final List<Long> sizes;
    private final int warmup;
    private final int iterations;
    private final Collective collective;
    private final int n;
    private final Fp16Blocks data;

    /** seconds[size][local rank][iteration], each rank writing its own slots. */
    private final double[][][] seconds;

    Run(
        ProbeContext context,
        List<Integer> devices,
        int ranks,
        String target,
        List<Long> sizes,
        int warmup,
        int iterations,
        Collective collective) {
      this.runtime = context.runtime();
      this.progress = context.progress();
      this.target = target;
      this.sizes = sizes;
      this.warmup = warmup;
      this.iterations = iterations;
      this.collective = collective;
      this.n = ranks;
      this.data = new Fp16Blocks(runtime);
      this.seconds = new double[sizes.size()][devices.size()][iterations];
    }

    void rank(RankGroup.Rank r) {
      int device = r.device();
      try (DeviceStream stream = runtime.createStream(device);
          DeviceEvent start = runtime.createEvent(device);
          DeviceEvent end = runtime.createEvent(device)) {
        for (int s = 0; s < sizes.size(); s++) {
          long size = sizes.get(s);
          if (r.index() == 0) {
            progress.step(target + " " + ByteSize.format(size));
          }
          try (DeviceBuffer send = runtime.allocate(device, collective.sendBytes(size, n));
              DeviceBuffer recv = runtime.allocate(device, size)) {
            data.fill(send, Fp16.encode(r.rank() + 1));
            for (int i = 0; i < warmup; i++) {
              r.lineUp();
              collective.call(runtime, send, recv, r.comm(), stream);
              runtime.synchronize(stream);
            }
            for (int i = 0; i < iterations; i++) {
              r.lineUp();
              runtime.record(start, stream);
              collective.call(runtime, send, recv, r.comm(), stream);
              runtime.record(end, stream);
              runtime.synchronize(stream);
              seconds[s][r.index()][i] = runtime.elapsedMillis(start, end) / 1e3;
            }
            String what = collective.id() + " " + target + " " + ByteSize.format(size);
            collective.check(data, recv, n, what, r);
          }
          // A rank whose check failed stops the others here, before the next size's first call.
          r.lineUp();
        }
      }
    }

    List<Measurement> results() {
      List<Measurement> out = new ArrayList<>();
      for (int s = 0; s < sizes.size(); s++) {
        double[] rounds = RankGroup.slowestPerRound(seconds[s]);
        Figures f =
            new Figures(
                sizes.get(s),
                Stats.quantile(rounds, 0.5),
                Stats.quantile(rounds, 0.99),
                rounds.length,
                Arrays.stream(rounds).sum());
        out.addAll(collective.results(target, f, n));
      }
      return out;
    }
  }
}
