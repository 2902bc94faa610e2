package io.linkwatch.history;

import io.linkwatch.probe.collective.AllgatherBusBandwidth;
import io.linkwatch.probe.collective.AllgatherLatency;
import io.linkwatch.probe.collective.AllreduceBusBandwidth;
import io.linkwatch.probe.collective.AllreduceLatency;
import io.linkwatch.probe.devicememory.DeviceMemoryBandwidth;
import io.linkwatch.probe.hosttransfer.HostBufferPages;
import io.linkwatch.probe.hosttransfer.HostTransferBandwidth;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.p2p.P2pBidirectionalBandwidth;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One run of every charted probe on a machine of {@code devices} devices and {@code nodes} NUMA
 * nodes under the default config's targets and sizes (p2p and bidirectional at 256 MiB, host
 * transfer at 64 MiB pinned and pageable, device memory at 1 GiB, allreduce and allgather at 1 KiB
 * and 256 MiB over all devices), with figures scaled by {@code scale}.
 */
final class HistoryRuns {
  static final long MIB = 1L << 20;

  private HistoryRuns() {}

  static List<ProbeRun> of(int devices, int nodes, double scale) {
    List<TargetResult> p2p = new ArrayList<>();
    List<TargetResult> bidirectional = new ArrayList<>();
    for (int s = 0; s < devices; s++) {
      for (int d = 0; d < devices; d++) {
        if (s != d) {
          p2p.add(
              ok(s + "->" + d, new P2pBandwidth(s, d, "HCCS", 256 * MIB, 1.5e11 * scale, 1e-3)));
        }
        if (s < d) {
          bidirectional.add(
              ok(
                  s + "<->" + d,
                  new P2pBidirectionalBandwidth(s, d, "HCCS", 256 * MIB, 2.9e11 * scale, 2e-3)));
        }
      }
    }
    List<TargetResult> host = new ArrayList<>();
    List<TargetResult> local = new ArrayList<>();
    for (int d = 0; d < devices; d++) {
      for (int n = 0; n < nodes; n++) {
        List<Measurement> m = new ArrayList<>();
        for (String memory : List.of("pinned", "pageable")) {
          for (String direction : List.of(HostTransferBandwidth.H2D, HostTransferBandwidth.D2H)) {
            m.add(
                new HostTransferBandwidth(
                    d,
                    direction,
                    memory,
                    n,
                    String.valueOf(n),
                    64 * MIB,
                    5e10 * scale,
                    "numa_maps"));
          }
          m.add(new HostBufferPages(d, memory, n, n, 1.0));
        }
        host.add(ok("dev" + d + "/node" + n, m.toArray(Measurement[]::new)));
      }
      local.add(ok("dev" + d, new DeviceMemoryBandwidth(d, 1024 * MIB, 6e11 * scale)));
    }
    String all =
        IntStream.range(0, devices).mapToObj(String::valueOf).collect(Collectors.joining(","));
    List<Measurement> allreduce = new ArrayList<>();
    List<Measurement> allgather = new ArrayList<>();
    for (long size : List.of(1024L, 256 * MIB)) {
      allreduce.add(new AllreduceLatency(all, size, 2.7e-4 / scale, 2.9e-4, 50, 0.0137));
      allreduce.add(new AllreduceBusBandwidth(all, size, 1e11 * scale, 1.7e11 * scale));
      allgather.add(new AllgatherLatency(all, size, 2.5e-4 / scale, 2.8e-4, 50, 0.0126));
      allgather.add(new AllgatherBusBandwidth(all, size, 1e11 * scale, 0.9e11 * scale));
    }
    return List.of(
        ProbeRun.of("p2p", p2p),
        ProbeRun.of("p2p_bidirectional", bidirectional),
        ProbeRun.of("host_transfer", host),
        ProbeRun.of("device_memory", local),
        ProbeRun.of("allreduce", List.of(ok(all, allreduce.toArray(Measurement[]::new)))),
        ProbeRun.of("allgather", List.of(ok(all, allgather.toArray(Measurement[]::new)))));
  }

  static TargetResult ok(String target, Measurement... m) {
    return TargetResult.success(target, 0.1, List.of(m));
  }
}
