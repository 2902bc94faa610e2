package io.linkwatch.passive;

import io.linkwatch.passive.nic.HccnTool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * Passive watching: link state and counters read every {@code interval} whether or not jobs hold
 * the devices, each read round under {@code deadline}.
 *
 * @param enabled whether anything is read at all
 * @param interval how often every device's counters are read (default 15 s)
 * @param deadline how long one read round of the watcher process may take before it is killed and
 *     the hung call named (default 10 s; shorter than the interval)
 * @param sources the sources switched on ({@code passive.<source>.enabled})
 * @param hccnTool the {@code hccn_tool} program ({@code passive.hccn_tool.command})
 * @param hccnToolTimeout how long one {@code hccn_tool} call may take ({@code
 *     passive.hccn_tool.timeout}, default 3 s)
 */
public record PassiveConfig(
    boolean enabled,
    Duration interval,
    Duration deadline,
    Set<PassiveSource> sources,
    Path hccnTool,
    Duration hccnToolTimeout,
    boolean hccnToolPreferDcmi) {
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(15);
  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(10);

  public PassiveConfig {
    sources = Set.copyOf(sources);
  }

  /** Sources and timings, with {@code hccn_tool} where the driver installs it. */
  public PassiveConfig(
      boolean enabled, Duration interval, Duration deadline, Set<PassiveSource> sources) {
    this(
        enabled,
        interval,
        deadline,
        sources,
        HccnTool.DEFAULT_PROGRAM,
        HccnTool.DEFAULT_TIMEOUT,
        true);
  }

  /**
   * Whether the watcher reads the NPUs' own ports through the public DCMI calls, for the hccn_tool
   * reader to take in place of its {@code -stat}, {@code -net_health} and {@code -ip} calls: both
   * sources on and {@code passive.hccn_tool.prefer_dcmi} not turned off.
   */
  public boolean npuPortsThroughDcmi() {
    return hccnToolPreferDcmi && reads(PassiveSource.DCMI) && reads(PassiveSource.HCCN_TOOL);
  }

  public boolean reads(PassiveSource source) {
    return enabled && sources.contains(source);
  }
}
