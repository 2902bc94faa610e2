package io.linkwatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Hosts for the tests between servers: network namespaces, each with an {@code eth0} joined by a
 * veth pair to one bridge, made with the real {@code ip} command (root only) and removed by {@link
 * #close}. Names and the /24 are random, so tests running at once never share one.
 */
public final class BridgedNamespaces implements AutoCloseable {
  private final String prefix;
  private final String id =
      Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
  private final String net;
  private final String npuNet;
  private final List<String> made = new ArrayList<>();
  private boolean bridged;
  private boolean npuBridged;
  private boolean switched;

  /**
   * @param prefix a short tag of the test, in every name (interface names hold 15 characters)
   * @param firstOctets the /16 the test's /24 is drawn from, e.g. {@code 10.231}
   */
  public BridgedNamespaces(String prefix, String firstOctets) {
    this.prefix = prefix;
    int third = ThreadLocalRandom.current().nextInt(16, 250);
    this.net = firstOctets + "." + third;
    this.npuNet = firstOctets + "." + (third < 128 ? third + 1 : third - 1);
  }

  /**
   * A second fabric, as the NPUs' own RoCE ports are on a server: a bridge of its own and, in each
   * of the first {@code hosts} namespaces, an interface {@code npu} joined to it by a veth pair,
   * holding the addresses of {@code ports} devices ({@link #npuIp}). Call after {@link #make}.
   */
  public BridgedNamespaces makeNpuPlane(int hosts, int ports) throws Exception {
    run("ip", "link", "add", npuBridge(), "type", "bridge");
    npuBridged = true;
    run("ip", "link", "set", npuBridge(), "up");
    for (int i = 0; i < hosts; i++) {
      String outside = prefix + "w" + id + i;
      run("ip", "link", "add", outside, "type", "veth", "peer", "name", "npu", "netns", ns(i));
      run("ip", "link", "set", outside, "master", npuBridge(), "up");
      for (int d = 0; d < ports; d++) {
        run("ip", "-n", ns(i), "addr", "add", npuIp(i, d) + "/24", "dev", "npu");
      }
      run("ip", "-n", ns(i), "link", "set", "npu", "up");
    }
    return this;
  }

  /**
   * Moves hosts {@code first} to {@code hosts - 1} under a second switch: a bridge of their own,
   * joined to the first by an uplink (a veth pair), as two top-of-rack switches are. Call after
   * {@link #make}; the test's own address stays on the first.
   */
  public BridgedNamespaces secondSwitch(int first, int hosts) throws Exception {
    run("ip", "link", "add", secondBridge(), "type", "bridge");
    switched = true;
    run("ip", "link", "set", secondBridge(), "up");
    run("ip", "link", "add", uplink(), "type", "veth", "peer", "name", prefix + "U" + id);
    run("ip", "link", "set", uplink(), "master", bridge(), "up");
    run("ip", "link", "set", prefix + "U" + id, "master", secondBridge(), "up");
    for (int i = first; i < hosts; i++) {
      run("ip", "link", "set", veth(i), "master", secondBridge());
    }
    return this;
  }

  public String secondBridge() {
    return prefix + "s" + id;
  }

  private String uplink() {
    return prefix + "u" + id;
  }

  /**
   * The second switch fails ({@code false}: nothing crosses it, between its own hosts or to the
   * rest) or comes back ({@code true}).
   */
  public void secondSwitchUp(boolean up) throws Exception {
    run("ip", "link", "set", secondBridge(), up ? "up" : "down");
  }

  public String npuBridge() {
    return prefix + "n" + id;
  }

  /** Host {@code i}'s device {@code d}'s port address on the NPU fabric (up to 16 ports). */
  public String npuIp(int i, int d) {
    return npuNet + "." + (i * 16 + d + 1);
  }

  /** Makes the bridge and {@code hosts} namespaces on it, {@code 0..hosts-1}. */
  public BridgedNamespaces make(int hosts) throws Exception {
    run("ip", "link", "add", bridge(), "type", "bridge");
    bridged = true;
    run("ip", "addr", "add", net + ".254/24", "dev", bridge());
    run("ip", "link", "set", bridge(), "up");
    for (int i = 0; i < hosts; i++) {
      run("ip", "netns", "add", ns(i));
      made.add(ns(i));
      run("ip", "link", "add", veth(i), "type", "veth", "peer", "name", "eth0", "netns", ns(i));
      run("ip", "link", "set", veth(i), "master", bridge(), "up");
      run("ip", "-n", ns(i), "addr", "add", ip(i) + "/24", "dev", "eth0");
      run("ip", "-n", ns(i), "link", "set", "eth0", "up");
      run("ip", "-n", ns(i), "link", "set", "lo", "up");
    }
    return this;
  }

  public String bridge() {
    return prefix + "b" + id;
  }

  /** Host {@code i}'s namespace. */
  public String ns(int i) {
    return prefix + id + "-" + i;
  }

  /** Host {@code i}'s end of its veth pair on the bridge's side ({@code eth0} is the other). */
  public String veth(int i) {
    return prefix + "v" + id + i;
  }

  /** Host {@code i}'s address on {@code eth0}. */
  public String ip(int i) {
    return net + "." + (i + 1);
  }

  /** The command prefix that runs a command in host {@code i}'s namespace. */
  public List<String> exec(int i) {
    return List.of("ip", "netns", "exec", ns(i));
  }

  /** Runs {@code command} in host {@code i}'s namespace; it must succeed. */
  public void in(int i, String... command) throws Exception {
    List<String> all = new ArrayList<>(exec(i));
    all.addAll(List.of(command));
    run(all.toArray(String[]::new));
  }

  /** The processes in host {@code i}'s namespace. */
  public List<String> pids(int i) throws Exception {
    Process p = new ProcessBuilder("ip", "netns", "pids", ns(i)).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor();
    return out.lines().filter(l -> !l.isBlank()).toList();
  }

  /** Kills every process in host {@code i}'s namespace at once: the host dies. */
  public void kill(int i) throws Exception {
    for (String pid : pids(i)) {
      new ProcessBuilder("kill", "-KILL", pid).start().waitFor();
    }
  }

  /** Runs {@code command}; it must exit 0 (its output is in the failure). */
  public static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
  }

  /** Kills what is left in the namespaces, removes them and the bridge. */
  @Override
  public void close() throws java.io.IOException {
    try {
      for (int i = 0; i < made.size(); i++) {
        kill(i);
      }
      for (String n : made) {
        new ProcessBuilder("ip", "netns", "del", n).start().waitFor();
      }
      if (bridged) {
        new ProcessBuilder("ip", "link", "del", bridge()).start().waitFor();
      }
      if (switched) {
        new ProcessBuilder("ip", "link", "del", uplink()).start().waitFor();
        new ProcessBuilder("ip", "link", "del", secondBridge()).start().waitFor();
      }
      if (npuBridged) {
        new ProcessBuilder("ip", "link", "del", npuBridge()).start().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.io.IOException e) {
      throw e;
    } catch (Exception e) {
      throw new java.io.IOException(e);
    }
  }
}
