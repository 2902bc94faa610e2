package io.linkwatch.peer;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each peer says of itself on {@code /api/v1/identity}, kept for a while: its NPU ports and
 * their addresses, which no membership source carries. A peer is asked again after {@link #KEEP}
 * (an address may be changed), or after {@link #RETRY} when it did not answer.
 */
public final class PeerIdentities {
  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(PeerIdentities.class);

  /** How long an identity is used before it is asked for again. */
  static final Duration KEEP = Duration.ofMinutes(10);

  /** How soon a peer that did not answer is asked again. */
  static final Duration RETRY = Duration.ofMinutes(1);

  /** Asks a member for its identity document; throws with a short reason when it cannot. */
  @FunctionalInterface
  public interface Fetch {
    String identity(String member) throws Exception;
  }

  private record Entry(SortedMap<Integer, String> npuPorts, Instant at, String error) {}

  private final Fetch fetch;
  private final Clock clock;
  private final Map<String, Entry> known = new ConcurrentHashMap<>();

  public PeerIdentities(Fetch fetch, Clock clock) {
    this.fetch = fetch;
    this.clock = clock;
  }

  /**
   * {@code member}'s NPU ports by device, asked for when not known or too old; the last known ports
   * (or none) when it does not answer.
   */
  public SortedMap<Integer, String> npuPorts(String member) throws InterruptedException {
    Instant now = clock.instant();
    Entry e = known.get(member);
    Duration age = e == null ? null : Duration.between(e.at(), now);
    if (e != null && age.compareTo(e.error() == null ? KEEP : RETRY) < 0) {
      return e.npuPorts();
    }
    try {
      known.put(member, new Entry(parse(fetch.identity(member)), now, null));
    } catch (InterruptedException ie) {
      throw ie;
    } catch (Exception ex) {
      String why = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
      if (e == null || e.error() == null) {
        // Once per run of failures: its NPU ports go unpinged (or pinged at the last addresses
        // known) until it answers.
        log.warn("peers: cannot read the identity of {}: {}", member, why);
      }
      known.put(
          member, new Entry(e == null ? Collections.emptySortedMap() : e.npuPorts(), now, why));
    }
    return known.get(member).npuPorts();
  }

  /** Why {@code member}'s identity could not be read when last asked, or null. */
  public String error(String member) {
    Entry e = known.get(member);
    return e == null ? null : e.error();
  }

  /** Forgets members no longer listed. */
  public void retain(java.util.Collection<String> members) {
    known.keySet().retainAll(members);
  }

  /**
   * The NPU ports of an identity document ({@code "npu_ports": [{"device": 0, "address": ...}]}).
   */
  static SortedMap<Integer, String> parse(String json) {
    JsonElement root = JsonParser.parseString(json);
    if (!root.isJsonObject()) {
      throw new IllegalArgumentException("the identity is not a JSON object");
    }
    SortedMap<Integer, String> out = new TreeMap<>();
    JsonElement ports = ((JsonObject) root).get("npu_ports");
    if (ports == null || !ports.isJsonArray()) {
      return Collections.unmodifiableSortedMap(out); // an agent without NPU ports, or an older one
    }
    for (JsonElement p : ports.getAsJsonArray()) {
      if (p.isJsonObject()
          && p.getAsJsonObject().has("device")
          && p.getAsJsonObject().has("address")) {
        out.put(
            p.getAsJsonObject().get("device").getAsInt(),
            p.getAsJsonObject().get("address").getAsString());
      }
    }
    return Collections.unmodifiableSortedMap(out);
  }
}
