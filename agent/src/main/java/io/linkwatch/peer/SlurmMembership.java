package io.linkwatch.peer;

import io.linkwatch.peer.PeerSchedule.Member;
import io.linkwatch.process.ExternalCommand;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The members from Slurm: the nodes {@code sinfo -h -N -o %N} lists (of one partition, with {@code
 * -p}), each on the agents' port. A node in several partitions is one member. Read at start and
 * every {@code refresh}; a node that Slurm drains stays a member (it is the one to watch). The
 * agents' {@code tor} is not known to Slurm here: the members have none.
 */
final class SlurmMembership extends PolledMembership {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final ExternalCommand sinfo;
  private final int port;

  SlurmMembership(PeerConfig.Slurm slurm) {
    super("peer-slurm");
    List<String> cmd = new ArrayList<>(List.of("sinfo", "-h", "-N", "-o", "%N"));
    slurm.partition().ifPresent(p -> cmd.addAll(List.of("-p", p)));
    this.sinfo = new ExternalCommand(cmd, TIMEOUT);
    this.port = slurm.port();
  }

  static SlurmMembership start(PeerConfig.Slurm slurm) {
    SlurmMembership m = new SlurmMembership(slurm);
    m.startReading(slurm.refresh());
    return m;
  }

  @Override
  public String source() {
    return "slurm";
  }

  @Override
  String shown() {
    return sinfo.name();
  }

  @Override
  List<Member> fetch() throws Exception {
    ExternalCommand.Result r = sinfo.run();
    if (r.status() != 0) {
      throw new IllegalStateException("exit " + r.status() + ": " + r.firstLine());
    }
    return members(r.stdout(), port);
  }

  /** The nodes of {@code sinfo -h -N -o %N}'s output, once each, as members on {@code port}. */
  static List<Member> members(String sinfo, int port) {
    TreeSet<String> nodes = new TreeSet<>();
    for (String line : sinfo.split("\n")) {
      String node = line.strip();
      if (!node.isEmpty()) {
        nodes.add(node);
      }
    }
    List<Member> out = new ArrayList<>();
    for (String node : nodes) {
      out.add(new Member(new PeerAddress(node, port).text(), null));
    }
    return List.copyOf(out);
  }
}
