package io.linkwatch.metrics;

import io.linkwatch.config.SeriesSettings.LinkCounters;
import io.linkwatch.passive.PassiveStore;
import io.linkwatch.verdict.InactiveLink;
import java.util.List;

/**
 * What {@code /metrics} shows of passive watching, and how.
 *
 * @param store the passive readings
 * @param intervalSeconds {@code passive.interval}
 * @param inactiveLinks the links products leave inactive by design ({@code inactive_links} and the
 *     shipped rows), marked on their link series
 * @param linkCounters the links' traffic and error counters per link or per device ({@code
 *     series.link_counters})
 */
public record PassiveExposition(
    PassiveStore store,
    double intervalSeconds,
    List<InactiveLink> inactiveLinks,
    LinkCounters linkCounters) {
  public PassiveExposition {
    inactiveLinks = List.copyOf(inactiveLinks);
  }
}
