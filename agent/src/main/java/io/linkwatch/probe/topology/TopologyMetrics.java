package io.linkwatch.probe.topology;

import io.linkwatch.metrics.families.MetricWriter;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.LinkInfo;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;

/**
 * Series of the topology probe, e.g.
 *
 * <pre>
 * linkwatch_link_info{dst="1",link_type="SIO",src="0"} 1
 * linkwatch_device_info{device="0",name="Ascend910_9382",phy_id="2"} 1
 * linkwatch_device_memory_total_bytes{device="0"} 6.8719476736E10
 * </pre>
 */
public final class TopologyMetrics {
  /** Info families: the exposition appends {@code _info}. */
  public static final String LINK = "linkwatch_link";

  public static final String DEVICE = "linkwatch_device";
  public static final String MEMORY_TOTAL = "linkwatch_device_memory_total_bytes";

  public static final MetricWriter<LinkInfo> LINK_WRITER =
      (l, f) ->
          f.info(
              LINK,
              "Link type between two devices, from the topology.",
              "dst",
              String.valueOf(l.dst()),
              "link_type",
              l.link(),
              "src",
              String.valueOf(l.src()));

  public static final MetricWriter<DeviceInfo> DEVICE_WRITER =
      (d, f) -> {
        List<String> labels =
            new ArrayList<>(List.of("device", String.valueOf(d.device()), "name", d.name()));
        if (d.numaNode() != null) {
          labels.addAll(List.of("numa_node", String.valueOf(d.numaNode())));
        }
        if (d.physicalId() != null) {
          labels.addAll(List.of("phy_id", String.valueOf(d.physicalId())));
        }
        f.info(DEVICE, "One series per device, with its inventory.", labels.toArray(String[]::new));
        f.result(MEMORY_TOTAL, "Total device memory.", Unit.BYTES)
            .add(d.memoryTotalBytes(), "device", String.valueOf(d.device()));
      };

  private TopologyMetrics() {}
}
