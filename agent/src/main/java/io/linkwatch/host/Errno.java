package io.linkwatch.host;

import java.util.Map;

/**
 * The Linux errno values the host calls can return, with the meaning each has for those calls (the
 * generic strerror text, "Invalid argument", does not say what to fix). Values are the same on
 * x86_64 and aarch64. Example: {@code describe(1)} is {@code "EPERM (1, operation not permitted:
 * blocked by the container's seccomp profile or a missing capability)"}.
 */
public final class Errno {
  public static final int EPERM = 1;
  public static final int ENOENT = 2;
  public static final int ESRCH = 3;
  public static final int ENOMEM = 12;
  public static final int EACCES = 13;
  public static final int EFAULT = 14;
  public static final int EINVAL = 22;
  public static final int ENOSYS = 38;

  private static final Map<Integer, String> TEXT =
      Map.of(
          EPERM,
          "EPERM (1, operation not permitted: blocked by the container's seccomp profile or a"
              + " missing capability)",
          ENOENT,
          "ENOENT (2, no such file or page)",
          ESRCH,
          "ESRCH (3, no such process or thread)",
          ENOMEM,
          "ENOMEM (12, out of memory or address range not mapped)",
          EACCES,
          "EACCES (13, permission denied)",
          EFAULT,
          "EFAULT (14, bad address)",
          EINVAL,
          "EINVAL (22, invalid argument: for an affinity mask, no CPU of the mask is online and"
              + " allowed)",
          ENOSYS,
          "ENOSYS (38, system call not implemented on this kernel or architecture)");

  private Errno() {}

  /** The errno's name, number and meaning, or {@code "errno N"} for one not listed here. */
  public static String describe(int errno) {
    return TEXT.getOrDefault(errno, "errno " + errno);
  }
}
