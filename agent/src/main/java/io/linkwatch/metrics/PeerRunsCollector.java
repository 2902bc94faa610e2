package io.linkwatch.metrics;

import io.linkwatch.metrics.families.MetricFamilies;
import io.linkwatch.peer.collective.PairResults;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/** The two-host runs' series ({@link PairResults} lists them), on every scrape. */
public final class PeerRunsCollector implements MultiCollector {
  private final PairResults results;

  public PeerRunsCollector(PairResults results) {
    this.results = results;
  }

  @Override
  public MetricSnapshots collect() {
    MetricFamilies f = new MetricFamilies();
    io.linkwatch.peer.collective.PairMetrics.write(results, f);
    return new MetricSnapshots(f.snapshots());
  }
}
