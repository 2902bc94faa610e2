package io.linkwatch.probe.collective;

import io.linkwatch.probe.DataMismatchException;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.Progress;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.BackendUnavailableException;
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

    /** One call of the collective by {@code rank} on {@code stream}. */
    void call(
        DeviceRuntime runtime,
        DeviceBuffer send,
        DeviceBuffer recv,
        RankGroup.Rank rank,
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

  /** One message size of one collective: a run measures its steps one after another. */
  record Step(long size, Collective collective) {}

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
    return measureSteps(
        context,
        devices,
        members,
        ranks,
        target,
        startedNanos,
        sizes.stream().map(size -> new Step(size, collective)).toList(),
        warmup,
        iterations);
  }

  /** As above, for steps of more than one collective over one group. */
  static TargetResult measureSteps(
      ProbeContext context,
      List<Integer> devices,
      RankGroup.Members members,
      int ranks,
      String target,
      long startedNanos,
      List<Step> steps,
      int warmup,
      int iterations) {
    try {
      Run run = new Run(context, devices, ranks, target, steps, warmup, iterations);
      String threads = threadPrefix(steps.get(0).collective().id());
      RankGroup.run(context.runtime(), devices, members, threads, run::rank);
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
    private final List<Step> steps;
    private final int warmup;
    private final int iterations;
    private final int n;
    private final Fp16Blocks data;

    /** seconds[size][local rank][iteration], each rank writing its own slots. */
    private final double[][][] seconds;

    Run(
        ProbeContext context,
        List<Integer> devices,
        int ranks,
        String target,
        List<Step> steps,
        int warmup,
        int iterations) {
      this.runtime = context.runtime();
      this.progress = context.progress();
      this.target = target;
      this.steps = steps;
      this.warmup = warmup;
      this.iterations = iterations;
      this.n = ranks;
      this.data = new Fp16Blocks(runtime);
      this.seconds = new double[steps.size()][devices.size()][iterations];
    }

    void rank(RankGroup.Rank r) {
      int device = r.device();
      try (DeviceStream stream = runtime.createStream(device);
          DeviceEvent start = runtime.createEvent(device);
          DeviceEvent end = runtime.createEvent(device)) {
        for (int s = 0; s < steps.size(); s++) {
          long size = steps.get(s).size();
          Collective collective = steps.get(s).collective();
          if (r.index() == 0) {
            progress.step(target + " " + ByteSize.format(size));
          }
          try (DeviceBuffer send = runtime.allocate(device, collective.sendBytes(size, n));
              DeviceBuffer recv = runtime.allocate(device, size)) {
            data.fill(send, Fp16.encode(r.rank() + 1));
            for (int i = 0; i < warmup; i++) {
              r.lineUp();
              collective.call(runtime, send, recv, r, stream);
              runtime.synchronize(stream);
            }
            for (int i = 0; i < iterations; i++) {
              r.lineUp();
              runtime.record(start, stream);
              collective.call(runtime, send, recv, r, stream);
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
      for (int s = 0; s < steps.size(); s++) {
        double[] rounds = RankGroup.slowestPerRound(seconds[s]);
        Figures f =
            new Figures(
                steps.get(s).size(),
                Stats.quantile(rounds, 0.5),
                Stats.quantile(rounds, 0.99),
                rounds.length,
                Arrays.stream(rounds).sum());
        out.addAll(steps.get(s).collective().results(target, f, n));
      }
      return out;
    }
  }
}
