package io.linkwatch.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.peer.PathVerdict;
import io.linkwatch.peer.PeerFindings;
import io.linkwatch.peer.PeerSnapshot;
import io.linkwatch.testing.PeerFixture;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The peers' families where the snapshot repeats itself. */
class PeerCollectorTest {
  /**
   * The same suspect named twice alike (two judgements that agree) is one series: two would make
   * the client library refuse the whole scrape.
   */
  @Test
  void aSuspectNamedTwiceAlikeIsOneSeries() {
    PeerSnapshot s = PeerFixture.snapshot();
    List<PeerFindings.Suspect> twice = new ArrayList<>(s.suspects());
    PeerFindings.Suspect tor =
        new PeerFindings.Suspect(
            "sw-b", null, PeerFindings.Kind.TOR, PathVerdict.UNREACHABLE, 3, 5);
    twice.add(tor);
    twice.add(tor);
    PeerSnapshot doubled =
        new PeerSnapshot(
            s.source(),
            s.members(),
            s.self(),
            s.selfNic(),
            s.round(),
            s.cover(),
            s.budgetPerHour(),
            s.lastHour(),
            s.shown(),
            s.window(),
            twice,
            s.probes(),
            s.membershipError(),
            s.membershipFailures(),
            s.echoesRefused(),
            s.npu());
    MetricSnapshots all = new PeerCollector(() -> doubled).collect();
    MetricSnapshot suspect =
        all.stream()
            .filter(m -> m.getMetadata().getPrometheusName().equals(PeerCollector.SUSPECT))
            .findFirst()
            .orElseThrow();
    assertThat(suspect.getDataPoints()).hasSize(s.suspects().size() + 1);
  }
}
