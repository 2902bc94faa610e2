package io.linkwatch.config;

import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.registry.ProbeKind;
import java.time.Duration;

/**
 * One probe's place in the agent: whether it runs, when, how long it may take, and its settings.
 */
public record ProbeConfig(
    ProbeKind kind,
    boolean enabled,
    Schedule schedule,
    Duration deadline,
    ProbeSettings settings) {}
