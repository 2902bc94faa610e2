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
    int length = Math.min(name.length, THREAD_MAX);
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
    int length = Math.min(function.length, FUNCTION_MAX);
    s.begin();
    map.putInt(s.base + STATE, STATE_IN_CALL);
    map.putLong(s.base + ENTERED_MILLIS, System.currentTimeMillis());
    map.putInt(s.base + DEVICE, s.device);
    map.put(s.base + FUNCTION_LENGTH, (byte) length);
    map.put(s.base + FUNCTION, function, 0, length);
    s.end();
  }

  @Override
  public void returned() {
    Slot s = slot.get();
    if (s == null) {
      return;
    }
    s.begin();
    map.putInt(s.base + STATE, STATE_RETURNED);
    map.putLong(s.base + RETURNED_MILLIS, System.currentTimeMillis());
    s.end();
  }
}
