package io.linkwatch.peer;

/**
 * The labels of a member's target group in the HTTP service-discovery JSON the agents serve and
 * read. Meta labels: Prometheus offers them to relabeling ({@code __meta_linkwatch_tor} to a {@code
 * rack} label, say) and drops them after, so a fleet that scrapes from this list gets no {@code
 * tor} target label colliding with the {@code tor} of the peer series. A list written by hand may
 * use plain {@code tor} and {@code rail}.
 */
public final class HttpSdLabels {
  public static final String TOR = "__meta_linkwatch_tor";
  public static final String RAIL = "__meta_linkwatch_rail";

  private HttpSdLabels() {}
}
