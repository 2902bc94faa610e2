package io.linkwatch.peer.collective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.peer.PeerConfig;
import io.linkwatch.probe.collective.PeerPairSettings;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The lending side's rules: one lease at a time, only while the lane of device work is free and no
 * device was seen busy, given back when its run ends, when the prober returns it, or when it
 * expires; a run under a lease it does not hold is refused. The worker here answers as the real one
 * would for each case (the probe's own worker is exercised by PeerCollectiveLiveTest).
 */
class LeaseDeskTest {
  private final Semaphore lane = new Semaphore(1);
  private final List<PeerPairSettings> ran = new ArrayList<>();
  private final PairResults results = new PairResults(Clock.systemUTC());
  private Outcome answer = Outcome.SUCCESS;
  private Optional<String> busy = Optional.empty();

  private LeaseDesk desk(Optional<PeerConfig.Collective> config) {
    return new LeaseDesk(
        config,
        (who, wait) ->
            lane.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS)
                ? Optional.of(lane::release)
                : Optional.empty(),
        (probe, settings, deadline) -> {
          ran.add((PeerPairSettings) settings);
          return ProbeRun.of(
              probe,
              List.of(
                  answer == Outcome.SUCCESS
                      ? TargetResult.success("0", 1, List.of())
                      : TargetResult.failure("0", answer, "device 0 is busy: pid 4242", 1)));
        },
        devices -> busy,
        results,
        Clock.systemUTC());
  }

  private static Optional<PeerConfig.Collective> collective(Duration deadline) {
    PeerConfig.Collective d = PeerConfig.Collective.DEFAULTS;
    return Optional.of(
        new PeerConfig.Collective(
            d.every(),
            deadline,
            List.of(0, 1),
            d.sizes(),
            d.warmup(),
            d.iterations(),
            d.probes(),
            Optional.empty()));
  }

  private static LeaseWire.Run run(int firstRank) {
    return new LeaseWire.Run("AAAA", 4, firstRank, List.of(1024L), 1, 2);
  }

  @Test
  void lendsOneLeaseAtATimeAndTheRunGivesItBack() throws Exception {
    try (LeaseDesk desk = desk(collective(Duration.ofSeconds(60)))) {
      Object first = desk.request(new LeaseWire.Request("a:1", 30));
      assertThat(first).isInstanceOf(LeaseWire.Grant.class);
      LeaseWire.Grant grant = (LeaseWire.Grant) first;
      assertThat(grant.devices()).containsExactly(0, 1);
      assertThat(grant.seconds()).isEqualTo(30);
      assertThat(lane.availablePermits()).as("the lease holds the lane").isZero();

      assertThat(desk.request(new LeaseWire.Request("b:1", 30)))
          .isInstanceOfSatisfying(
              LeaseWire.Refusal.class,
              r -> assertThat(r.refused()).startsWith("a lease for a:1 is out until"));

      desk.start(grant.lease(), run(2));
      LeaseWire.Outcome o = outcome(desk, grant.lease());
      assertThat(o.result()).isEqualTo("success");
      assertThat(ran).hasSize(1);
      assertThat(ran.get(0).firstRank()).isEqualTo(2);
      assertThat(ran.get(0).devices()).containsExactly(0, 1);
      assertThat(laneBack()).as("the run's end gives the lane back").isTrue();
      assertThatThrownBy(() -> desk.start(grant.lease(), run(2)))
          .isInstanceOf(LeaseDesk.NoSuchLease.class)
          .hasMessageContaining(grant.lease());
      assertThat(desk.outcome(grant.lease())).as("still there for the prober").isEqualTo(o);
    }
    assertThat(counts())
        .contains(
            "peer_allreduce responder b:1 refused=1", "peer_allreduce responder a:1 success=1");
  }

  @Test
  void refusesWhileTheLaneIsHeldOrADeviceWasBusyOrNothingIsConfigured() throws Exception {
    try (LeaseDesk desk = desk(Optional.empty())) {
      assertThat(((LeaseWire.Refusal) desk.request(new LeaseWire.Request("a:1", 30))).refused())
          .isEqualTo("peers.collective is not configured on this host");
    }
    try (LeaseDesk desk = desk(collective(Duration.ofSeconds(60)))) {
      lane.acquire();
      assertThat(((LeaseWire.Refusal) desk.request(new LeaseWire.Request("a:1", 30))).refused())
          .isEqualTo("a probe or a check of this host holds the devices");
      lane.release();
      busy = Optional.of("device 1 is busy: pid 4242 holds 2GiB");
      assertThat(((LeaseWire.Refusal) desk.request(new LeaseWire.Request("a:1", 30))).refused())
          .isEqualTo("device 1 is busy: pid 4242 holds 2GiB");
      assertThat(lane.availablePermits()).isOne();
    }
  }

  @Test
  void aBusyDeviceFoundByTheRunIsTheRunsAnswerAndTheLeaseStillEnds() throws Exception {
    answer = Outcome.SKIPPED_DEVICE_BUSY;
    try (LeaseDesk desk = desk(collective(Duration.ofSeconds(60)))) {
      LeaseWire.Grant g = (LeaseWire.Grant) desk.request(new LeaseWire.Request("a:1", 0));
      assertThat(g.seconds()).as("no length asked: the deadline and the slack").isEqualTo(75);
      desk.start(g.lease(), run(1));
      LeaseWire.Outcome o = outcome(desk, g.lease());
      assertThat(o.result()).isEqualTo("skipped_device_busy");
      assertThat(o.error()).isEqualTo("device 0 is busy: pid 4242");
      assertThat(laneBack()).isTrue();
    }
  }

  @Test
  void anUnusedLeaseExpiresOrIsGivenBack() throws Exception {
    try (LeaseDesk desk = desk(collective(Duration.ofSeconds(60)))) {
      LeaseWire.Grant g = (LeaseWire.Grant) desk.request(new LeaseWire.Request("a:1", 1));
      assertThat(lane.availablePermits()).isZero();
      assertThat(lane.tryAcquire(10, TimeUnit.SECONDS)).as("expired after a second").isTrue();
      lane.release();
      assertThatThrownBy(() -> desk.start(g.lease(), run(1)))
          .isInstanceOf(LeaseDesk.NoSuchLease.class);

      LeaseWire.Grant again = (LeaseWire.Grant) desk.request(new LeaseWire.Request("a:1", 30));
      desk.release("not-" + again.lease());
      assertThat(lane.availablePermits()).as("another id gives nothing back").isZero();
      desk.release(again.lease());
      assertThat(lane.availablePermits()).isOne();
    }
    assertThat(ran).isEmpty();
  }

  @Test
  void aRunThisSideCannotTakePartInIsRefusedAndTheLeaseStays() throws Exception {
    try (LeaseDesk desk = desk(collective(Duration.ofSeconds(60)))) {
      LeaseWire.Grant g = (LeaseWire.Grant) desk.request(new LeaseWire.Request("a:1", 30));
      assertThatThrownBy(
              () -> desk.start(g.lease(), new LeaseWire.Run("AAAA", 4, 2, List.of(1001L), 1, 2)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("sizes: 1001 is not an fp16 message size of 2 bytes to 4GiB");
      assertThatThrownBy(() -> desk.start(g.lease(), new LeaseWire.Run("AAAA", 4, 2, null, 1, 2)))
          .hasMessage("sizes: at least one message size");
      assertThatThrownBy(
              () -> desk.start(g.lease(), new LeaseWire.Run("%%", 4, 2, List.of(2L), 1, 2)))
          .hasMessageStartingWith("root_info: not base64");
      assertThatThrownBy(
              () -> desk.start(g.lease(), new LeaseWire.Run("AAAA", 4, 0, List.of(2L), 1, 2)))
          .hasMessage("first_rank: the peer's ranks follow the prober's");
      assertThatThrownBy(
              () ->
                  desk.start(
                      g.lease(), new LeaseWire.Run("AAAA", 4, 2, List.of(2L), 1, 2, "allreduce")))
          .hasMessage(
              "probe: allreduce is not a two-host probe this agent knows (peer_allreduce,"
                  + " peer_p2p)");
      assertThatThrownBy(
              () ->
                  desk.start(
                      g.lease(), new LeaseWire.Run("AAAA", 4, 2, List.of(2L), 1, 2, "peer_p2p")))
          .hasMessage("peer_p2p runs between one device on each host: 2 ranks, not 4 with 1 here");
      assertThat(ran).isEmpty();
      desk.start(g.lease(), run(2));
      assertThat(outcome(desk, g.lease()).result()).isEqualTo("success");
    }
  }

  @Test
  void thePointToPointTakesTheFirstDeviceAndIsCountedAsItself() throws Exception {
    try (LeaseDesk desk = desk(collective(Duration.ofSeconds(60)))) {
      LeaseWire.Grant g =
          (LeaseWire.Grant) desk.request(new LeaseWire.Request("a:1", 30, "peer_p2p"));
      desk.start(g.lease(), new LeaseWire.Run("AAAA", 2, 1, List.of(1024L), 1, 2, "peer_p2p"));
      assertThat(outcome(desk, g.lease()).result()).isEqualTo("success");
      assertThat(ran)
          .singleElement()
          .satisfies(
              s -> {
                assertThat(s.probe()).isEqualTo("peer_p2p");
                assertThat(s.devices()).containsExactly(0);
                assertThat(s.ranks()).isEqualTo(2);
              });
      lane.acquire();
      desk.request(new LeaseWire.Request("b:1", 30, "peer_p2p"));
      lane.release();
    }
    assertThat(counts())
        .contains("peer_p2p responder a:1 success=1", "peer_p2p responder b:1 refused=1");
  }

  /** Whether the lane is free within a few seconds (a run's lease ends just after its outcome). */
  private boolean laneBack() throws InterruptedException {
    if (!lane.tryAcquire(5, TimeUnit.SECONDS)) {
      return false;
    }
    lane.release();
    return true;
  }

  /** The outcome of the run under {@code lease}, once it has one. */
  private static LeaseWire.Outcome outcome(LeaseDesk desk, String lease) throws Exception {
    long end = System.nanoTime() + 10_000_000_000L;
    Object o = desk.outcome(lease);
    while (o == LeaseDesk.RUNNING && System.nanoTime() < end) {
      Thread.sleep(10);
      o = desk.outcome(lease);
    }
    return (LeaseWire.Outcome) o;
  }

  private List<String> counts() {
    MetricFamilies f = new MetricFamilies();
    io.linkwatch.peer.collective.PairMetrics.write(results, f);
    List<String> out = new ArrayList<>();
    f.snapshots()
        .forEach(
            s ->
                s.getDataPoints()
                    .forEach(
                        p -> {
                          if (s.getMetadata().getName().equals("linkwatch_peer_collective_runs")) {
                            out.add(
                                p.getLabels().get("probe")
                                    + " "
                                    + p.getLabels().get("role")
                                    + " "
                                    + p.getLabels().get("peer_host")
                                    + " "
                                    + p.getLabels().get("result")
                                    + "="
                                    + (long)
                                        ((io.prometheus.metrics.model.snapshots.CounterSnapshot
                                                    .CounterDataPointSnapshot)
                                                p)
                                            .getValue());
                          }
                        }));
    return out;
  }
}
