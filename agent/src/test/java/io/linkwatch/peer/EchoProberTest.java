package io.linkwatch.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A probe over loopback against a real responder, a closed port and a silent one. */
class EchoProberTest {
  private final EchoProber prober =
      new EchoProber(5, 100, Duration.ofMillis(300), 0.05, Clock.systemUTC());

  @Test
  void aRespondingAgentAnswersEveryEchoAndNamesItsInterface() throws Exception {
    AtomicInteger trains = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    try (ServerSocket http = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        EchoResponder responder =
            EchoResponder.start(
                "127.0.0.1",
                http.getLocalPort(),
                trains::incrementAndGet,
                refused::incrementAndGet)) {
      assertThat(responder.port()).isEqualTo(http.getLocalPort());
      PathResult r = prober.probe(new PeerAddress("127.0.0.1", http.getLocalPort()));
      assertThat(r.verdict()).isEqualTo(PathVerdict.OK);
      assertThat(r.received()).isEqualTo(5);
      assertThat(r.lossRatio()).isZero();
      assertThat(r.rttP50()).isPositive().isLessThan(0.3);
      assertThat(r.rttP99()).isGreaterThanOrEqualTo(r.rttP50());
      assertThat(r.tcpConnected()).isTrue();
      assertThat(r.srcNic()).isEqualTo("lo");
      assertThat(r.dstNic()).isEqualTo("lo");
      assertThat(r.error()).isNull();
      prober.probe(new PeerAddress("127.0.0.1", http.getLocalPort()));
      assertThat(trains.get()).as("trains answered, not datagrams").isEqualTo(2);
      assertThat(refused.get()).as("a peer's probes are never refused").isZero();
    }
  }

  /**
   * A flood from one address is answered up to the rate limit and the rest is refused and counted:
   * every echo sent is one or the other.
   */
  @Test
  void aFloodIsAnsweredUpToTheRateLimitAndTheRestRefused() throws Exception {
    AtomicInteger refused = new AtomicInteger();
    try (ServerSocket http = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        EchoResponder responder =
            EchoResponder.start(
                "127.0.0.1", http.getLocalPort(), () -> {}, refused::incrementAndGet);
        java.nio.channels.DatagramChannel flood = java.nio.channels.DatagramChannel.open()) {
      flood.bind(new java.net.InetSocketAddress("127.0.0.1", 0));
      flood.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 8 << 20);
      java.net.InetSocketAddress to = new java.net.InetSocketAddress("127.0.0.1", responder.port());
      int sent = 3 * EchoRateLimit.PER_SOURCE;
      flood.configureBlocking(false);
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(2048);
      int answered = 0;
      // About 5000 a second, in bursts of 50, the replies read between them: faster than the
      // limit, slow enough that no socket buffer overflows (a dropped datagram is neither).
      long started = System.currentTimeMillis();
      for (int i = 0; i < sent; i++) {
        flood.send(EchoPacket.request(42, i, 64), to);
        if (i % 50 == 49) {
          Thread.sleep(10);
          while (flood.receive(b.clear()) != null) {
            answered++;
          }
        }
      }
      long seconds = (System.currentTimeMillis() - started) / 1000 + 1;
      long until = System.nanoTime() + 3_000_000_000L;
      while (answered + refused.get() < sent && System.nanoTime() < until) {
        if (flood.receive(b.clear()) != null) {
          answered++;
        } else {
          Thread.sleep(1);
        }
      }
      assertThat(refused.get()).isPositive();
      assertThat(answered).isLessThanOrEqualTo((int) (seconds + 1) * EchoRateLimit.PER_SOURCE);
      assertThat(answered + refused.get()).isEqualTo(sent);
    }
  }

  @Test
  void aHostWhoseAgentIsNotRunningIsAgentDownNotUnreachable() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    PathResult r = prober.probe(new PeerAddress("127.0.0.1", port));
    assertThat(r.received()).isZero();
    assertThat(r.verdict()).isEqualTo(PathVerdict.AGENT_DOWN);
    assertThat(r.error()).isNotBlank();
  }

  @Test
  void aNameThatDoesNotResolveIsUnreachableAndSaysSo() {
    PathResult r = prober.probe(new PeerAddress("no-such-host.invalid", 10187));
    assertThat(r.verdict()).isEqualTo(PathVerdict.UNREACHABLE);
    assertThat(r.error()).isEqualTo("cannot resolve no-such-host.invalid");
  }

  @Test
  void repliesFromSomethingElseAreNotCounted() throws Exception {
    // A plain UDP echo (not the agent) sends back the request unchanged: type request, not reply.
    try (DatagramSocket echo = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
      Thread t =
          new Thread(
              () -> {
                byte[] buf = new byte[2048];
                try {
                  while (true) {
                    java.net.DatagramPacket p = new java.net.DatagramPacket(buf, buf.length);
                    echo.receive(p);
                    echo.send(p);
                  }
                } catch (Exception e) {
                  // closed
                }
              });
      t.setDaemon(true);
      t.start();
      PathResult r = prober.probe(new PeerAddress("127.0.0.1", echo.getLocalPort()));
      assertThat(r.received()).isZero();
      // Nothing listens on TCP there: the host refuses, so not unreachable, yet not one echo.
      assertThat(r.verdict()).isEqualTo(PathVerdict.AGENT_DOWN);
    }
  }

  @Test
  void anAgentPortThatAnswersTcpButNoEchoIsUdpBlockedNotUnreachable() throws Exception {
    // A firewall that opened only the TCP port: the path and the agent work, nobody's NIC fails.
    try (ServerSocket http = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      PathResult r = prober.probe(new PeerAddress("127.0.0.1", http.getLocalPort()));
      assertThat(r.received()).isZero();
      assertThat(r.tcpConnected()).isTrue();
      assertThat(r.verdict()).isEqualTo(PathVerdict.UDP_BLOCKED);
      assertThat(r.verdict().pathFails()).isFalse();
    }
  }

  @Test
  void lossAboveTheThresholdIsLossyAndBelowItIsOk() {
    assertThat(PathVerdict.judge(20, 19, false, true, 0.05)).isEqualTo(PathVerdict.OK);
    assertThat(PathVerdict.judge(20, 18, false, true, 0.05)).isEqualTo(PathVerdict.LOSSY);
    assertThat(PathVerdict.judge(20, 0, true, false, 0.05)).isEqualTo(PathVerdict.AGENT_DOWN);
    assertThat(PathVerdict.judge(20, 0, false, false, 0.05)).isEqualTo(PathVerdict.UNREACHABLE);
    assertThat(PathVerdict.judge(20, 0, false, true, 0.05)).isEqualTo(PathVerdict.UDP_BLOCKED);
  }
}
