package io.linkwatch.metrics;

import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmThreadsMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The agent's own footprint, from client_java's standard instrumentation: the process ({@code
 * process_resident_memory_bytes}, {@code process_cpu_seconds_total}, {@code process_open_fds},
 * ...), JVM memory by area and pool, and JVM threads. An agent on every host is judged by what it
 * costs when nothing happens, so the cost is on {@code /metrics} beside what it measures. Only
 * these three: garbage collection, class loading, compilation and buffer pools add series a fleet
 * pays for on every host without a question they answer here.
 */
public final class AgentSelfMetrics {
  private AgentSelfMetrics() {}

  public static void register(PrometheusRegistry registry) {
    ProcessMetrics.builder().register(registry);
    JvmMemoryMetrics.builder().register(registry);
    JvmThreadsMetrics.builder().register(registry);
  }
}
