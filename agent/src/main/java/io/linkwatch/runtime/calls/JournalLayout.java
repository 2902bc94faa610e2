package io.linkwatch.runtime.calls;

/**
 * The journal file: {@link #SLOTS} slots of {@link #SLOT_BYTES} bytes, one per worker thread that
 * made a native call, little-endian. A slot holds a sequence number (odd while its writer is
 * between two writes, so a reader can tell a torn slot), the state, the times the last call was
 * entered and returned, the device, and the function's and the thread's names.
 */
final class JournalLayout {
  static final int SLOTS = 64;
  static final int SLOT_BYTES = 192;
  static final int FILE_BYTES = SLOTS * SLOT_BYTES;

  static final int SEQUENCE = 0;
  static final int STATE = 4;
  static final int ENTERED_MILLIS = 8;
  static final int RETURNED_MILLIS = 16;
  static final int DEVICE = 24;
  static final int FUNCTION_LENGTH = 28;
  static final int THREAD_LENGTH = 29;
  static final int SLOWEST_LENGTH = 30;
  static final int SLOWEST_MILLIS = 32;
  static final int SLOWEST_DEVICE = 40;
  static final int NAME_MAX = 48;
  static final int FUNCTION = 48;
  static final int SLOWEST_FUNCTION = FUNCTION + NAME_MAX;
  static final int THREAD = SLOWEST_FUNCTION + NAME_MAX;

  static final int STATE_UNUSED = 0;
  static final int STATE_IN_CALL = 1;
  static final int STATE_RETURNED = 2;

  private JournalLayout() {}
}
