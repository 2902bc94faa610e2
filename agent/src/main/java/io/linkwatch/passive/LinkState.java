package io.linkwatch.passive;

import java.util.Map;

/**
 * A link as published: counters unwrapped and traffic in bytes. Null fields have no series.
 *
 * <p>e.g. {@code LinkState[link=3, linkType=HCCS, peer=3, up=true, lanes=2, lanesMax=4,
 * transmitBytes=1624680, receiveBytes=1600340, errors={crc=12, retry=3}, errorsPerSecond=0.05]};
 * {@code errorsPerSecond} is the counted errors' rate over the last minutes ({@link
 * LinkErrorRates}), null until the readings span enough time
 */
public record LinkState(
    String link,
    String linkType,
    String peer,
    Boolean up,
    Integer lanes,
    Integer lanesMax,
    Long transmitBytes,
    Long receiveBytes,
    Map<String, Long> errors,
    Double errorsPerSecond) {
  public LinkState {
    errors = errors == null ? Map.of() : Map.copyOf(errors);
  }

  /**
   * How findings and job reports name this link of {@code device}, e.g. {@code dev0 HCCS link 3 (to
   * 3)}.
   */
  public String subject(int device) {
    return "dev" + device + " " + linkType + " link " + link + " (to " + peer + ")";
  }
}
