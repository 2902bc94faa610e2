package io.linkwatch.host;

import java.util.OptionalInt;

/**
 * A host fact could not be read or a host call failed. When a system call failed, the message names
 * the call, its arguments and the errno, e.g. {@code sched_setaffinity(cpus 4096) failed: EINVAL
 * (22, invalid argument: no CPU of the mask is online and allowed)}, and {@link #errno()} carries
 * the number so callers can tell "not permitted here" from a real fault.
 */
public class HostException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int errno;

  public HostException(String message) {
    this(message, 0, null);
  }

  public HostException(String message, Throwable cause) {
    this(message, 0, cause);
  }

  /** A failed call: the message is extended with the errno's name and meaning. */
  public HostException(String call, int errno) {
    this(call + " failed: " + Errno.describe(errno), errno, null);
  }

  private HostException(String message, int errno, Throwable cause) {
    super(message, cause);
    this.errno = errno;
  }

  /** The errno of the failed system call; empty when the failure was not a system call. */
  public OptionalInt errno() {
    return errno == 0 ? OptionalInt.empty() : OptionalInt.of(errno);
  }
}
