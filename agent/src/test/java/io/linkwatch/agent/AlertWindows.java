package io.linkwatch.agent;

/**
 * The live tests whose time goes mostly into waiting out alert windows (healthy minutes, a fault
 * held until an alert fires, then until it clears) and that load the machine lightly while they
 * wait. Maven runs them in an execution of their own after the others, at the same time as each
 * other, so their waits overlap (agent/pom.xml, execution {@code alert-windows}). Each starts its
 * own agents, Prometheus and fault files and shares nothing with the other. BusyDeviceLiveTest is
 * not one of them: it measures contention on the devices, and another test's load would be read as
 * a busy device.
 */
final class AlertWindows {
  static final String TAG = "alert-windows";

  private AlertWindows() {}
}
