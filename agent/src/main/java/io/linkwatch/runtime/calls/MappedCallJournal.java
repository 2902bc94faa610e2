package io.linkwatch.runtime.calls;

import static io.linkwatch.runtime.calls.JournalLayout.*;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link CallJournal} in a file mapped shared into the worker: what a thread wrote before the
 * worker hung, was killed or crashed stays in the page cache for the agent to read, with no system
 * call per mark. A thread past the last slot is not journaled (a worker has a handful).
 */
public final class MappedCallJournal implements CallJournal {
  private final MappedByteBuffer map;
  private final AtomicInteger nextSlot = new AtomicInteger();
  private final ThreadLocal<Slot> slot = ThreadLocal.withInitial(this::claim);

  private MappedCallJournal(MappedByteBuffer map) {
    this.map = map;
    map.order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * The journal the agent made for this process ({@link CallJournalFile#ENV}); none when started
   * without one. A journal that cannot be mapped costs the diagnosis of a hang, not the work.
   */
  public static CallJournal fromEnvironment() {
    String path = System.getenv(CallJournalFile.ENV);
    if (path == null || path.isBlank()) {
      return CallJournal.NONE;
    }
    try {
      return open(Path.of(path));
    } catch (IOException | RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(MappedCallJournal.class)
          .warn("cannot map the call journal {}: {}", path, e.getMessage());
      return CallJournal.NONE;
    }
  }

  /** Maps {@code file}, which the agent created for this worker. */
  public static MappedCallJournal open(Path file) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      return new MappedCallJournal(channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES));
    }
  }

  /** One thread's slot; only that thread writes it. */
  private final class Slot {
    final int base;
    int sequence;
    int device = NO_DEVICE;
    byte[] function;
    int callDevice;
    long enteredAt;
    long slowestMillis = -1;

    Slot(int base) {
      this.base = base;
    }

    void begin() {
      map.putInt(base + SEQUENCE, ++sequence);
    }

    void end() {
      map.putInt(base + SEQUENCE, ++sequence);
    }
  }

  private Slot claim() {
    int index = nextSlot.getAndIncrement();
    if (index >= SLOTS) {
      return null;
    }
    Slot s = new Slot(index * SLOT_BYTES);
    byte[] name = Thread.currentThread().getName().getBytes(StandardCharsets.US_ASCII);
    int length = Math.min(name.length, NAME_MAX);
    s.begin();
    map.put(s.base + THREAD_LENGTH, (byte) length);
    map.put(s.base + THREAD, name, 0, length);
    s.end();
    return s;
  }

  @Override
  public void onDevice(int device) {
    Slot s = slot.get();
    if (s != null) {
      s.device = device;
    }
  }

  @Override
  public void entering(byte[] function) {
    Slot s = slot.get();
    if (s == null) {
      return;
    }
    s.function = function;
    s.callDevice = s.device;
    s.enteredAt = System.currentTimeMillis();
    s.begin();
    map.putInt(s.base + STATE, STATE_IN_CALL);
    map.putLong(s.base + ENTERED_MILLIS, s.enteredAt);
    map.putInt(s.base + DEVICE, s.callDevice);
    putName(s.base + FUNCTION_LENGTH, s.base + FUNCTION, function);
    s.end();
  }

  @Override
  public void returned() {
    Slot s = slot.get();
    if (s == null) {
      return;
    }
    long now = System.currentTimeMillis();
    s.begin();
    map.putInt(s.base + STATE, STATE_RETURNED);
    map.putLong(s.base + RETURNED_MILLIS, now);
    long took = now - s.enteredAt;
    if (took > s.slowestMillis) {
      // A call that got unstuck just before the deadline still explains the timeout.
      s.slowestMillis = took;
      map.putLong(s.base + SLOWEST_MILLIS, took);
      map.putInt(s.base + SLOWEST_DEVICE, s.callDevice);
      putName(s.base + SLOWEST_LENGTH, s.base + SLOWEST_FUNCTION, s.function);
    }
    s.end();
  }

  private void putName(int lengthAt, int at, byte[] name) {
    int length = Math.min(name.length, NAME_MAX);
    map.put(lengthAt, (byte) length);
    map.put(at, name, 0, length);
  }
}
