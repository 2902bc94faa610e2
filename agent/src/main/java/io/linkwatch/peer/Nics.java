package io.linkwatch.peer;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/** This host's network interfaces, as the kernel's routes and addresses say. */
public final class Nics {
  private Nics() {}

  /**
   * The interface the kernel would send to {@code remote} from: a connected UDP socket takes its
   * source address from the route, and nothing is sent. Null when no route leads there.
   */
  public static String towards(InetAddress remote) {
    try (DatagramSocket s = new DatagramSocket()) {
      s.connect(remote, 9);
      return nameOf(s.getLocalAddress());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The interface that holds {@code local}, or null. */
  public static String nameOf(InetAddress local) {
    if (local == null || local.isAnyLocalAddress()) {
      return null;
    }
    try {
      NetworkInterface nic = NetworkInterface.getByInetAddress(local);
      return nic == null ? null : nic.getName();
    } catch (SocketException e) {
      return null;
    }
  }

  /** Whether {@code address} is one of this host's own. */
  public static boolean isLocal(InetAddress address) {
    if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
      return true;
    }
    try {
      return NetworkInterface.getByInetAddress(address) != null;
    } catch (SocketException e) {
      return false;
    }
  }

  /** This machine's host name as the kernel has it, or null where it cannot be read. */
  public static String hostname() {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname"))
          .strip();
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /** An interface that is up and not loopback, with its addresses. */
  public record Nic(String name, List<String> addresses) {}

  /** The interfaces that are up, loopback left out, in the kernel's order. */
  public static List<Nic> up() {
    List<Nic> out = new ArrayList<>();
    try {
      Enumeration<NetworkInterface> all = NetworkInterface.getNetworkInterfaces();
      while (all != null && all.hasMoreElements()) {
        NetworkInterface n = all.nextElement();
        if (!n.isUp() || n.isLoopback()) {
          continue;
        }
        List<String> addresses = new ArrayList<>();
        n.inetAddresses().forEach(a -> addresses.add(a.getHostAddress().replaceAll("%.*", "")));
        out.add(new Nic(n.getName(), addresses));
      }
    } catch (SocketException e) {
      // No interfaces readable: the identity lists none.
    }
    return out;
  }
}
