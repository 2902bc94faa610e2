package io.linkwatch.probe.hosttransfer;

import io.linkwatch.host.HostException;
import io.linkwatch.host.HostPaths;
import io.linkwatch.host.PageNodeQuery;
import io.linkwatch.host.ThreadAffinity;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.Backend;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.ascend.AscendRuntime;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs the probe twice in a fresh JVM (as a worker process would) where move_pages is refused
 * (EPERM, as under a container's default seccomp profile) and the procfs given as the first
 * argument has no readable numa_maps. Prints each run as one line of JSON on stdout; the log goes
 * to stderr. A fresh JVM, because the host layer's "logged once" warnings are per process.
 */
public final class UnknownPlacementMain {
  private UnknownPlacementMain() {}

  public static void main(String[] args) throws Exception {
    HostPaths paths = new HostPaths(Path.of(args[0]), Path.of("/sys"));
    PageNodeQuery refused =
        pages -> {
          throw new HostException("move_pages(" + pages.length + " pages)", 1 /* EPERM */);
        };
    HostTransferSettings settings =
        new HostTransferSettings(
            List.of(1L << 20, 2L << 20),
            0,
            1,
            List.of(0, 1),
            List.of(),
            List.of("pinned", "pageable"));
    try (DeviceRuntime runtime = AscendRuntime.open(Backend.SIM)) {
      HostTransferProbe probe =
          new HostTransferProbe(
              settings, refused, ThreadAffinity::runPinned, System.getProperty("os.version"));
      for (int i = 0; i < 2; i++) {
        ProbeRun run = probe.run(HostTransferProbeTest.context(runtime, paths));
        System.out.println(ProbeKind.JSON.write(run));
      }
    }
  }
}
