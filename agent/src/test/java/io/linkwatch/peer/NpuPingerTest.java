package io.linkwatch.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linkwatch.passive.nic.HccnTool;
import io.linkwatch.testing.SimControl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NPU ports' pings through the sim's {@code hccn_tool -ping}, which sends real ICMP echoes from
 * the port's address (here on loopback; 10.255.255.0/24 routes nowhere, so its echoes are lost),
 * and the findings judged per port from them.
 */
class NpuPingerTest {
  private static final String A = "10.0.0.1:10187";
  private static final String B = "10.0.0.2:10187";
  private static final String C = "10.0.0.3:10187";
  private static final String SELF = "10.0.0.9:10187";
  private static final String LOST = "10.255.255.9";

  @TempDir Path dir;

  private final Map<String, SortedMap<Integer, String>> identities = new TreeMap<>();
  private final AtomicInteger identityRequests = new AtomicInteger();

  private NpuPinger pinger() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "raw ICMP sockets need root (CI runs as root)");
    Path conf =
        Files.writeString(dir.resolve("hccn.conf"), "address_0=127.0.0.1\naddress_1=127.0.0.1\n");
    HccnTool tool =
        new HccnTool(
            Path.of(System.getenv("LINKWATCH_NATIVE_BUILD"), "hccn_tool"),
            Duration.ofSeconds(5),
            Map.of(
                "PATH", System.getenv("PATH"),
                "LINKWATCH_SIM_CONTROL", dir.resolve("control").toString(),
                "LINKWATCH_SIM_HCCN_CONF", conf.toString()));
    identities.put(A, ports("127.0.0.2", "127.0.0.3"));
    identities.put(B, ports("127.0.0.4", LOST));
    identities.put(C, ports("127.0.0.5", "127.0.0.6"));
    return new NpuPinger(
        HccnConf.read(conf),
        tool::ping,
        new PeerIdentities(
            member -> {
              identityRequests.incrementAndGet();
              SortedMap<Integer, String> p = identities.get(member);
              StringBuilder json = new StringBuilder("{\"npu_ports\": [");
              p.forEach(
                  (d, a) ->
                      json.append(json.charAt(json.length() - 1) == '[' ? "" : ",")
                          .append("{\"device\": ")
                          .append(d)
                          .append(", \"address\": \"")
                          .append(a)
                          .append("\"}"));
              return json.append("]}").toString();
            },
            Clock.systemUTC()),
        0.05,
        Clock.systemUTC());
  }

  private static SortedMap<Integer, String> ports(String npu0, String npu1) {
    return new TreeMap<>(Map.of(0, npu0, 1, npu1));
  }

  private static PathResult path(NpuPinger p, String peer, String nic) {
    return p.latest().stream()
        .filter(r -> r.peer().equals(peer) && r.srcNic().equals(nic))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no path " + nic + " to " + peer + ": " + p.latest()));
  }

  /** Whom port {@code nic}'s paths name, as the prober's snapshot judges each port. */
  private static List<PeerFindings.Suspect> judged(NpuPinger p, String nic) {
    return PeerFindings.judge(
        SELF, nic, p.latest().stream().filter(r -> r.srcNic().equals(nic)).toList());
  }

  @Test
  void aPeersDeadPortIsNamedAfterTheSamePortAnsweredElsewhere() throws Exception {
    NpuPinger p = pinger();
    p.round(new NpuPinger.Meeting(List.of(A), List.of(A, B, C)));
    assertThat(path(p, A, "npu0").ok()).isTrue();
    assertThat(path(p, A, "npu1").ok()).isTrue();
    assertThat(path(p, A, "npu1").dstNic()).isEqualTo("npu1");
    assertThat(path(p, A, "npu1").received()).isEqualTo(3);
    assertThat(path(p, A, "npu1").rttP50()).isPositive().isLessThan(0.5);

    p.round(new NpuPinger.Meeting(List.of(B), List.of(A, B, C)));
    PathResult dead = path(p, B, "npu1");
    assertThat(dead.verdict()).isEqualTo(PathVerdict.UNREACHABLE);
    assertThat(dead.sent()).isEqualTo(3);
    assertThat(dead.othersAnswered()).as("the second pass through A and C on npu1").isEqualTo(2);
    assertThat(path(p, B, "npu0").ok()).as("B's other port answers").isTrue();
    assertThat(path(p, C, "npu1").secondPass()).isTrue();
    assertThat(p.counts()).containsEntry("sent", 4L).containsEntry("second_pass", 2L);

    List<PeerFindings.Suspect> npu1 = judged(p, "npu1");
    assertThat(npu1)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.kind()).isEqualTo(PeerFindings.Kind.PEER);
              assertThat(s.host()).isEqualTo(B);
              assertThat(s.nic()).isEqualTo("npu1");
            });
    assertThat(judged(p, "npu0")).as("nobody on npu0").isEmpty();
    // Identities are kept: three members asked once each over the two rounds.
    assertThat(identityRequests).hasValue(3);
  }

  @Test
  void everyPortOfADeadPeerGetsItsOwnSecondPass() throws Exception {
    NpuPinger p = pinger();
    identities.put(B, ports(LOST, "10.255.255.10"));
    p.round(new NpuPinger.Meeting(List.of(B), List.of(A, B, C)));
    // Port 0's second pass went through A and C; port 1 still needs them on its own port.
    assertThat(path(p, B, "npu0").othersAnswered()).isEqualTo(2);
    assertThat(path(p, B, "npu1").othersAnswered()).isEqualTo(2);
    assertThat(judged(p, "npu0")).extracting(PeerFindings.Suspect::host).containsExactly(B);
    assertThat(judged(p, "npu1")).extracting(PeerFindings.Suspect::host).containsExactly(B);
  }

  @Test
  void aRoundThatComesWhileTheLastOnesPingsRunIsLeftOutNotQueued() throws Exception {
    NpuPinger p = pinger();
    identities.put(B, ports(LOST, "10.255.255.10"));
    p.start();
    try {
      p.meet(List.of(B), List.of(A, B, C)); // about 18 s of lost echoes: 2 ports, 2 passes each
      p.meet(List.of(A), List.of(A, B, C));
      p.meet(List.of(C), List.of(A, B, C));
      assertThat(p.counts()).containsEntry("skipped_busy", 2L);
      long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (p.latest().size() < 6 && System.nanoTime() < end) {
        Thread.sleep(200);
      }
      assertThat(p.counts())
          .as("only the first round ran: B's two ports, then A's and C's as second passes")
          .containsEntry("sent", 2L)
          .containsEntry("second_pass", 4L);
    } finally {
      p.close();
    }
  }

  @Test
  void aDeadPortHereNamesItselfAndNoPeer() throws Exception {
    NpuPinger p = pinger();
    SimControl.write(dir.resolve("control"), "nic 1 down");
    p.round(new NpuPinger.Meeting(List.of(A, C), List.of(A, B, C)));
    assertThat(path(p, A, "npu0").ok()).isTrue();
    assertThat(path(p, A, "npu1").verdict()).isEqualTo(PathVerdict.UNREACHABLE);
    assertThat(path(p, C, "npu1").verdict()).isEqualTo(PathVerdict.UNREACHABLE);
    List<PeerFindings.Suspect> npu1 = judged(p, "npu1");
    assertThat(npu1)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.kind()).isEqualTo(PeerFindings.Kind.SELF);
              assertThat(s.nic()).isEqualTo("npu1");
            });
  }

  @Test
  void aToolThatCannotPingIsNoPathVerdict() throws Exception {
    NpuPinger p = pinger();
    SimControl.write(dir.resolve("control"), "fail hccn_tool:-ping 1");
    p.round(new NpuPinger.Meeting(List.of(A), List.of(A, B, C)));
    assertThat(p.latest()).as("no path judged on a tool's failure").isEmpty();
    assertThat(p.counts()).containsEntry("failed", 2L);
    assertThat(p.lastError()).startsWith("npu0: hccn_tool -ping: exit status 1");
  }

  @Test
  void thePortsOfTheFileArePairedWithTheSameIndexOnly() throws Exception {
    NpuPinger p = pinger();
    identities.put(A, new TreeMap<>(Map.of(1, "127.0.0.3", 2, "127.0.0.7")));
    p.round(new NpuPinger.Meeting(List.of(A), List.of(A, B, C)));
    assertThat(p.latest())
        .as("npu1 only: A has no npu0, and its npu2 is no stand-in for it")
        .extracting(PathResult::srcNic, PathResult::dstNic)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("npu1", "npu1"));
  }

  @Test
  void withoutAddressesAutoPingsNothingAndTrueSaysWhy() throws Exception {
    HccnTool tool =
        new HccnTool(
            Path.of(System.getenv("LINKWATCH_NATIVE_BUILD"), "hccn_tool"),
            Duration.ofSeconds(5),
            Map.of("PATH", System.getenv("PATH")));
    Path missing = dir.resolve("no-hccn.conf");
    Path empty = Files.writeString(dir.resolve("empty.conf"), "# no ports\nnetmask_0=255.0.0.0\n");
    PeerIdentities.Fetch never =
        member -> {
          throw new AssertionError("no identity is asked for without a port here");
        };
    assertThat(
            NpuPinger.of(
                config(PeerConfig.NpuPing.Mode.AUTO, missing), tool, never, Clock.systemUTC()))
        .isNull();
    assertThat(
            NpuPinger.of(
                config(PeerConfig.NpuPing.Mode.OFF, empty), tool, never, Clock.systemUTC()))
        .isNull();
    NpuPinger on =
        NpuPinger.of(config(PeerConfig.NpuPing.Mode.ON, missing), tool, never, Clock.systemUTC());
    assertThat(on.lastError()).isEqualTo(missing + " does not exist");
    on.round(new NpuPinger.Meeting(List.of(A), List.of(A, B)));
    assertThat(on.latest()).isEmpty();
    assertThat(
            NpuPinger.of(config(PeerConfig.NpuPing.Mode.ON, empty), tool, never, Clock.systemUTC())
                .lastError())
        .isEqualTo(empty + " lists no NPU port address (address_N=IP)");
  }

  private static PeerConfig config(PeerConfig.NpuPing.Mode mode, Path hccnConf) {
    PeerConfig d = PeerConfig.NONE;
    return new PeerConfig(
        d.staticMembers(),
        d.httpSd(),
        d.httpSdRefresh(),
        d.slurm(),
        d.kubernetes(),
        d.self(),
        d.round(),
        d.budgetPerHour(),
        d.echoes(),
        d.payloadBytes(),
        d.timeout(),
        d.lossThreshold(),
        d.collective(),
        new PeerConfig.NpuPing(mode, hccnConf),
        d.httpConfigFile());
  }

  @Test
  void hccnConfGivesTheAddressesByDevice() {
    assertThat(
            HccnConf.parse(
                "# ranks\naddress_0=10.0.0.10\nnetmask_0=255.255.255.0\n address_7 = 10.0.0.17\n"
                    + "address_x=1.2.3.4\naddress_3=not-an-ip\n"))
        .containsExactly(Map.entry(0, "10.0.0.10"), Map.entry(7, "10.0.0.17"));
  }

  @Test
  void anIdentityWithoutPortsHasNone() {
    assertThat(PeerIdentities.parse("{\"member\": \"a:1\", \"nics\": []}")).isEmpty();
    assertThat(
            PeerIdentities.parse(
                "{\"npu_ports\": [{\"device\": 3, \"nic\": \"npu3\", \"address\": \"10.1.1.3\"}]}"))
        .containsExactly(Map.entry(3, "10.1.1.3"));
  }
}
