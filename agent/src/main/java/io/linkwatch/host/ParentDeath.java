package io.linkwatch.host;

import java.util.Map;

/**
 * Makes a child process die with the agent that started it. A worker holds devices: one left
 * running after its agent died (a crash, the OOM killer, {@code kill -9}) would go on measuring
 * with nobody to stop it at its deadline, beside the jobs that the agent promised never to disturb.
 * Linux's {@code PR_SET_PDEATHSIG} has the kernel kill the child when its parent goes; the agent
 * passes its pid, so a child whose agent died before the call exits at once.
 */
public final class ParentDeath {
  /** The environment variable that carries the agent's pid to its child. */
  public static final String PARENT_PID = "LINKWATCH_PARENT_PID";

  private static final int PR_SET_PDEATHSIG = 1;
  private static final long SIGKILL = 9;

  private ParentDeath() {}

  /** For the child's environment: this process as its parent. */
  public static void pass(Map<String, String> env) {
    env.put(PARENT_PID, String.valueOf(ProcessHandle.current().pid()));
  }

  /**
   * Called first thing in the child: asks the kernel for {@code SIGKILL} when the parent dies, then
   * exits (status 3) if the parent named in {@code env} is already gone. Returns why it could not
   * arm (no libc, another OS), or null: the child then runs as before.
   */
  public static String arm(Map<String, String> env) {
    String expected = env.get(PARENT_PID);
    if (expected == null) {
      return PARENT_PID + " not set: started by hand";
    }
    LibC libc;
    try {
      libc = NativeHost.libc();
    } catch (HostException e) {
      return e.getMessage();
    }
    if (libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
      return "prctl(PR_SET_PDEATHSIG) failed, errno " + NativeHost.lastErrno();
    }
    // The parent may have died between the fork and the call above: then the child was already
    // handed to another process, and no signal will come.
    long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
    if (!expected.equals(String.valueOf(parent))) {
      Runtime.getRuntime().halt(3);
    }
    return null;
  }
}
