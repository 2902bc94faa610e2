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
import io.linkwatch.runtime.HostBuffer;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

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
 * <p>When a rank fails, it stops the others at their next line-up. A rank already inside the
 * allreduce waits there until the collective's own timeout ({@code HCCL_EXEC_TIMEOUT}), as nothing
 * can cancel a native call; the agent's worker deadline bounds that. The run reports the first
 * error, and every rank thread is joined and every resource released before it returns.
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

  private static final int CHECK_BLOCK = 4096;
  private static final int CHECK_SAMPLES = 8;
  private static final int FILL_CHUNK = 1 << 20;

  private final AllreduceSettings settings;

  public AllreduceProbe(AllreduceSettings settings) {
    this.settings = settings;
  }

  @Override
  public ProbeRun run(ProbeContext context) {
    DeviceRuntime runtime = context.runtime();
    int found = runtime.deviceCount();
    String probe = ID;
    List<Integer> devices = settings.devices();
    if (devices.isEmpty()) {
      if (found < 2) {
        return ProbeRun.notApplicable(probe, "allreduce needs two devices, found " + found);
      }
      devices = IntStream.range(0, found).boxed().toList();
    } else if (devices.size() < 2) {
      return ProbeRun.notApplicable(
          probe, "allreduce needs two devices, configured only device " + devices.get(0));
    }
    String target = devices.stream().map(String::valueOf).collect(Collectors.joining(","));
    long started = System.nanoTime();
    for (int d : devices) {
      if (d >= found) {
        return ProbeRun.of(
            probe,
            List.of(
                TargetResult.failure(
                    target, Outcome.ERROR, "no device " + d + " (found " + found + ")", 0)));
      }
    }
    if (!context.wants(target)) {
      return ProbeRun.of(probe, List.of());
    }
    List<Integer> group = devices;
    TargetResult result =
        context.gate().guard(target, group, () -> measure(context, group, target, started));
    return ProbeRun.of(probe, List.of(result));
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

  /** Thrown inside a rank that stops because another rank failed; never the reported error. */
  private static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super("stopped because another rank failed", null, false, false);
    }
  }

  /** One run over one group of devices: the communicators, the rank threads, their samples. */
  private final class Group {
    private final DeviceRuntime runtime;
    private final List<Integer> devices;
    private final String target;
    private final Progress progress;
    private final int n;
    private final Phaser lineUp;
    private final AtomicReference<Throwable> firstError = new AtomicReference<>();

    /** seconds[size][rank][iteration], each rank writing its own slots. */
    private final double[][][] seconds;

    Group(DeviceRuntime runtime, List<Integer> devices, String target, Progress progress) {
      this.runtime = runtime;
      this.devices = devices;
      this.target = target;
      this.progress = progress;
      this.n = devices.size();
      this.lineUp = new Phaser(n);
      this.seconds = new double[settings.sizes().size()][n][settings.iterations()];
    }

    List<Measurement> measure() {
      int[] ids = devices.stream().mapToInt(Integer::intValue).toArray();
      List<Communicator> comms = runtime.initCollective(ids);
      RuntimeException closeError = null;
      try {
        List<Thread> threads = new ArrayList<>();
        for (Communicator comm : comms) {
          Thread t = new Thread(() -> rank(comm), THREAD_PREFIX + comm.device());
          t.setDaemon(true);
          threads.add(t);
        }
        try {
          threads.forEach(Thread::start);
        } catch (RuntimeException | Error e) {
          // e.g. no native thread left: the started ranks must not wait for the missing ones
          fail(e);
        }
        joinAll(threads);
      } finally {
        for (Communicator comm : comms) {
          try {
            comm.close();
          } catch (RuntimeException e) {
            if (closeError == null) {
              closeError = e;
            } else {
              closeError.addSuppressed(e);
            }
          }
        }
      }
      Throwable error = firstError.get();
      if (error != null) {
        if (closeError != null) {
          error.addSuppressed(closeError);
        }
        if (error instanceof RuntimeException r) {
          throw r;
        }
        throw (Error) error;
      }
      if (closeError != null) {
        throw closeError;
      }
      return results();
    }

    /** Joins every started thread, even when interrupted: no rank thread outlives the run. */
    private void joinAll(List<Thread> threads) {
      boolean interrupted = false;
      for (Thread t : threads) {
        while (t.isAlive()) {
          try {
            t.join();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    private void rank(Communicator comm) {
      try {
        measureRank(comm);
      } catch (Stopped e) {
        // another rank failed first; its error is the one reported
      } catch (RuntimeException | Error e) {
        fail(e);
      }
    }

    /** Keeps the first error and releases every rank waiting at the line-up, for good. */
    private void fail(Throwable e) {
      firstError.compareAndSet(null, e);
      lineUp.forceTermination();
    }

    /** All ranks meet here; after a failure the line-up is terminated and everyone stops. */
    private void lineUp() {
      if (lineUp.arriveAndAwaitAdvance() < 0) {
        throw new Stopped();
      }
    }

    private void measureRank(Communicator comm) {
      int device = comm.device();
      int rank = comm.rank();
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
            fill(send, Fp16.encode(rank + 1));
            for (int i = 0; i < settings.warmup(); i++) {
              lineUp();
              runtime.allReduceSum(send, recv, count, DataType.FP16, comm, stream);
              runtime.synchronize(stream);
            }
            for (int i = 0; i < settings.iterations(); i++) {
              lineUp();
              runtime.record(start, stream);
              runtime.allReduceSum(send, recv, count, DataType.FP16, comm, stream);
              runtime.record(end, stream);
              runtime.synchronize(stream);
              seconds[s][rank][i] = runtime.elapsedMillis(start, end) / 1e3;
            }
            check(recv, rank, device);
          }
          // A rank whose check failed stops the others here, before the next size's first call.
          lineUp();
        }
      }
    }

    /**
     * Fills {@code buffer} with one fp16 value: a staged first chunk, then device-side doubling.
     */
    private void fill(DeviceBuffer buffer, short value) {
      int first = (int) Math.min(buffer.size(), FILL_CHUNK);
      byte[] data = new byte[first];
      for (int i = 0; i + 1 < first; i += 2) {
        data[i] = (byte) value; // little-endian, as the device stores it
        data[i + 1] = (byte) (value >>> 8);
      }
      try (HostBuffer staging = runtime.allocatePinned(first)) {
        staging.write(0, data, first);
        runtime.copy(buffer, 0, staging, 0, first);
      }
      long filled = first;
      while (filled < buffer.size()) {
        long chunk = Math.min(filled, buffer.size() - filled);
        runtime.copy(buffer, filled, buffer, 0, chunk);
        filled += chunk;
      }
    }

    /** Reads sampled blocks of {@code recv} back and checks every element is n(n+1)/2. */
    private void check(DeviceBuffer recv, int rank, int device) {
      int expectedValue = n * (n + 1) / 2;
      short expected = Fp16.encode(expectedValue);
      long size = recv.size();
      int block = (int) Math.min(CHECK_BLOCK, size);
      byte[] data = new byte[block];
      try (HostBuffer host = runtime.allocatePinned(block)) {
        for (long offset : sampleOffsets(size, block)) {
          runtime.copy(host, 0, recv, offset, block);
          host.read(0, data, block);
          for (int i = 0; i + 1 < block; i += 2) {
            short found = (short) ((data[i] & 0xff) | (data[i + 1] & 0xff) << 8);
            if (found != expected) {
              throw new DataMismatchException(
                  String.format(
                      java.util.Locale.ROOT,
                      "allreduce %s %s: result mismatch on rank %d (device %d) at element %d:"
                          + " expected %d (fp16 0x%04x), found %s (fp16 0x%04x)",
                      target,
                      ByteSize.format(size),
                      rank,
                      device,
                      (offset + i) / 2,
                      expectedValue,
                      expected & 0xffff,
                      Fp16.decode(found),
                      found & 0xffff));
            }
          }
        }
      }
    }

    private List<Measurement> results() {
      List<Measurement> out = new ArrayList<>();
      List<Long> sizes = settings.sizes();
      for (int s = 0; s < sizes.size(); s++) {
        long size = sizes.get(s);
        double[] rounds = new double[settings.iterations()];
        for (int i = 0; i < rounds.length; i++) {
          double slowest = 0;
          for (int r = 0; r < n; r++) {
            slowest = Math.max(slowest, seconds[s][r][i]);
          }
          rounds[i] = slowest;
        }
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

  /** First block, last block and evenly spread ones between, each aligned to an element. */
  static long[] sampleOffsets(long bytes, int block) {
    long last = bytes - block;
    int count = last == 0 ? 1 : CHECK_SAMPLES;
    long[] offsets = new long[count];
    for (int i = 0; i < count; i++) {
      offsets[i] = count == 1 ? 0 : (last * i / (count - 1)) & ~1L;
    }
    offsets[count - 1] = last;
    return offsets;
  }
}
