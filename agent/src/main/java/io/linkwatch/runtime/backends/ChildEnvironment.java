package io.linkwatch.runtime.backends;

import io.linkwatch.runtime.ascend.DeviceLogFlush;
import io.linkwatch.util.LogSetup;
import java.util.Map;

/**
 * What the environment of a child process that opens the device runtime (a probe worker, the
 * passive watcher) adds to the agent's: no exit hold for device logs unless the operator set one
 * (see {@link DeviceLogFlush}; such a child exits or is replaced often), and the agent's log
 * settings, so that the child's relayed lines look like the agent's own. Example: an agent started
 * with no {@code ASCEND_LOG_DEVICE_FLUSH_TIMEOUT} gives its children {@code
 * ASCEND_LOG_DEVICE_FLUSH_TIMEOUT=0}.
 */
public final class ChildEnvironment {
  private static volatile Map<String, String> adopted = Map.of();

  private ChildEnvironment() {}

  /** Adds to {@code env} (a {@link ProcessBuilder}'s) what a device child needs. */
  public static void apply(Map<String, String> env) {
    env.putIfAbsent(DeviceLogFlush.VARIABLE, "0");
    adopted.forEach(env::putIfAbsent);
    LogSetup.passOn(env);
  }

  /**
   * Gives every device child of this process {@code variables} where its own environment has none:
   * a {@code check} beside a simulated agent adopts the agent's sim settings (profile, fault
   * control file), so that it measures the devices the agent does. A variable set in this process's
   * own environment wins.
   */
  public static void adopt(Map<String, String> variables) {
    adopted = Map.copyOf(variables);
  }
}
