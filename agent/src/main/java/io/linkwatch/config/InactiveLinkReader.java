package io.linkwatch.config;

import io.linkwatch.host.CpuList;
import io.linkwatch.verdict.InactiveLink;
import java.util.List;
import java.util.Optional;

/**
 * One row of the {@code inactive_links} list (the operator's, then the shipped table's): links a
 * product leaves inactive by design ({@link InactiveLink}).
 */
final class InactiveLinkReader {
  private InactiveLinkReader() {}

  static Optional<InactiveLink> read(ConfigNode row) {
    String product = row.scalar("product", "", String::strip);
    String link = row.scalar("link", "", String::strip);
    List<Integer> links = row.scalar("links", List.<Integer>of(), InactiveLinkReader::indices);
    String source = row.scalar("source", "operator: linkwatch.yaml", String::strip);
    row.rejectUnknown();
    boolean ok = true;
    if (product.isEmpty()) {
      row.problem("product", "required: the start of the device name, e.g. NVIDIA H100");
      ok = false;
    }
    if (link.isEmpty()) {
      row.problem("link", "required: the link type, e.g. NVLINK or HCCS");
      ok = false;
    }
    return ok ? Optional.of(new InactiveLink(product, link, links, source)) : Optional.empty();
  }

  private static List<Integer> indices(String text) {
    if (text.isBlank()) {
      throw new IllegalArgumentException(
          "empty: leave the key out for every link of the type, or list them, e.g. 12-17");
    }
    try {
      return CpuList.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "'" + text.strip() + "' is not a list of link indices, e.g. 12-17 or 0,2,4");
    }
  }
}
