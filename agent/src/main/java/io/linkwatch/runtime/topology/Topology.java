package io.linkwatch.runtime.topology;

import io.linkwatch.runtime.LinkType;
import java.util.Map;
import java.util.Optional;

/**
 * Link types between devices and, where the source shows it, each device's CPU affinity. {@code
 * source} names where it came from ({@code aclrtGetDevicesTopo}, {@code npu-smi}, {@code none}).
 *
 * <p>Keys of {@code links} are {@code "src->dst"}.
 */
public record Topology(
    String source, Map<String, LinkType> links, Map<Integer, String> cpuAffinity) {
  public static final Topology NONE = new Topology("none", Map.of(), Map.of());

  public Topology {
    links = Map.copyOf(links);
    cpuAffinity = Map.copyOf(cpuAffinity);
  }

  public LinkType link(int src, int dst) {
    return links.getOrDefault(src + "->" + dst, LinkType.UNKNOWN);
  }

  public Optional<String> affinity(int device) {
    return Optional.ofNullable(cpuAffinity.get(device));
  }
}
