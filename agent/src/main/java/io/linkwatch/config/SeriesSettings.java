package io.linkwatch.config;

/**
 * The {@code series:} section: knobs that cut the series one host exposes, for fleets whose store
 * pays for every one (docs/performance.md, "Series budget"). The defaults keep every series.
 *
 * @param linkCounters the links' traffic and error counters per link, or summed per device and link
 *     type
 * @param probeHealth the probes' health series per target, or one set per probe
 */
public record SeriesSettings(LinkCounters linkCounters, ProbeHealth probeHealth) {
  public static final SeriesSettings DEFAULTS =
      new SeriesSettings(LinkCounters.PER_LINK, ProbeHealth.PER_TARGET);

  /**
   * Link state and lanes stay per link in both: they name a down or downtrained link, and they are
   * few.
   */
  public enum LinkCounters {
    /** One series per link and kind: an error storm names its link. */
    PER_LINK,
    /**
     * Summed per device and link type: an 8 x H200 host's 18 NVLinks a GPU expose 8 series a family
     * instead of 144.
     */
    PER_DEVICE;

    public static LinkCounters parse(String text) {
      return switch (text) {
        case "per_link" -> PER_LINK;
        case "per_device" -> PER_DEVICE;
        default ->
            throw new IllegalArgumentException("'" + text + "' is not per_link or per_device");
      };
    }
  }

  /**
   * The failed-call info series stays per target in both: it exists only while a target fails, and
   * it names the target.
   */
  public enum ProbeHealth {
    /** Success, duration, last success, waits and run counts for every target. */
    PER_TARGET,
    /**
     * One set per probe, its targets folded into the worst of them: success if every target's last
     * run succeeded, the oldest last success, the longest duration, waiting if any target waits,
     * runs summed by result. An 8 x H200 host's 111 targets become 7.
     */
    PER_PROBE;

    public static ProbeHealth parse(String text) {
      return switch (text) {
        case "per_target" -> PER_TARGET;
        case "per_probe" -> PER_PROBE;
        default ->
            throw new IllegalArgumentException("'" + text + "' is not per_target or per_probe");
      };
    }
  }
}
