package io.linkwatch.verdict;

import io.linkwatch.host.CpuList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Links a product leaves inactive by design, so that a host built that way is never flagged: a SKU
 * that wires fewer NVLinks than the GPU has, a sibling die reached over RoCE, not over its HCCS
 * ports. Such a link reads down (or on fewer lanes) at every read; the verdict names no finding for
 * it, and the agent publishes {@code linkwatch_link_inactive_by_design} so the alert rules leave it
 * alone too. Rows come from the config's {@code inactive_links} list, then the shipped table.
 *
 * <pre>
 * inactive_links:
 *   - product: NVIDIA H100      # the start of the device name the topology reports
 *     link: NVLINK              # the link type, as link_type on the passive series
 *     links: 12-17              # the link indices on each device; default: every link of the type
 *     source: this SKU wires 12 of 18 NVLinks
 * </pre>
 *
 * @param product the start of the device name, compared without case
 * @param linkType the link type, compared without case
 * @param links the link indices, ascending; empty for every link of the type
 * @param source why the links are inactive (a product sheet, the operator's word)
 */
public record InactiveLink(String product, String linkType, List<Integer> links, String source) {
  public InactiveLink {
    links = List.copyOf(links);
  }

  public boolean matches(String deviceName, String type, String link) {
    return deviceName != null
        && type != null
        && deviceName.toLowerCase(Locale.ROOT).startsWith(product.toLowerCase(Locale.ROOT))
        && type.equalsIgnoreCase(linkType)
        && (links.isEmpty() || links.stream().anyMatch(l -> String.valueOf(l).equals(link)));
  }

  /** The link indices as the row lists them, e.g. {@code 12-17}; {@code all} for every link. */
  public String linkList() {
    return links.isEmpty() ? "all" : CpuList.format(links);
  }

  /** The first row of {@code table} for this link of a device of this name. */
  public static Optional<InactiveLink> find(
      List<InactiveLink> table, String deviceName, String type, String link) {
    return table.stream().filter(r -> r.matches(deviceName, type, link)).findFirst();
  }

  /** The row as one line, e.g. {@code NVIDIA H100 NVLINK links 12-17 (this SKU wires 12 of 18)}. */
  public String describe() {
    return product
        + " "
        + linkType
        + (links.isEmpty() ? " every link" : " links " + linkList())
        + " ("
        + source
        + ")";
  }
}
