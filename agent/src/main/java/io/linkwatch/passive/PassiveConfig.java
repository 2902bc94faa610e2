package io.linkwatch.passive;

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
 */
public record PassiveConfig(
    boolean enabled, Duration interval, Duration deadline, Set<PassiveSource> sources) {
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(15);
  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(10);

  public PassiveConfig {
    sources = Set.copyOf(sources);
  }

  public boolean reads(PassiveSource source) {
    return enabled && sources.contains(source);
  }
}
