package io.linkwatch.probe.collective;

import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeContext;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.util.Durations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

/**
 * This host's part of a sum-allreduce whose ranks span two hosts ({@code peer_allreduce}): the
 * in-host allreduce's rounds, data and check ({@link AllreduceProbe}), over a group formed with
 * {@code HcclCommInitRootInfo} / {@code ncclCommInitRank} instead of one {@code HcclCommInitAll}.
 * Every rank sends {@code rank+1}, so every rank of both hosts must receive {@code n(n+1)/2}: bytes
 * that crossed the network wrong fail the run.
 *
 * <p>The devices are checked before and after, as every probe's are: busy before, nothing touches
 * them and no blob is made (the side holding rank 0 never writes its file, which tells its agent);
 * busy after, the figures are thrown away.
 */
public final class PeerAllreduceProbe implements Probe {
  /** The id of the two-host allreduce: its {@code probe} label and its families' prefix. */
  public static final String ID = "peer_allreduce";

  private final PeerAllreduceSettings settings;
  private final CollectiveRounds.Collective collective =
      new AllreduceProbe(AllreduceSettings.DEFAULTS).collective();

  PeerAllreduceProbe(PeerAllreduceSettings settings) {
    this.settings = settings;
  }

  @Override
  public ProbeRun run(ProbeContext context) {
    List<Integer> devices = settings.devices();
    String target = devices.stream().map(String::valueOf).collect(Collectors.joining(","));
    long started = System.nanoTime();
    int found = context.runtime().deviceCount();
    for (int d : devices) {
      if (d >= found) {
        return ProbeRun.of(
            ID,
            List.of(
                TargetResult.failure(
                    target, Outcome.ERROR, "no device " + d + " (found " + found + ")", 0)));
      }
    }
    SpreadGroup group = new SpreadGroup(settings.ranks(), settings.firstRank(), this::rootInfo);
    return ProbeRun.of(
        ID,
        List.of(
            context
                .gate()
                .guard(
                    target,
                    devices,
                    () -> {
                      try {
                        return CollectiveRounds.measure(
                            context,
                            devices,
                            group,
                            settings.ranks(),
                            target,
                            started,
                            settings.sizes(),
                            settings.warmup(),
                            settings.iterations(),
                            collective);
                      } catch (UncheckedIOException e) {
                        return TargetResult.failure(
                            target,
                            Outcome.ERROR,
                            "writing the root info for the peer: " + e.getCause().getMessage(),
                            Durations.secondsSince(started));
                      }
                    })));
  }

  /** The root side makes the blob and writes it for its agent; the other side was given it. */
  private byte[] rootInfo(DeviceRuntime runtime, int device) {
    if (settings.firstRank() != 0) {
      return Base64.getDecoder().decode(settings.rootInfo());
    }
    byte[] info = runtime.collectiveRootInfo(device);
    Path file = Path.of(settings.rootInfoFile());
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    try {
      // Whole or not at all: the agent polls for the file while this process goes on to join.
      Files.writeString(partial, Base64.getEncoder().encodeToString(info), StandardCharsets.UTF_8);
      Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return info;
  }
}
