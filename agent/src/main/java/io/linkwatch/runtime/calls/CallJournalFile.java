package io.linkwatch.runtime.calls;

import static io.linkwatch.runtime.calls.JournalLayout.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's side of a worker's {@link CallJournal}: a file made for one run (readable by the
 * agent alone), handed to the worker by name, read when the run ends badly, deleted after.
 */
public final class CallJournalFile implements AutoCloseable {
  /** The environment variable that tells a worker where its journal is. */
  public static final String ENV = "LINKWATCH_CALL_JOURNAL";

  private final Path path;

  private CallJournalFile(Path path) {
    this.path = path;
  }

  /** A zeroed journal file in {@code dir}, sized for every slot. */
  public static CallJournalFile create(Path dir) throws IOException {
    Path file =
        Files.createTempFile(
            dir,
            "linkwatch-calls-",
            ".bin",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.write(file, new byte[FILE_BYTES]);
    return new CallJournalFile(file);
  }

  public Path path() {
    return path;
  }

  /** The entries of every slot a thread claimed; empty when the worker journaled nothing. */
  public List<JournalEntry> read() {
    try {
      return parse(ByteBuffer.wrap(Files.readAllBytes(path)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses a journal's bytes; slots never claimed, or torn by a kill mid-write, are left out. */
  static List<JournalEntry> parse(ByteBuffer bytes) {
    bytes.order(ByteOrder.LITTLE_ENDIAN);
    List<JournalEntry> entries = new ArrayList<>();
    for (int base = 0; base + SLOT_BYTES <= bytes.limit(); base += SLOT_BYTES) {
      int sequence = bytes.getInt(base + SEQUENCE);
      int state = bytes.getInt(base + STATE);
      if (sequence % 2 != 0 || state == STATE_UNUSED) {
        continue;
      }
      String slowest = ascii(bytes, base + SLOWEST_FUNCTION, bytes.get(base + SLOWEST_LENGTH));
      entries.add(
          new JournalEntry(
              ascii(bytes, base + THREAD, bytes.get(base + THREAD_LENGTH)),
              ascii(bytes, base + FUNCTION, bytes.get(base + FUNCTION_LENGTH)),
              bytes.getInt(base + DEVICE),
              state == STATE_IN_CALL,
              bytes.getLong(base + ENTERED_MILLIS),
              bytes.getLong(base + RETURNED_MILLIS),
              slowest.isEmpty()
                  ? null
                  : new JournalEntry.Slowest(
                      slowest,
                      bytes.getInt(base + SLOWEST_DEVICE),
                      bytes.getLong(base + SLOWEST_MILLIS))));
    }
    return entries;
  }

  private static String ascii(ByteBuffer bytes, int offset, byte length) {
    int n = Math.min(Byte.toUnsignedInt(length), NAME_MAX);
    byte[] out = new byte[n];
    bytes.get(offset, out, 0, n);
    return new String(out, StandardCharsets.US_ASCII);
  }

  @Override
  public void close() {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
