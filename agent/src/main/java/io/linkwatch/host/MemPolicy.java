package io.linkwatch.host;

import java.util.List;

/**
 * A memory policy as the kernel prints it in numa_maps ({@code mpol_to_str}): {@code
 * mode[=flags][:nodes]}. {@code "interleave=static:0-3"} is {@code MemPolicy[mode=interleave,
 * flags=[static], nodes=[0, 1, 2, 3]]}; {@code "prefer (many)=relative|balancing:0-1"} has mode
 * {@code "prefer (many)"}. {@code default} and {@code local} carry no nodes.
 */
public record MemPolicy(String mode, List<String> flags, List<Integer> nodes) {
  public MemPolicy {
    flags = List.copyOf(flags);
    nodes = List.copyOf(nodes);
  }

  public static MemPolicy parse(String text) {
    String rest = text.strip();
    List<Integer> nodes = List.of();
    int colon = rest.lastIndexOf(':');
    if (colon >= 0) {
      nodes = CpuList.parse(rest.substring(colon + 1));
      rest = rest.substring(0, colon);
    }
    List<String> flags = List.of();
    int equals = rest.indexOf('=');
    if (equals >= 0) {
      flags = List.of(rest.substring(equals + 1).split("\\|"));
      rest = rest.substring(0, equals);
    }
    return new MemPolicy(rest, flags, nodes);
  }
}
