package io.linkwatch.probe.collective;

import io.linkwatch.runtime.Communicator;
import io.linkwatch.runtime.DeviceRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * This process's ranks of a group spread over processes, and over hosts: ranks {@code firstRank}
 * on, one per device, of {@code ranks} in all, joined through the blob rank 0's process made
 * ({@code HcclGetRootInfo} / {@code ncclGetUniqueId}). Every local rank joins at once, each on its
 * own thread, because the join returns only when the whole group has formed.
 */
final class SpreadGroup implements RankGroup.Members {
  /** How this process gets the group's blob: it makes and hands it on, or was given it. */
  @FunctionalInterface
  interface RootInfo {
    byte[] obtain(DeviceRuntime runtime, int device);
  }

  private final int ranks;
  private final int firstRank;
  private final RootInfo rootInfo;

  SpreadGroup(int ranks, int firstRank, RootInfo rootInfo) {
    this.ranks = ranks;
    this.firstRank = firstRank;
    this.rootInfo = rootInfo;
  }

  /**
   * One side of a two-host probe: the side holding rank 0 makes the blob and writes it for its
   * agent (which hands it to the peer); the other side was given it.
   *
   * @throws UncheckedIOException from {@link #open} when the blob cannot be written
   */
  static SpreadGroup of(PeerPairSettings settings) {
    return new SpreadGroup(
        settings.ranks(),
        settings.firstRank(),
        (runtime, device) -> {
          if (settings.firstRank() != 0) {
            return Base64.getDecoder().decode(settings.rootInfo());
          }
          byte[] info = runtime.collectiveRootInfo(device);
          Path file = Path.of(settings.rootInfoFile());
          Path partial = file.resolveSibling(file.getFileName() + ".partial");
          try {
            // Whole or not at all: the agent polls for the file while this process goes on.
            Files.writeString(
                partial, Base64.getEncoder().encodeToString(info), StandardCharsets.UTF_8);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          return info;
        });
  }

  @Override
  public List<Communicator> open(DeviceRuntime runtime, List<Integer> devices) {
    byte[] info = rootInfo.obtain(runtime, devices.get(0));
    Communicator[] joined = new Communicator[devices.size()];
    RuntimeException[] failed = new RuntimeException[devices.size()];
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < devices.size(); i++) {
      int index = i;
      int device = devices.get(i);
      Thread t =
          new Thread(
              () -> {
                try {
                  joined[index] = runtime.joinCollective(info, ranks, firstRank + index, device);
                } catch (RuntimeException e) {
                  failed[index] = e;
                }
              },
              "linkwatch-join-rank-" + (firstRank + index));
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    RankGroup.joinAll(threads);
    RuntimeException first = Arrays.stream(failed).filter(e -> e != null).findFirst().orElse(null);
    if (first == null) {
      return List.of(joined);
    }
    // The ranks that did join belong to a group that will never form: release them.
    for (Communicator c : joined) {
      if (c != null) {
        try {
          c.close();
        } catch (RuntimeException e) {
          first.addSuppressed(e);
        }
      }
    }
    throw first;
  }
}
