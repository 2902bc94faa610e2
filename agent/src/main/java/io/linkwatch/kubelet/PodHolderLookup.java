package io.linkwatch.kubelet;

import io.linkwatch.probe.result.DeviceActivity;
import io.linkwatch.util.Durations;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the kubelet who holds the devices whenever an activity check found one busy, and hands the
 * answer to {@code sink} (the result store). The question is asynchronous and bounded by the
 * client's timeout: the caller (the run that recorded the check) never waits for it, and a second
 * busy finding while one question is out only asks once more after it.
 *
 * <p>Failures are results, not exceptions: a missing socket, a refused or broken connection, a
 * kubelet that hangs or answers garbage each end as a {@link PodLookup} saying so, logged once per
 * change of problem (e.g. {@code Pod resources: timeout: no answer from
 * /var/lib/kubelet/pod-resources/kubelet.sock within 2s}).
 */
public final class PodHolderLookup implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PodHolderLookup.class);

  private final PodResourcesClient client;
  private final Duration timeout;
  private final Supplier<List<DeviceKeys>> devices;
  private final Consumer<PodLookup> sink;
  private final Clock clock;
  private boolean inFlight;
  private boolean again;
  private String lastProblem = "";
  private boolean answeredOnce;

  /**
   * @param devices what linkwatch knows of its devices now (the topology probe's inventory)
   * @param sink where each lookup's outcome goes
   */
  public PodHolderLookup(
      PodResourcesClient client,
      Duration timeout,
      Supplier<List<DeviceKeys>> devices,
      Consumer<PodLookup> sink,
      Clock clock) {
    this.client = client;
    this.timeout = timeout;
    this.devices = devices;
    this.sink = sink;
    this.clock = clock;
  }

  /** Called with the devices a run checked; asks the kubelet when any of them was busy. */
  public void checked(List<DeviceActivity> activity) {
    if (activity.stream().anyMatch(DeviceActivity::busy)) {
      lookup();
    }
  }

  /** Starts one lookup, or marks one to follow the lookup in progress. */
  public void lookup() {
    synchronized (this) {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
    }
    if (!Files.exists(client.socket())) {
      finish(
          PodLookup.failed(
              PodLookup.Result.ABSENT, "no socket at " + client.socket(), clock.millis()));
      return;
    }
    client
        .list()
        .onComplete(
            done ->
                finish(
                    done.succeeded()
                        ? new PodLookup(
                            PodLookup.Result.SUCCESS,
                            KubeletDeviceIds.match(done.result(), devices.get()),
                            "",
                            clock.millis())
                        : failure(done.cause())));
  }

  private PodLookup failure(Throwable cause) {
    if (cause instanceof TimeoutException) {
      return PodLookup.failed(
          PodLookup.Result.TIMEOUT,
          "no answer from " + client.socket() + " within " + Durations.format(timeout),
          clock.millis());
    }
    String why = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    return PodLookup.failed(PodLookup.Result.ERROR, client.socket() + ": " + why, clock.millis());
  }

  private void finish(PodLookup lookup) {
    String problem =
        lookup.result() == PodLookup.Result.SUCCESS
            ? ""
            : lookup.result().label() + ": " + lookup.error();
    boolean changed;
    boolean next;
    boolean answeredBefore;
    synchronized (this) {
      answeredBefore = answeredOnce;
      answeredOnce |= lookup.result() == PodLookup.Result.SUCCESS;
      changed = !problem.equals(lastProblem);
      lastProblem = problem;
      next = again;
      again = false;
      inFlight = false;
    }
    if (changed) {
      if (problem.isEmpty()) {
        log.info("Pod resources: the kubelet answers again");
      } else if (lookup.result() == PodLookup.Result.ABSENT) {
        // Off Kubernetes there never was a socket: nothing to tell the journal. One that was
        // there and went (a kubelet restart, an unmounted directory) is.
        if (answeredBefore) {
          log.info(
              "Pod resources: {}; busy devices are reported without their pod", lookup.error());
        } else {
          log.debug("Pod resources: {} (not a Kubernetes node)", lookup.error());
        }
      } else {
        log.warn("Pod resources: {}", problem);
      }
    }
    try {
      sink.accept(lookup);
    } catch (RuntimeException e) {
      log.warn("Pod resources: recording the lookup failed: {}", e.toString());
    }
    if (next) {
      lookup();
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
