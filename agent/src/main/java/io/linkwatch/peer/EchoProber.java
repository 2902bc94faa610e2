package io.linkwatch.peer;

import io.linkwatch.util.Stats;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs one probe of a path: {@code echoes} UDP datagrams to the peer's agent port, {@code spacing}
 * apart, each reply timed against its own send; then one TCP connect to the same port, which tells
 * a host that refuses (the agent is not running) from one that does not answer at all.
 */
public final class EchoProber {
  /** The TCP connects, beside the trains; a thread each while it waits, idle ones let go. */
  private static final ExecutorService CONNECTS =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "peer-connect");
            t.setDaemon(true);
            return t;
          });

  /** Between two echoes of a train: a burst of 20 would be dropped by a busy host's queue alone. */
  static final Duration SPACING = Duration.ofMillis(10);

  private final int echoes;
  private final int payloadBytes;
  private final Duration timeout;
  private final double lossThreshold;
  private final Clock clock;

  public EchoProber(
      int echoes, int payloadBytes, Duration timeout, double lossThreshold, Clock clock) {
    this.echoes = echoes;
    this.payloadBytes = payloadBytes;
    this.timeout = timeout;
    this.lossThreshold = lossThreshold;
    this.clock = clock;
  }

  public static EchoProber of(PeerConfig c, Clock clock) {
    return new EchoProber(c.echoes(), c.payloadBytes(), c.timeout(), c.lossThreshold(), clock);
  }

  /** The longest a probe takes once its peer's name is resolved: its train, then the timeout. */
  public Duration longest() {
    return SPACING.multipliedBy(echoes).plus(timeout);
  }

  /** A probe that got no answer at all, for {@code why}. */
  public PathResult noAnswer(String peer, String why) {
    return new PathResult(
        peer,
        null,
        null,
        echoes,
        0,
        Double.NaN,
        Double.NaN,
        0,
        false,
        Double.NaN,
        why,
        clock.instant(),
        false,
        PathVerdict.UNREACHABLE,
        -1);
  }

  public PathResult probe(PeerAddress peer) {
    java.time.Instant at = clock.instant();
    InetSocketAddress target = peer.resolve();
    if (target.isUnresolved()) {
      return noAnswer(peer.text(), "cannot resolve " + peer.host());
    }
    // The connect runs beside the train: a host that does not answer costs one timeout, not two.
    CompletableFuture<Connect> connecting =
        CompletableFuture.supplyAsync(() -> connect(target), CONNECTS);
    Train train = udp(target);
    Connect tcp = connecting.join();
    String error = train.error != null ? train.error : tcp.error;
    double[] rtts = Arrays.copyOf(train.rtts, train.received);
    return new PathResult(
        peer.text(),
        train.srcNic,
        train.dstNic,
        echoes,
        train.received,
        rtts.length == 0 ? Double.NaN : Stats.quantile(rtts, 0.5),
        rtts.length == 0 ? Double.NaN : Stats.quantile(rtts, 0.99),
        Arrays.stream(rtts).sum(),
        tcp.connected,
        tcp.seconds,
        train.received == echoes ? null : error,
        at,
        false,
        PathVerdict.judge(echoes, train.received, tcp.refused, tcp.connected, lossThreshold),
        -1);
  }

  private record Connect(boolean connected, boolean refused, double seconds, String error) {}

  private Connect connect(InetSocketAddress target) {
    long started = System.nanoTime();
    try (Socket s = new Socket()) {
      s.connect(target, (int) timeout.toMillis());
      return new Connect(true, false, (System.nanoTime() - started) / 1e9, null);
    } catch (ConnectException e) {
      boolean refused = e.getMessage() != null && e.getMessage().contains("refused");
      return new Connect(false, refused, Double.NaN, "TCP: " + e.getMessage());
    } catch (SocketTimeoutException e) {
      return new Connect(
          false, false, Double.NaN, "TCP: no answer in " + timeout.toMillis() + " ms");
    } catch (IOException e) {
      return new Connect(false, false, Double.NaN, "TCP: " + e.getMessage());
    }
  }

  private static final class Train {
    double[] rtts;
    int received;
    String srcNic;
    String dstNic;
    String error;
  }

  /**
   * The train, on an unconnected socket: a host with several addresses may answer from another than
   * the one probed (its route picks the source), and a connected socket would drop that reply.
   * Replies are matched by train id and sequence instead. An error sending one echo (a route gone,
   * ICMP unreachable) loses that echo, not the train.
   */
  private Train udp(InetSocketAddress target) {
    Train t = new Train();
    t.rtts = new double[echoes];
    t.srcNic = Nics.towards(target.getAddress());
    long train = ThreadLocalRandom.current().nextLong();
    long[] sentAt = new long[echoes];
    boolean[] back = new boolean[echoes];
    try (DatagramChannel ch = DatagramChannel.open();
        Selector selector = Selector.open()) {
      ch.configureBlocking(false);
      ch.register(selector, SelectionKey.OP_READ);
      ByteBuffer in = ByteBuffer.allocate(2048);
      long spacing = SPACING.toNanos();
      long start = System.nanoTime();
      int next = 0;
      long deadline = Long.MAX_VALUE;
      while (true) {
        long now = System.nanoTime();
        if (next < echoes && now >= start + next * spacing) {
          sentAt[next] = now;
          try {
            ch.send(EchoPacket.request(train, next, payloadBytes), target);
          } catch (IOException e) {
            t.error = "UDP: " + e.getMessage();
          }
          next++;
          if (next == echoes) {
            deadline = System.nanoTime() + timeout.toNanos();
          }
          continue;
        }
        if (t.received == echoes || now >= deadline) {
          break;
        }
        long wake = next < echoes ? start + next * spacing : deadline;
        long waitMillis = Math.max(1, (wake - now) / 1_000_000);
        if (selector.select(waitMillis) == 0) {
          continue;
        }
        selector.selectedKeys().clear();
        while (true) {
          in.clear();
          try {
            if (ch.receive(in) == null) {
              break;
            }
          } catch (IOException e) {
            t.error = "UDP: " + e.getMessage();
            break;
          }
          long arrived = System.nanoTime();
          in.flip();
          if (EchoPacket.type(in) != EchoPacket.REPLY || EchoPacket.train(in) != train) {
            continue;
          }
          int seq = EchoPacket.sequence(in);
          if (seq < 0 || seq >= next || back[seq]) {
            continue;
          }
          back[seq] = true;
          t.rtts[t.received++] = (arrived - sentAt[seq]) / 1e9;
          if (t.dstNic == null) {
            t.dstNic = EchoPacket.nic(in);
          }
        }
      }
      if (t.received < echoes) {
        t.error = (echoes - t.received) + " of " + echoes + " echoes lost";
      }
    } catch (IOException e) {
      t.error = "UDP: " + e.getMessage();
    }
    return t;
  }
}
