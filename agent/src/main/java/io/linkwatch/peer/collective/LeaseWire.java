package io.linkwatch.peer.collective;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import io.linkwatch.registry.ProbeKind;
import java.util.List;

/**
 * What two agents say to each other about a lease, as JSON over the agents' own HTTP (same TLS and
 * auth as the rest of the API):
 *
 * <pre>
 * POST /api/v1/peer/lease              {"from":"node-01:10187","seconds":60,"probe":"peer_p2p"}
 *   200 {"lease":"3f…","devices":[0],"seconds":60}     409 {"refused":"a probe of this host holds the devices"}
 * POST /api/v1/peer/lease/ID/run       {"root_info":"…base64…","ranks":2,"first_rank":1,"sizes":[1024],"warmup":2,"iterations":10,"probe":"peer_p2p"}
 *   202 {"state":"running"}                            400 a run this side cannot take part in
 * GET /api/v1/peer/lease/ID            202 {"state":"running"}, then
 *   200 {"result":"success","error":"","seconds":3.1}  (the peer's side of the run)
 * DELETE /api/v1/peer/lease/ID         204
 * </pre>
 *
 * One lease, one run of one probe. A {@code probe} left out is {@code peer_allreduce}, the only one
 * the first agents with two-host runs knew. The run is asked for and its outcome fetched in two
 * steps, so that no request stays open for the length of a run (the agents' HTTP side closes a
 * connection silent for its request timeout).
 */
public final class LeaseWire {
  private LeaseWire() {}

  static final Gson GSON =
      new GsonBuilder()
          .setFieldNamingPolicy(com.google.gson.FieldNamingPolicy.LOWER_CASE_WITH_UNDERSCORES)
          .create();

  /** A prober asks for this host's devices for {@code seconds}, to run {@code probe}. */
  public record Request(String from, long seconds, String probe) {
    public Request(String from, long seconds) {
      this(from, seconds, null);
    }

    /** The probe asked for; {@code peer_allreduce} where left out. */
    public String probeOrDefault() {
      return probe == null ? ProbeKind.PEER_ALLREDUCE : probe;
    }
  }

  /** A granted lease: its id, the devices it holds and for how long. */
  public record Grant(String lease, List<Integer> devices, long seconds) {}

  /** A refusal, with the reason: the prober counts the run as skipped. */
  public record Refusal(String refused) {}

  /** The run under a lease: the group's blob and this side's ranks, the prober's sizes. */
  public record Run(
      String rootInfo,
      int ranks,
      int firstRank,
      List<Long> sizes,
      int warmup,
      int iterations,
      String probe) {
    public Run(
        String rootInfo, int ranks, int firstRank, List<Long> sizes, int warmup, int iterations) {
      this(rootInfo, ranks, firstRank, sizes, warmup, iterations, null);
    }

    /** The probe to run; {@code peer_allreduce} where left out. */
    public String probeOrDefault() {
      return probe == null ? ProbeKind.PEER_ALLREDUCE : probe;
    }
  }

  /** A run still going on. */
  public record State(String state) {}

  /** How this side's part of the run ended. */
  public record Outcome(String result, String error, double seconds) {}

  public static String write(Object o) {
    return GSON.toJson(o);
  }

  /** {@code json} as {@code type}; a body that is not one names what was wrong. */
  public static <T> T read(String json, Class<T> type) {
    try {
      T value = GSON.fromJson(json, type);
      if (value == null) {
        throw new IllegalArgumentException("an empty body is not a " + type.getSimpleName());
      }
      return value;
    } catch (JsonParseException e) {
      throw new IllegalArgumentException(
          "not a " + type.getSimpleName() + " document: " + e.getMessage(), e);
    }
  }
}
