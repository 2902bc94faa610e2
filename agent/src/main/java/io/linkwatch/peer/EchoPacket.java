package io.linkwatch.peer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One datagram of a probe's train. A request carries the train's id and its sequence number; the
 * reply is the request sent back, as long as it came, with the type changed and the name of the
 * responder's interface that sends it written in, so the prober learns the far end's NIC without
 * another call. A reply is never longer than its request: the responder cannot be used to amplify.
 *
 * <pre>
 * 0   "LWE1"       magic
 * 4   type         1 request, 2 reply
 * 5   nic length   reply only, 0..15
 * 8   train id     8 bytes
 * 16  sequence     4 bytes
 * 20  nic name     16 bytes, reply only
 * 36  padding      up to the configured size
 * </pre>
 */
public final class EchoPacket {
  public static final int HEADER = 36;
  static final byte REQUEST = 1;
  static final byte REPLY = 2;
  private static final int MAGIC = 0x4c574531; // "LWE1"
  private static final int NIC_CHARS = 15;

  private EchoPacket() {}

  static ByteBuffer request(long train, int seq, int size) {
    ByteBuffer b = ByteBuffer.allocate(Math.max(HEADER, size));
    b.putInt(MAGIC).put(REQUEST).put((byte) 0).putShort((short) 0).putLong(train).putInt(seq);
    b.position(0);
    return b;
  }

  /** The type of {@code b} (positioned at 0, limit the datagram's length), or 0 if not ours. */
  static byte type(ByteBuffer b) {
    if (b.remaining() < HEADER || b.getInt(0) != MAGIC) {
      return 0;
    }
    byte t = b.get(4);
    return t == REQUEST || t == REPLY ? t : 0;
  }

  static long train(ByteBuffer b) {
    return b.getLong(8);
  }

  static int sequence(ByteBuffer b) {
    return b.getInt(16);
  }

  /** Turns the request in {@code b} into its reply, in place, naming {@code nic}. */
  static void toReply(ByteBuffer b, String nic) {
    byte[] name = nic == null ? new byte[0] : nic.getBytes(StandardCharsets.US_ASCII);
    int len = Math.min(NIC_CHARS, name.length);
    b.put(4, REPLY).put(5, (byte) len);
    for (int i = 0; i < 16; i++) {
      b.put(20 + i, i < len ? name[i] : 0);
    }
  }

  /** The responder's interface named in the reply {@code b}, or null. */
  static String nic(ByteBuffer b) {
    int len = Math.min(NIC_CHARS, b.get(5) & 0xff);
    if (len == 0) {
      return null;
    }
    byte[] name = new byte[len];
    for (int i = 0; i < len; i++) {
      name[i] = b.get(20 + i);
    }
    return new String(name, StandardCharsets.US_ASCII);
  }
}
