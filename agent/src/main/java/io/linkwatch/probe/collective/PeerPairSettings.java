package io.linkwatch.probe.collective;

import io.linkwatch.probe.Preflight;
import io.linkwatch.probe.Probe;
import io.linkwatch.probe.ProbeSettings;
import java.util.List;

/**
 * One side's part of a two-host probe ({@code peer_allreduce} or {@code peer_p2p}): this host's
 * {@code devices} are ranks {@code firstRank} on, of {@code ranks} in all. The side holding rank 0
 * makes the group's blob and writes it, base64, to {@code rootInfoFile} for its agent to hand to
 * the other side; the other side is given it as {@code rootInfo}. Never read from a config file:
 * the agent writes these for its worker from {@code peers.collective} and what the lease agreed.
 *
 * @param probe {@link PeerAllreduceProbe#ID} or {@link PeerP2pProbe#ID}
 * @param rootInfo the blob, base64; empty on the side that makes it
 * @param rootInfoFile where the side holding rank 0 writes the blob; empty on the other side
 */
public record PeerPairSettings(
    String probe,
    List<Long> sizes,
    int warmup,
    int iterations,
    List<Integer> devices,
    int ranks,
    int firstRank,
    String rootInfo,
    String rootInfoFile)
    implements ProbeSettings {

  /** The two-host probes, in the order a lease runs them. */
  public static final List<String> PROBES = List.of(PeerAllreduceProbe.ID, PeerP2pProbe.ID);

  public PeerPairSettings {
    sizes = List.copyOf(sizes);
    devices = List.copyOf(devices);
    rootInfo = rootInfo == null ? "" : rootInfo;
    rootInfoFile = rootInfoFile == null ? "" : rootInfoFile;
    if (!PROBES.contains(probe)) {
      throw new IllegalArgumentException(
          "probe: " + probe + " is not a two-host probe (" + String.join(", ", PROBES) + ")");
    }
    if (devices.isEmpty()) {
      throw new IllegalArgumentException("a two-host probe needs at least one device here");
    }
    if (PeerP2pProbe.ID.equals(probe) && (devices.size() != 1 || ranks != 2)) {
      throw new IllegalArgumentException(
          "peer_p2p runs between one device on each host: 2 ranks, not "
              + ranks
              + " with "
              + devices.size()
              + " here");
    }
    if (firstRank < 0 || firstRank + devices.size() > ranks) {
      throw new IllegalArgumentException(
          "ranks "
              + firstRank
              + ".."
              + (firstRank + devices.size() - 1)
              + " do not fit a group of "
              + ranks);
    }
    if ((firstRank == 0) == rootInfoFile.isEmpty() || (firstRank == 0) != rootInfo.isEmpty()) {
      throw new IllegalArgumentException(
          "the side holding rank 0 makes the root info (rootInfoFile), the other is given it"
              + " (rootInfo)");
    }
  }

  /** The side holding rank 0: it makes the group's blob and writes it to {@code rootInfoFile}. */
  public static PeerPairSettings root(
      String probe,
      List<Long> sizes,
      int warmup,
      int iterations,
      List<Integer> devices,
      int ranks,
      String rootInfoFile) {
    return new PeerPairSettings(
        probe, sizes, warmup, iterations, devices, ranks, 0, "", rootInfoFile);
  }

  @Override
  public Probe newProbe() {
    return PeerP2pProbe.ID.equals(probe) ? new PeerP2pProbe(this) : new PeerAllreduceProbe(this);
  }

  @Override
  public void preflight(Preflight check) {
    check.devicesExist("devices", devices);
    check.sizesFit("sizes", sizes);
  }
}
