package io.linkwatch.runtime.calls;

/**
 * Where each thread of a worker is in the driver: {@link TracedLibrary} marks every bound native
 * call on entry and on return, so when the worker hangs or dies the agent can say which call it was
 * in ({@code timeout in aclrtSynchronizeStream (device 1) after 4.0 s}) instead of only that the
 * deadline passed. Marks are plain writes to memory the agent reads after the worker is gone.
 */
public interface CallJournal {
  /** Records nothing: for in-process runs (the CLI), where no other process needs to know. */
  CallJournal NONE =
      new CallJournal() {
        @Override
        public void onDevice(int device) {}

        @Override
        public void entering(byte[] function) {}

        @Override
        public void returned() {}
      };

  /** The device the calling thread's next calls concern; {@link #NO_DEVICE} for none. */
  void onDevice(int device);

  /** The calling thread enters the native function whose ASCII name is {@code function}. */
  void entering(byte[] function);

  /** The calling thread's native call returned (or threw). */
  void returned();

  int NO_DEVICE = -1;
}
