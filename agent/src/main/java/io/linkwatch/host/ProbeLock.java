package io.linkwatch.host;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host-wide lock that keeps two linkwatch processes from measuring the devices at once: the
 * agent holds it around each probe run, {@code linkwatch check} around its whole check. Two copies
 * over one link at once each measure about half the link, a false low on both sides.
 *
 * <p>An fcntl lock on a file ({@code /run/linkwatch/probes.lock} by default, the unit's runtime
 * directory): the kernel drops it when its holder dies, so a killed check or a crashed agent never
 * leaves it stuck. The holder writes what it is into the file, so a waiter can say what it waits
 * for. The file is made writable by all: the agent runs as its own user, a Slurm prolog as root,
 * and whichever comes first creates it.
 *
 * <p>When the lock cannot be used (no such directory: no agent installed here; no permission), a
 * holder measures without it and {@link Held#coordinated()} says so: the lock protects figures, it
 * must not stop a health check.
 */
public final class ProbeLock {
  private static final Logger log = LoggerFactory.getLogger(ProbeLock.class);

  public static final Path DEFAULT_PATH = Path.of("/run/linkwatch/probes.lock");

  private static final long POLL_MILLIS = 50;

  private static final String NO_DIRECTORY = ": no such directory";

  /**
   * The fix when the lock's directory is missing: the installed unit makes it (systemd's
   * RuntimeDirectory=); an agent started by hand, as the demo is, needs it made, or another file.
   */
  public static final String MISSING_DIRECTORY_REMEDY =
      "create it (mkdir -p, as the systemd unit's RuntimeDirectory=linkwatch does) or set"
          + " coordination.lock_file to a file in a directory that exists";

  private final Path path;

  /** A lock on {@code path}; null for none (every acquire succeeds, uncoordinated). */
  public ProbeLock(Path path) {
    this.path = path;
  }

  public static ProbeLock none() {
    return new ProbeLock(null);
  }

  public Optional<Path> path() {
    return Optional.ofNullable(path);
  }

  /** A held lock (or the note that there is none to hold); closing it releases it. */
  public static final class Held implements AutoCloseable {
    private final FileChannel channel;
    private final String uncoordinated;

    private Held(FileChannel channel, String uncoordinated) {
      this.channel = channel;
      this.uncoordinated = uncoordinated;
    }

    /** Whether another linkwatch process is kept off the devices while this is held. */
    public boolean coordinated() {
      return channel != null;
    }

    /** Why not coordinated, e.g. {@code /run/linkwatch: no such directory}; empty when it is. */
    public String uncoordinatedBecause() {
      return uncoordinated;
    }

    /**
     * What to do about it, where something can be done; empty otherwise (coordinated, or no lock
     * file configured, which is the operator's own choice).
     */
    public String remedy() {
      return uncoordinated.endsWith(NO_DIRECTORY) ? MISSING_DIRECTORY_REMEDY : "";
    }

    @Override
    public void close() {
      if (channel != null) {
        try {
          channel.close(); // releases the lock
        } catch (IOException e) {
          log.debug("closing the probe lock: {}", e.getMessage());
        }
      }
    }
  }

  /**
   * Takes the lock, waiting up to {@code wait} for its holder: empty when it stayed held that long.
   *
   * @param holder what takes it, written into the file for waiters (e.g. {@code agent probe p2p})
   */
  public Optional<Held> acquire(String holder, Duration wait) throws InterruptedException {
    if (path == null) {
      return Optional.of(new Held(null, "no lock file configured"));
    }
    FileChannel channel;
    try {
      channel = open();
    } catch (NoSuchFileException e) {
      return Optional.of(new Held(null, path.getParent() + NO_DIRECTORY));
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.of(new Held(null, path + ": " + e.getMessage()));
    }
    long deadline = System.nanoTime() + wait.toNanos();
    try {
      while (true) {
        FileLock lock = tryLock(channel);
        if (lock != null) {
          describe(channel, holder);
          return Optional.of(new Held(channel, ""));
        }
        if (System.nanoTime() >= deadline) {
          channel.close();
          return Optional.empty();
        }
        Thread.sleep(POLL_MILLIS);
      }
    } catch (IOException e) {
      closeQuietly(channel);
      return Optional.of(new Held(null, path + ": " + e.getMessage()));
    } catch (InterruptedException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  /** What the file says holds (or last held) the lock, e.g. {@code agent probe p2p (pid 4242)}. */
  public String holder() {
    if (path == null) {
      return "";
    }
    try {
      return Files.readString(path, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "";
    }
  }

  private FileChannel open() throws IOException {
    try {
      return FileChannel.open(path, StandardOpenOption.WRITE);
    } catch (NoSuchFileException e) {
      if (!Files.isDirectory(path.getParent())) {
        throw e;
      }
    }
    FileChannel channel =
        FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
    try {
      // Whichever of the agent (its own user) and a check (root, from a prolog) comes first
      // creates it; the other must still open it for writing to lock it.
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-rw-rw-"));
    } catch (IOException e) {
      log.debug("{}: cannot make it writable by all: {}", path, e.getMessage());
    }
    return channel;
  }

  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      // Held by this very process through another channel: held all the same.
      return null;
    }
  }

  private static void describe(FileChannel channel, String holder) {
    try {
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap(
              (holder + " (pid " + ProcessHandle.current().pid() + ")\n")
                  .getBytes(StandardCharsets.UTF_8)),
          0);
    } catch (IOException e) {
      log.debug("describing the probe lock's holder: {}", e.getMessage());
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      log.debug("closing the probe lock: {}", e.getMessage());
    }
  }
}
