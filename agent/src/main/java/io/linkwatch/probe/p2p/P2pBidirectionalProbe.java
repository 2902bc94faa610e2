package io.linkwatch.probe.p2p;

import io.linkwatch.probe.DataCheck;
import io.linkwatch.probe.DataMismatchException;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceEvent;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.DeviceStream;
import io.linkwatch.runtime.topology.Topology;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Durations;
import io.linkwatch.util.Stats;
import java.util.ArrayList;
import java.util.List;

/**
 * Both directions of each device pair at once, as ascend-dmi's bidirectional p2p matrix measures
 * them (seed 002): a copy a->b and a copy b->a on two streams of device a, lined up by an event so
 * they start together and joined by another so the end event marks the later of the two. The figure
 * is the bytes of both over the median wall time; the copied data is checked both ways. Both
 * streams belong to device a so that all events are on one device's clock.
 *
 * <p>Produces e.g. {@code P2pBidirectionalBandwidth[a=0, b=1, link=SIO, sizeBytes=268435456,
 * bytesPerSecond=3.1e11, secondsPerPair=0.00172]}.
 */
public final class P2pBidirectionalProbe implements Probe {
  /** The probe's config key and {@code probe} label. */
  public static final String ID = "p2p_bidirectional";

  private final P2pBidirectionalSettings settings;

  public P2pBidirectionalProbe(P2pBidirectionalSettings settings) {
    this.settings = settings;
  }

  @Override
  public ProbeRun run(ProbeContext context) {
    String probe = ID;
    DeviceRuntime runtime = context.runtime();
    int devices = runtime.deviceCount();
    if (devices < 2) {
      return ProbeRun.notApplicable(probe, probe + " needs two devices, found " + devices);
    }
    List<DevicePair> pairs =
        settings.pairs().isEmpty() ? unorderedPairs(devices) : settings.pairs();
    Topology topology = context.topology().load(runtime);
    List<TargetResult> results = new ArrayList<>();
    for (DevicePair pair : pairs) {
      String target = P2pBidirectionalSettings.name(pair);
      if (context.wants(target)) {
        results.add(
            context
                .gate()
                .guard(
                    target,
                    List.of(pair.src(), pair.dst()),
                    () -> measure(context, topology, pair, devices)));
      }
    }
    return ProbeRun.of(probe, results);
  }

  /** Every pair a < b among {@code count} devices. */
  static List<DevicePair> unorderedPairs(int count) {
    return DevicePair.all(count).stream().filter(p -> p.src() < p.dst()).toList();
  }

  private TargetResult measure(
      ProbeContext context, Topology topology, DevicePair pair, int devices) {
    long started = System.nanoTime();
    String target = P2pBidirectionalSettings.name(pair);
    if (pair.dst() >= devices) {
      return TargetResult.failure(
          target, Outcome.ERROR, "no device " + pair.dst() + " (found " + devices + ")", 0);
    }
    DeviceRuntime runtime = context.runtime();
    try {
      for (DevicePair way : List.of(pair, new DevicePair(pair.dst(), pair.src()))) {
        if (!runtime.canAccessPeer(way.src(), way.dst())) {
          return TargetResult.failure(
              target,
              Outcome.ERROR,
              "aclrtDeviceCanAccessPeer: device " + way.src() + " cannot reach device " + way.dst(),
              Durations.secondsSince(started));
        }
        runtime.enablePeerAccess(way.src(), way.dst());
      }
      String link = topology.link(pair.src(), pair.dst()).label();
      List<Measurement> measured = new ArrayList<>();
      for (long size : settings.sizes()) {
        context.progress().step(target + " " + ByteSize.format(size));
        measured.add(measureSize(runtime, pair, link, size));
      }
      return TargetResult.success(target, Durations.secondsSince(started), measured);
    } catch (DeviceException | DataMismatchException e) {
      return TargetResult.error(target, e, Durations.secondsSince(started));
    }
  }

  private P2pBidirectionalBandwidth measureSize(
      DeviceRuntime runtime, DevicePair pair, String link, long size) {
    int a = pair.src();
    int b = pair.dst();
    try (DeviceBuffer fromA = runtime.allocate(a, size);
        DeviceBuffer intoB = runtime.allocate(b, size);
        DeviceBuffer fromB = runtime.allocate(b, size);
        DeviceBuffer intoA = runtime.allocate(a, size)) {
      DataCheck check = new DataCheck(runtime);
      DataCheck.Pattern writtenA = check.fill(fromA, 31L * a + b);
      DataCheck.Pattern writtenB = check.fill(fromB, 31L * b + a);
      double seconds = medianPairSeconds(runtime, a, intoB, fromA, intoA, fromB, size);
      for (String mismatch :
          List.of(check.verify(intoB, size, writtenA), check.verify(intoA, size, writtenB))) {
        if (!mismatch.isEmpty()) {
          throw new DataMismatchException(
              ID
                  + " "
                  + P2pBidirectionalSettings.name(pair)
                  + " "
                  + ByteSize.format(size)
                  + ": "
                  + mismatch);
        }
      }
      return new P2pBidirectionalBandwidth(a, b, link, size, 2.0 * size / seconds, seconds);
    }
  }

  /** The median wall time of the two copies started together on two streams of device {@code a}. */
  private double medianPairSeconds(
      DeviceRuntime runtime,
      int a,
      DeviceBuffer intoB,
      DeviceBuffer fromA,
      DeviceBuffer intoA,
      DeviceBuffer fromB,
      long size) {
    try (DeviceStream forth = runtime.createStream(a);
        DeviceStream back = runtime.createStream(a);
        DeviceEvent start = runtime.createEvent(a);
        DeviceEvent backDone = runtime.createEvent(a);
        DeviceEvent end = runtime.createEvent(a)) {
      double[] seconds = new double[settings.iterations()];
      for (int i = -settings.warmup(); i < settings.iterations(); i++) {
        runtime.record(start, forth);
        runtime.waitFor(back, start);
        runtime.copyAsync(intoB, 0, fromA, 0, size, forth);
        runtime.copyAsync(intoA, 0, fromB, 0, size, back);
        runtime.record(backDone, back);
        runtime.waitFor(forth, backDone);
        runtime.record(end, forth);
        runtime.synchronize(forth);
        runtime.synchronize(back);
        if (i >= 0) {
          seconds[i] = runtime.elapsedMillis(start, end) / 1e3;
        }
      }
      return Stats.median(seconds);
    }
  }
}
