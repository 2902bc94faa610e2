package io.linkwatch.peer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers peers' echo trains on the agent's UDP port (the number its HTTP side listens on). Only
 * well-formed requests are answered, each with one reply of its own length; anything else is
 * dropped unanswered, and so is what comes faster than {@link EchoRateLimit} allows (counted). Each
 * train answered counts as one probe this host took part in.
 */
public final class EchoResponder implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EchoResponder.class);
  private static final int REMEMBERED = 4096;

  private final DatagramChannel channel;
  private final Thread thread;
  private final Runnable trainAnswered;
  private final Runnable echoRefused;
  private final EchoRateLimit limit = new EchoRateLimit();
  // The last train seen from each source, to count trains rather than datagrams; bounded.
  private final Map<SocketAddress, Long> lastTrain =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<SocketAddress, Long> e) {
          return size() > REMEMBERED;
        }
      };

  /** The interface towards each source and when it was looked up; "" for no route. */
  private record Towards(String nic, long atNanos) {}

  /** A route or a bond may fail over: an interface looked up is trusted this long. */
  private static final long NIC_TTL_NANOS = 300_000_000_000L;

  private final Map<InetAddress, Towards> nicTowards =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<InetAddress, Towards> e) {
          return size() > REMEMBERED;
        }
      };

  private EchoResponder(DatagramChannel channel, Runnable trainAnswered, Runnable echoRefused) {
    this.channel = channel;
    this.trainAnswered = trainAnswered;
    this.echoRefused = echoRefused;
    this.thread = new Thread(this::serve, "peer-echo");
    this.thread.setDaemon(true);
  }

  /**
   * Binds {@code host:port} over UDP and starts answering; throws when the port is taken, as the
   * HTTP side does.
   *
   * @param trainAnswered told of each train answered
   * @param echoRefused told of each well-formed echo over the rate limit, not answered
   */
  public static EchoResponder start(
      String host, int port, Runnable trainAnswered, Runnable echoRefused) throws IOException {
    DatagramChannel channel = DatagramChannel.open();
    try {
      channel.bind(new InetSocketAddress(host, port));
    } catch (IOException e) {
      channel.close();
      throw new IOException(
          "UDP " + host + ":" + port + " for peers' echoes: " + e.getMessage(), e);
    }
    EchoResponder r = new EchoResponder(channel, trainAnswered, echoRefused);
    r.thread.start();
    return r;
  }

  public int port() {
    try {
      return ((InetSocketAddress) channel.getLocalAddress()).getPort();
    } catch (IOException e) {
      return -1;
    }
  }

  private void serve() {
    ByteBuffer b = ByteBuffer.allocate(2048);
    while (channel.isOpen()) {
      try {
        b.clear();
        SocketAddress from = channel.receive(b);
        b.flip();
        if (EchoPacket.type(b) != EchoPacket.REQUEST) {
          continue;
        }
        InetAddress source = ((InetSocketAddress) from).getAddress();
        if (!limit.allow(source, System.currentTimeMillis())) {
          echoRefused.run();
          continue;
        }
        long train = EchoPacket.train(b);
        Long last = lastTrain.put(from, train);
        if (last == null || last != train) {
          trainAnswered.run();
        }
        EchoPacket.toReply(b, nicTowards(source));
        channel.send(b, from);
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException | RuntimeException e) {
        // One bad datagram or send (an unreachable sender) must not stop the answering.
        log.debug("peer echo: {}", e.toString());
      }
    }
  }

  /** The interface a reply to {@code source} leaves by, cached, a failed lookup included. */
  private String nicTowards(InetAddress source) {
    long now = System.nanoTime();
    Towards t = nicTowards.get(source);
    if (t == null || now - t.atNanos() > NIC_TTL_NANOS) {
      String nic = Nics.towards(source);
      t = new Towards(nic == null ? "" : nic, now);
      nicTowards.put(source, t);
    }
    return t.nic().isEmpty() ? null : t.nic();
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // closing
    }
  }
}
