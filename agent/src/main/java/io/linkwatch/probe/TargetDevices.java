package io.linkwatch.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The devices a target label names: {@code 0->1} (p2p), {@code 0<->1} (p2p_bidirectional) and
 * {@code 0,1} (allreduce) name their devices, {@code dev1} and {@code dev1/node3} device 1 (the
 * node is a CPU node, not a device). Labels that name no device ({@code links}, a probe's own name)
 * give none.
 */
public final class TargetDevices {
  private static final Pattern LABEL = Pattern.compile("(?:dev)?(\\d+)(?:/node\\d+)?");
  private static final Pattern SEPARATOR = Pattern.compile("<->|->|,");

  private TargetDevices() {}

  public static List<Integer> of(String target) {
    List<Integer> devices = new ArrayList<>();
    for (String part : SEPARATOR.split(target, -1)) {
      Matcher m = LABEL.matcher(part);
      if (!m.matches()) {
        return List.of();
      }
      devices.add(Integer.parseInt(m.group(1)));
    }
    return devices;
  }
}
