package io.linkwatch.state;

import io.linkwatch.passive.LinkState;
import io.linkwatch.status.PassiveSection;
import io.linkwatch.util.Json;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job's link record, kept beside the probe lock ({@code /run/linkwatch/jobs/1234.json}): what
 * its prolog's check saw before it started and its epilog's check after it ended (the verdict and
 * every link's and network port's counters), so that {@code linkwatch status --job 1234} reports
 * what the job's links did, and the agent names the jobs that were running when a finding appeared.
 * The directory lives as long as the probe lock's (a tmpfs: until the host restarts), and keeps the
 * newest {@link #KEPT} jobs.
 *
 * @param start the prolog's mark; null before it (a record the epilog began)
 * @param end the epilog's mark; null while the job runs
 */
public record JobRecord(String job, JobMark start, JobMark end) {
  private static final Logger log = LoggerFactory.getLogger(JobRecord.class);
  private static final Json JSON = Json.snakeCase(Set.of(), Map.of());

  /** Jobs kept: a node runs a few hundred a day at most, each a few KiB. */
  static final int KEPT = 500;

  /** Slurm's job ids (123, an array's 123_4, a het job's 123+0), a pod's namespace/name. */
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.+:/-]{0,127}");

  /**
   * What a check at one end of the job saw.
   *
   * @param level the check's level ({@code quick}, {@code medium})
   * @param firstLine the check's first line, e.g. {@code OK - 8 devices, 56 p2p figures, ...}
   * @param counters every link's and network port's counters then
   */
  public record JobMark(
      double atEpochSeconds,
      String level,
      String state,
      String firstLine,
      List<Counters> counters) {
    public JobMark {
      counters = counters == null ? List.of() : List.copyOf(counters);
    }
  }

  /**
   * One link's or port's counters, named as the verdict names it ({@code dev0 HCCS link 3 (to 3)},
   * {@code nic mlx5_0 port 1}); a counter the reader does not give is null.
   */
  public record Counters(
      String subject, Long transmitBytes, Long receiveBytes, Map<String, Long> errors) {
    public Counters {
      errors = errors == null ? Map.of() : Map.copyOf(errors);
    }
  }

  /** Whether {@code job} may name a record (no path separators that climb, no spaces). */
  public static boolean validId(String job) {
    return job != null && ID.matcher(job).matches() && !job.contains("..");
  }

  /** Every link's and port's counters in {@code passive}, in its order. */
  public static List<Counters> counters(PassiveSection passive) {
    List<Counters> out = new ArrayList<>();
    if (passive == null) {
      return out;
    }
    for (PassiveSection.Device d : passive.devices()) {
      for (LinkState l : d.links()) {
        out.add(
            new Counters(l.subject(d.device()), l.transmitBytes(), l.receiveBytes(), l.errors()));
      }
    }
    for (PassiveSection.NicEntry n : passive.nicPorts()) {
      out.add(new Counters(n.subject(), n.transmitBytes(), n.receiveBytes(), n.errors()));
    }
    return out;
  }

  static Path dir(Path lockFile) {
    return lockFile.resolveSibling("jobs");
  }

  private static Path file(Path lockFile, String job) {
    return dir(lockFile).resolve(job.replace('/', '_') + ".json");
  }

  /**
   * Keeps {@code mark} as the start (a prolog's) or the end (an epilog's) of {@code job}; nothing
   * when there is no lock directory. A failure to write is logged, never the check's failure.
   */
  public static synchronized void mark(Path lockFile, String job, boolean start, JobMark mark) {
    if (lockFile == null || !Files.isDirectory(lockFile.getParent()) || !validId(job)) {
      return;
    }
    Path target = file(lockFile, job);
    try {
      Files.createDirectories(dir(lockFile));
      try (FileChannel channel =
          FileChannel.open(
              dir(lockFile).resolve(".lock"),
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE)) {
        // Held until the channel closes: a job's prolog and epilog on two hosts' shared /run never
        // meet, but a requeued job's may.
        channel.lock();
        Optional<JobRecord> before = readFile(target);
        JobRecord next =
            new JobRecord(
                job, start ? mark : before.map(JobRecord::start).orElse(null), start ? null : mark);
        AtomicFile.write(target, JSON.write(next) + "\n");
        prune(dir(lockFile));
      }
    } catch (IOException | RuntimeException e) {
      log.warn("cannot keep job {}'s link record in {}: {}", job, target, e.getMessage());
    }
  }

  /** Job {@code job}'s record, when one is kept. */
  public static Optional<JobRecord> read(Path lockFile, String job) {
    if (lockFile == null || !validId(job)) {
      return Optional.empty();
    }
    return readFile(file(lockFile, job));
  }

  /** The jobs whose prolog has run and whose epilog has not. */
  public static List<String> running(Path lockFile) {
    List<String> out = new ArrayList<>();
    if (lockFile == null || !Files.isDirectory(dir(lockFile))) {
      return out;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir(lockFile), "*.json")) {
      for (Path f : files) {
        readFile(f)
            .filter(r -> r.start() != null && r.end() == null)
            .ifPresent(r -> out.add(r.job()));
      }
    } catch (IOException e) {
      log.debug("{}: {}", dir(lockFile), e.getMessage());
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  private static Optional<JobRecord> readFile(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(JSON.read(Files.readString(file), JobRecord.class));
    } catch (IOException | RuntimeException e) {
      log.debug("{}: {}", file, e.getMessage());
      return Optional.empty();
    }
  }

  /** Keeps the newest {@link #KEPT} records. */
  private static void prune(Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, "*.json")) {
      all.forEach(files::add);
    }
    if (files.size() <= KEPT) {
      return;
    }
    files.sort(Comparator.comparing(JobRecord::modified));
    for (Path old : files.subList(0, files.size() - KEPT)) {
      Files.deleteIfExists(old);
    }
  }

  private static long modified(Path f) {
    try {
      return Files.getLastModifiedTime(f).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }
}
