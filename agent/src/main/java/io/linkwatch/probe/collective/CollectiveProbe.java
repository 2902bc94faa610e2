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
import java.util.List;

/**
 * What the collective probes share: one group over the configured devices ({@link
 * RankGroup#overDevices}), the {@link CollectiveRounds} of fp16 data for every size, and per size a
 * latency and a bus-bandwidth record. A probe adds its call and records ({@link Kind}), how much
 * each rank sends, how the bus bandwidth follows from the algorithm bandwidth, and how its result
 * is checked.
 */
abstract class CollectiveProbe implements Probe {
  /** The runtime's collective, {@code DeviceRuntime::allGather} or {@code ::allReduceSum}. */
  @FunctionalInterface
  interface Call {
    void run(
        DeviceRuntime runtime,
        DeviceBuffer send,
        DeviceBuffer recv,
        long count,
        DataType type,
        Communicator comm,
        DeviceStream stream);
  }

  /** A latency record's constructor, e.g. {@code AllgatherLatency::new}. */
  @FunctionalInterface
  interface LatencyRecord {
    Measurement of(
        String devices,
        long sizeBytes,
        double p50Seconds,
        double p99Seconds,
        long iterations,
        double sumSeconds);
  }

  /** A bus-bandwidth record's constructor, e.g. {@code AllgatherBusBandwidth::new}. */
  @FunctionalInterface
  interface BandwidthRecord {
    Measurement of(
        String devices, long sizeBytes, double algBytesPerSecond, double busBytesPerSecond);
  }

  /** A probe's id (config key and {@code probe} label), its call and its two records. */
  record Kind(String id, Call call, LatencyRecord latency, BandwidthRecord bandwidth) {}

  private final Kind kind;
  private final List<Long> sizes;
  private final int warmup;
  private final int iterations;
  private final List<Integer> devices;

  CollectiveProbe(Kind kind, List<Long> sizes, int warmup, int iterations, List<Integer> devices) {
    this.kind = kind;
    this.sizes = sizes;
    this.warmup = warmup;
    this.iterations = iterations;
    this.devices = devices;
  }

  /** The probe as {@link CollectiveRounds} runs it; a two-host probe runs it the same way. */
  final CollectiveRounds.Collective collective() {
    return new Fp16Collective();
  }

  @Override
  public final ProbeRun run(ProbeContext context) {
    CollectiveRounds.Collective collective = collective();
    return RankGroup.overDevices(
        kind.id(),
        devices,
        context,
        (group, target, started) -> {
          for (long size : sizes) {
            String refused = refusal(size, group.size());
            if (refused != null) {
              return TargetResult.failure(target, Outcome.ERROR, refused, 0);
            }
          }
          return CollectiveRounds.measure(
              context, group, target, started, sizes, warmup, iterations, collective);
        });
  }

  /** Why {@code size} cannot be run over {@code ranks} ranks; null where it can (the default). */
  String refusal(long size, int ranks) {
    return null;
  }

  /** Bytes each rank sends for a figure of {@code size} (the probe's size convention). */
  abstract long sendBytes(long size, int ranks);

  /** The bus bandwidth of {@code algBytesPerSecond} over {@code ranks} ranks, as nccl-tests. */
  abstract double busBytesPerSecond(double algBytesPerSecond, int ranks);

  /** Checks the received data; throws {@link DataMismatchException}. */
  abstract void check(
      Fp16Blocks data, DeviceBuffer recv, int ranks, String what, RankGroup.Rank rank);

  /** The probe as {@link CollectiveRounds} runs it: fp16 elements, the send buffer's worth. */
  private final class Fp16Collective implements CollectiveRounds.Collective {
    @Override
    public String id() {
      return kind.id();
    }

    @Override
    public long sendBytes(long size, int ranks) {
      return CollectiveProbe.this.sendBytes(size, ranks);
    }

    @Override
    public void call(
        DeviceRuntime runtime,
        DeviceBuffer send,
        DeviceBuffer recv,
        RankGroup.Rank rank,
        DeviceStream stream) {
      long count = send.size() / DataType.FP16.bytes();
      kind.call().run(runtime, send, recv, count, DataType.FP16, rank.comm(), stream);
    }

    @Override
    public void check(
        Fp16Blocks data, DeviceBuffer recv, int ranks, String what, RankGroup.Rank rank) {
      CollectiveProbe.this.check(data, recv, ranks, what, rank);
    }

    @Override
    public List<Measurement> results(String target, CollectiveRounds.Figures f, int ranks) {
      double algbw = f.algBytesPerSecond();
      return List.of(
          kind.latency()
              .of(
                  target,
                  f.sizeBytes(),
                  f.p50Seconds(),
                  f.p99Seconds(),
                  f.rounds(),
                  f.sumSeconds()),
          kind.bandwidth().of(target, f.sizeBytes(), algbw, busBytesPerSecond(algbw, ranks)));
    }
  }
}
