package io.linkwatch.runtime.ascend;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/**
 * CANN holds a process's exit for {@code ASCEND_LOG_DEVICE_FLUSH_TIMEOUT} milliseconds (default
 * 2000) so that device-side logs reach the host (CANN environment variable reference). linkwatch's
 * AscendCL processes are short: a worker per run and the one-shot commands. Each gets 0 unless the
 * operator set the variable, which then holds for them too.
 */
public final class DeviceLogFlush {
  public static final String VARIABLE = "ASCEND_LOG_DEVICE_FLUSH_TIMEOUT";
  static final String NO_WAIT = "0";

  private DeviceLogFlush() {}

  /** The C library's own environment, which the runtime reads, not Java's copy of it. */
  interface LibC extends Library {
    int setenv(String name, String value, int overwrite);
  }

  /**
   * No exit hold for this process unless the variable is set: for a command that runs AscendCL
   * in-process; call it before the runtime loads.
   */
  public static void skipInThisProcessUnlessSet() {
    if (System.getenv(VARIABLE) == null) {
      Native.load(Platform.C_LIBRARY_NAME, LibC.class).setenv(VARIABLE, NO_WAIT, 0);
    }
  }
}
