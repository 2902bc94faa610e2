package io.linkwatch.probe.p2p;

import io.linkwatch.probe.CopyTimer;
import io.linkwatch.probe.DataCheck;
import io.linkwatch.probe.DataMismatchException;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceException;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.topology.Topology;
import io.linkwatch.util.ByteSize;
import io.linkwatch.util.Durations;
import java.util.ArrayList;
import java.util.List;

/**
 * Copy bandwidth for each ordered device pair: peer access enabled both ways, each copy timed with
 * device events on the source's stream, median over the iterations, and the copied data checked.
 * One pair's failure is that pair's result; the other pairs still run.
 *
 * <p>Produces e.g. {@code P2pBandwidth[src=0, dst=1, link=SIO, sizeBytes=268435456,
 * bytesPerSecond=1.55e11, secondsPerCopy=0.00173]}.
 */
public final class P2pProbe implements Probe {
  /** The probe's config key and {@code probe} label. */
  public static final String ID = "p2p";

  private final P2pSettings settings;

  public P2pProbe(P2pSettings settings) {
    this.settings = settings;
  }

  @Override
  public ProbeRun run(ProbeContext context) {
    DeviceRuntime runtime = context.runtime();
    int devices = runtime.deviceCount();
    if (devices < 2) {
      return ProbeRun.notApplicable(ID, "p2p needs two devices, found " + devices);
    }
    List<DevicePair> pairs =
        settings.pairs().isEmpty() ? DevicePair.all(devices) : settings.pairs();
    Topology topology = context.topology().load(runtime);
    List<TargetResult> results = new ArrayList<>();
    for (DevicePair pair : pairs) {
      if (!context.wants(pair.toString())) {
        continue;
      }
      results.add(
          context
              .gate()
              .guard(
                  pair.toString(),
                  List.of(pair.src(), pair.dst()),
                  () -> measure(context, topology, pair, devices)));
    }
    return ProbeRun.of(ID, results);
  }

  private TargetResult measure(
      ProbeContext context, Topology topology, DevicePair pair, int devices) {
    long started = System.nanoTime();
    String target = pair.toString();
    if (pair.src() >= devices || pair.dst() >= devices) {
      return TargetResult.failure(
          target,
          Outcome.ERROR,
          "no device " + Math.max(pair.src(), pair.dst()) + " (found " + devices + ")",
          0);
    }
    DeviceRuntime runtime = context.runtime();
    try {
      if (!runtime.canAccessPeer(pair.src(), pair.dst())) {
        return TargetResult.failure(
            target,
            Outcome.ERROR,
            "aclrtDeviceCanAccessPeer: device " + pair.src() + " cannot reach device " + pair.dst(),
            Durations.secondsSince(started));
      }
      runtime.enablePeerAccess(pair.src(), pair.dst());
      runtime.enablePeerAccess(pair.dst(), pair.src());
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

  private P2pBandwidth measureSize(DeviceRuntime runtime, DevicePair pair, String link, long size) {
    try (DeviceBuffer src = runtime.allocate(pair.src(), size);
        DeviceBuffer dst = runtime.allocate(pair.dst(), size)) {
      DataCheck check = new DataCheck(runtime);
      DataCheck.Pattern written = check.fill(src, 31L * pair.src() + pair.dst());
      double seconds =
          new CopyTimer(runtime, settings.warmup(), settings.iterations())
              .medianSeconds(dst, src, size, pair.src());
      String mismatch = check.verify(dst, size, written);
      if (!mismatch.isEmpty()) {
        throw new DataMismatchException(
            "p2p " + pair + " " + ByteSize.format(size) + ": " + mismatch);
      }
      return new P2pBandwidth(pair.src(), pair.dst(), link, size, size / seconds, seconds);
    }
  }
}
