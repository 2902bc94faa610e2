package io.linkwatch.probe.collective;

import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.Communicator;
import io.linkwatch.runtime.DeviceRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The harness every collective probe runs in: one communicator per device from one {@code
 * HcclCommInitAll}, one platform thread per rank (HCCL requires it), a line-up the ranks meet at
 * between rounds so no rank starts a round while another is still busy with the previous one.
 *
 * <p>When a rank fails, it stops the others at their next line-up. A rank already inside a
 * collective waits there until the collective's own timeout ({@code HCCL_EXEC_TIMEOUT}), as nothing
 * can cancel a native call; the agent's worker deadline bounds that. {@link #run} throws the first
 * error, and only after every rank thread is joined and every communicator closed.
 */
final class RankGroup {
  /** What each rank does, on its own thread. */
  @FunctionalInterface
  interface RankBody {
    void run(Rank rank);
  }

  /**
   * Where a group's communicators come from: one call for every device of this process ({@link
   * #ONE_PROCESS}), or a rank each in a group spread over processes ({@link SpreadGroup}).
   */
  @FunctionalInterface
  interface Members {
    /** One communicator per device of {@code devices}, in their order. */
    List<Communicator> open(DeviceRuntime runtime, List<Integer> devices);

    /** Every rank in this process, from one {@code HcclCommInitAll}. */
    Members ONE_PROCESS =
        (runtime, devices) ->
            runtime.initCollective(devices.stream().mapToInt(Integer::intValue).toArray());
  }

  /** One rank's view of the group. */
  final class Rank {
    private final Communicator comm;
    private final int index;

    private Rank(Communicator comm, int index) {
      this.comm = comm;
      this.index = index;
    }

    /** This rank's place among this process's ranks, from 0. */
    int index() {
      return index;
    }

    Communicator comm() {
      return comm;
    }

    int rank() {
      return comm.rank();
    }

    int device() {
      return comm.device();
    }

    /** All ranks meet here; after a failure the line-up is terminated and everyone stops. */
    void lineUp() {
      if (lineUp.arriveAndAwaitAdvance() < 0) {
        throw new Stopped();
      }
    }
  }

  /** Thrown inside a rank that stops because another rank failed; never the reported error. */
  private static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super("stopped because another rank failed", null, false, false);
    }
  }

  /** Measures one group; see {@link #overDevices}. */
  @FunctionalInterface
  interface GroupMeasure {
    TargetResult measure(List<Integer> devices, String target, long startedNanos);
  }

  /**
   * A collective probe's run: the configured devices, or every device when none are; not applicable
   * with fewer than two; a device that is not there fails the target; otherwise one target (e.g.
   * {@code 0,1}) measured behind the device gate.
   */
  static ProbeRun overDevices(
      String probe, List<Integer> configured, ProbeContext context, GroupMeasure measure) {
    int found = context.runtime().deviceCount();
    List<Integer> devices = configured;
    if (devices.isEmpty()) {
      if (found < 2) {
        return ProbeRun.notApplicable(probe, probe + " needs two devices, found " + found);
      }
      devices = IntStream.range(0, found).boxed().toList();
    } else if (devices.size() < 2) {
      return ProbeRun.notApplicable(
          probe, probe + " needs two devices, configured only device " + devices.get(0));
    }
    String target = devices.stream().map(String::valueOf).collect(Collectors.joining(","));
    long started = System.nanoTime();
    ProbeRun missing = missingDevice(probe, target, devices, found);
    if (missing != null) {
      return missing;
    }
    if (!context.wants(target)) {
      return ProbeRun.of(probe, List.of());
    }
    List<Integer> group = devices;
    return ProbeRun.of(
        probe,
        List.of(
            context.gate().guard(target, group, () -> measure.measure(group, target, started))));
  }

  private final Phaser lineUp;
  private final AtomicReference<Throwable> firstError = new AtomicReference<>();

  private RankGroup(int ranks) {
    this.lineUp = new Phaser(ranks);
  }

  /**
   * The run of a group that names a device this host does not have (one of {@code found}): its one
   * target failed, saying which; null when every device is there.
   */
  static ProbeRun missingDevice(String probe, String target, List<Integer> devices, int found) {
    for (int d : devices) {
      if (d >= found) {
        return ProbeRun.of(
            probe,
            List.of(
                TargetResult.failure(
                    target, Outcome.ERROR, "no device " + d + " (found " + found + ")", 0)));
      }
    }
    return null;
  }

  /**
   * Runs {@code body} once per rank of {@code devices}, each on a thread named {@code threadPrefix}
   * plus its device id, and returns when all are done.
   */
  static void run(
      DeviceRuntime runtime, List<Integer> devices, String threadPrefix, RankBody body) {
    run(runtime, devices, Members.ONE_PROCESS, threadPrefix, body);
  }

  /** As above, the communicators from {@code members}. */
  static void run(
      DeviceRuntime runtime,
      List<Integer> devices,
      Members members,
      String threadPrefix,
      RankBody body) {
    new RankGroup(devices.size()).runAll(runtime, devices, members, threadPrefix, body);
  }

  private void runAll(
      DeviceRuntime runtime,
      List<Integer> devices,
      Members members,
      String threadPrefix,
      RankBody body) {
    List<Communicator> comms = members.open(runtime, devices);
    RuntimeException closeError = null;
    try {
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < comms.size(); i++) {
        Communicator comm = comms.get(i);
        Rank rank = new Rank(comm, i);
        Thread t = new Thread(() -> runRank(body, rank), threadPrefix + comm.device());
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
  }

  private void runRank(RankBody body, Rank rank) {
    try {
      body.run(rank);
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

  /**
   * The time of each round: the slowest rank's, as events around a collective show it (the slowest
   * rank gates everyone). {@code seconds[rank][round]}.
   */
  static double[] slowestPerRound(double[][] seconds) {
    double[] rounds = new double[seconds[0].length];
    for (double[] rank : seconds) {
      for (int i = 0; i < rounds.length; i++) {
        rounds[i] = Math.max(rounds[i], rank[i]);
      }
    }
    return rounds;
  }

  /** Joins every started thread, even when interrupted: no rank thread outlives the run. */
  static void joinAll(List<Thread> threads) {
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
}
