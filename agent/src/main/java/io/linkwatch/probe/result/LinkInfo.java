package io.linkwatch.probe.result;

/** The link type between two devices, e.g. {@code SIO}. */
public record LinkInfo(int src, int dst, String link) implements Measurement {
  @Override
  public String summary() {
    return src + "->" + dst + " " + link;
  }
}
