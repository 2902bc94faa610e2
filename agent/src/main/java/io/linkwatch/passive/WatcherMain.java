package io.linkwatch.passive;

import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.LinkTelemetry;
import io.linkwatch.runtime.backends.DeviceRuntimes;
import io.linkwatch.runtime.calls.MappedCallJournal;
import io.linkwatch.runtime.telemetry.DeviceLinks;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The watcher process: opens the backend's runtime once (for the device count and numbering; it
 * never sets a device, allocates or copies), then answers each {@link WatchRequest} line on stdin
 * with one {@link WatchRound} line on stdout, reading every device but those the agent said to
 * skip. It lives as long as the agent, so the JVM and the vendor library start once rather than
 * every 15 s; the agent kills and replaces it when a read hangs or it dies. Every vendor call is
 * marked in the call journal the agent made for it, so a hang is named.
 *
 * <p>Exits when stdin closes (the agent went away).
 */
public final class WatcherMain {
  private WatcherMain() {}

  public static void main(String[] args) {
    int status;
    try {
      status = run(args, System.in, System.out);
    } catch (IOException | RuntimeException e) {
      // The agent reports a watcher that exits, with these lines of stderr.
      System.err.println("linkwatch watcher: " + e.getMessage());
      status = 1;
    }
    System.exit(status);
  }

  static int run(String[] args, java.io.InputStream in, PrintStream out) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: WatcherMain BACKEND");
      return 2;
    }
    Backend backend = Backend.parse(args[0]);
    try (DeviceRuntime runtime =
        DeviceRuntimes.open(backend, MappedCallJournal.fromEnvironment())) {
      LinkTelemetry telemetry = runtime.linkTelemetry();
      int devices = runtime.deviceCount();
      // Ready: the agent waits for this line before its first round.
      out.println(PassiveJson.JSON.write(new WatchRound(devices, List.of())));
      out.flush();
      BufferedReader requests =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      while ((line = requests.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        WatchRequest request = PassiveJson.JSON.read(line, WatchRequest.class);
        Set<Integer> skip = new HashSet<>(request.skip());
        List<DeviceLinks> readings = new ArrayList<>();
        for (int d = 0; d < devices; d++) {
          if (!skip.contains(d)) {
            readings.add(telemetry.read(d, request.npuPorts()));
          }
        }
        out.println(PassiveJson.JSON.write(new WatchRound(devices, readings)));
        out.flush();
      }
    }
    return 0;
  }
}
