package io.linkwatch.peer;

import io.linkwatch.peer.PeerSchedule.Member;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The {@code peers:} section: who this agent probes between servers, and how hard.
 *
 * @param staticMembers {@code peers.static}: the members, this host among them
 * @param httpSd {@code peers.http_sd}: a Prometheus HTTP service-discovery URL listing the members
 * @param httpSdRefresh how often that URL is read again
 * @param slurm {@code peers.slurm}: the members are Slurm's nodes
 * @param kubernetes {@code peers.kubernetes}: the members are the ready endpoints of a Service
 * @param self {@code peers.self}: this host as the member list names it ({@code host:port}); empty:
 *     the member whose address is one of this machine's and whose port is the agent's
 * @param round the shortest round: each round a member meets one or two partners (more under a
 *     shared switch)
 * @param budgetPerHour probes a member takes part in, sent or answered, in any hour at most
 * @param echoes datagrams in one probe's train
 * @param payloadBytes the size of each datagram
 * @param timeout how long the last echo is waited for, and the TCP connect's limit
 * @param lossThreshold the share of echoes lost above which a path is lossy
 * @param collective {@code peers.collective}: collective bandwidth between two hosts, only while
 *     both are idle; empty: none
 * @param npuPing {@code peers.npu_ping}: pings from this host's NPU ports to its peers' same ports
 * @param httpConfigFile how this host asks its peers' agents (their identities; their leases unless
 *     {@code peers.collective} names its own) where they want TLS or a login: a Prometheus HTTP
 *     client config; empty: plain HTTP, no login
 */
public record PeerConfig(
    List<Member> staticMembers,
    Optional<URI> httpSd,
    Duration httpSdRefresh,
    Optional<Slurm> slurm,
    Optional<Kubernetes> kubernetes,
    Optional<String> self,
    Duration round,
    int budgetPerHour,
    int echoes,
    int payloadBytes,
    Duration timeout,
    double lossThreshold,
    Optional<Collective> collective,
    NpuPing npuPing,
    Optional<java.nio.file.Path> httpConfigFile) {

  public static final Duration DEFAULT_ROUND = Duration.ofSeconds(60);
  public static final Duration DEFAULT_REFRESH = Duration.ofMinutes(1);
  public static final int DEFAULT_BUDGET = 240;

  /**
   * The smallest budget: a member plans with a quarter of it (each meeting is two probes, one each
   * way, and half is kept for second passes and for peers whose view of the members differs), and
   * takes part in up to four meetings a round (two in the fabric's circle, two in its switch's).
   */
  public static final int MIN_BUDGET = 16;

  public static final int DEFAULT_ECHOES = 20;
  public static final int DEFAULT_PAYLOAD = 64;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);
  public static final double DEFAULT_LOSS_THRESHOLD = 0.05;

  public static final PeerConfig NONE =
      new PeerConfig(
          List.of(),
          Optional.empty(),
          DEFAULT_REFRESH,
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          DEFAULT_ROUND,
          DEFAULT_BUDGET,
          DEFAULT_ECHOES,
          DEFAULT_PAYLOAD,
          DEFAULT_TIMEOUT,
          DEFAULT_LOSS_THRESHOLD,
          Optional.empty(),
          NpuPing.DEFAULTS,
          Optional.empty());

  public PeerConfig {
    staticMembers = List.copyOf(staticMembers);
  }

  /**
   * Two-host runs of the allreduce ({@code peer_allreduce}): each round a member runs with the
   * partner the fleet's circle gives it (the member whose name sorts first asks the other for a
   * lease), so every pair has run once in {@code n - 1} rounds.
   *
   * @param every how long a round lasts
   * @param deadline how long one run may take on either side; the lease lasts as long
   * @param devices this host's devices in a run, one rank each
   * @param sizes message sizes in bytes (fp16, even)
   * @param warmup untimed rounds per size
   * @param iterations timed rounds per size
   * @param httpConfigFile how this host asks its peers for leases where their agents want TLS or a
   *     login: a Prometheus HTTP client config (a {@code tls_config} makes the requests https);
   *     empty: plain HTTP, no login
   */
  public record Collective(
      Duration every,
      Duration deadline,
      List<Integer> devices,
      List<Long> sizes,
      int warmup,
      int iterations,
      List<String> probes,
      Optional<java.nio.file.Path> httpConfigFile) {
    public static final Duration DEFAULT_EVERY = Duration.ofMinutes(30);
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(60);

    /**
     * One device a side, 1 KiB for latency and 64 MiB for bandwidth: a quarter of the in-host
     * default's large size, as the wire between hosts is several times slower than HCCS.
     */
    public static final Collective DEFAULTS =
        new Collective(
            DEFAULT_EVERY,
            DEFAULT_DEADLINE,
            List.of(0),
            List.of(1L << 10, 64L << 20),
            2,
            10,
            io.linkwatch.registry.ProbeKind.PEER_PROBES,
            Optional.empty());

    public Collective {
      devices = List.copyOf(devices);
      sizes = List.copyOf(sizes);
      probes = List.copyOf(probes);
    }
  }

  /**
   * Pings from each NPU port to the same port of the peers met ({@code hccn_tool -ping}, the tool
   * {@code passive.hccn_tool.command} names), their addresses from {@code hccnConf} here and from
   * each peer's {@code /api/v1/identity} there.
   *
   * @param mode {@code auto} (the default): where the file lists addresses and the tool is
   *     installed; {@code true}: always, a missing tool or file reported in the status; {@code
   *     false}: never
   * @param hccnConf the file the NPU ports' addresses are read from ({@code address_N=IP})
   */
  public record NpuPing(Mode mode, java.nio.file.Path hccnConf) {
    public enum Mode {
      AUTO,
      ON,
      OFF
    }

    public static final NpuPing DEFAULTS =
        new NpuPing(Mode.AUTO, java.nio.file.Path.of("/etc/hccn.conf"));
  }

  /**
   * The members from Slurm's node list.
   *
   * @param partition the partition whose nodes are the members; empty for every node
   * @param port the agents' port on every node
   * @param refresh how often the list is read again
   */
  public record Slurm(Optional<String> partition, int port, Duration refresh) {
    public static final Duration DEFAULT_REFRESH = Duration.ofMinutes(5);
  }

  /**
   * The members from a Kubernetes Service: the ready endpoints of its EndpointSlices (label {@code
   * kubernetes.io/service-name}), each on the endpoint port of that name, read from the API server
   * with the pod's service-account token.
   *
   * @param service the Service (headless, over the agents' DaemonSet)
   * @param namespace its namespace; empty: the pod's own, from {@code namespace} beside the token
   * @param port the name of the endpoint port the agents listen on
   * @param refresh how often the slices are read again
   * @param apiServer the API server's base URL; empty: {@code https://$KUBERNETES_SERVICE_HOST:
   *     $KUBERNETES_SERVICE_PORT}, as in a pod
   * @param tokenFile the bearer token, read again for every request (bound tokens rotate)
   * @param caFile the CA the API server's certificate is checked against
   */
  public record Kubernetes(
      String service,
      Optional<String> namespace,
      String port,
      Duration refresh,
      Optional<java.net.URI> apiServer,
      java.nio.file.Path tokenFile,
      java.nio.file.Path caFile) {
    /** Where the kubelet mounts a pod's service-account token, CA and namespace. */
    public static final java.nio.file.Path SERVICE_ACCOUNT =
        java.nio.file.Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    public static final String DEFAULT_PORT = "metrics";
    public static final Duration DEFAULT_REFRESH = Duration.ofMinutes(1);
    public static final java.nio.file.Path DEFAULT_TOKEN_FILE = SERVICE_ACCOUNT.resolve("token");
    public static final java.nio.file.Path DEFAULT_CA_FILE = SERVICE_ACCOUNT.resolve("ca.crt");
  }

  /** Whether any membership source is configured: without one the agent probes no peer. */
  public boolean enabled() {
    return !staticMembers.isEmpty()
        || httpSd.isPresent()
        || slurm.isPresent()
        || kubernetes.isPresent();
  }

  /** The probes a member plans for an hour: a quarter of the budget (see {@link #MIN_BUDGET}). */
  public int plannedMeetingsPerHour() {
    return budgetPerHour / 4;
  }
}
