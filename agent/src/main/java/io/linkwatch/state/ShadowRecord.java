package io.linkwatch.state;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one hook of the job-boundary kit would have done in shadow mode, kept beside the probe lock
 * ({@code /run/linkwatch/shadow-healthcheck.json}) so that the agent counts it on {@code /metrics}:
 * how many times it would have acted, and the verdict it would have acted on last. The count lives
 * as long as the directory's contents (a tmpfs: until the host restarts), as the checks' records
 * do.
 *
 * @param count the FAIL verdicts the hook did not act on
 * @param lastLine the last of them, e.g. {@code SHADOW FAIL - device 3: LW-DEVICE-SLOW ...}
 */
public record ShadowRecord(KitHook hook, long count, String lastLine, double lastEpochSeconds) {
  private static final Logger log = LoggerFactory.getLogger(ShadowRecord.class);

  static Path file(Path lockFile, KitHook hook) {
    return lockFile.resolveSibling("shadow-" + hook.id() + ".json");
  }

  /**
   * Counts one more verdict {@code hook} did not act on. Several prologs may end at once: the count
   * is read and written under a file lock of its own (and one thread of this process at a time: a
   * file lock is held per process), so none is lost. Nothing when there is no lock directory; a
   * failure to write is logged, never the command's failure.
   */
  public static synchronized void add(
      Path lockFile, KitHook hook, String line, double nowEpochSeconds) {
    if (lockFile == null || !Files.isDirectory(lockFile.getParent())) {
      return;
    }
    Path target = file(lockFile, hook);
    Path lock = lockFile.resolveSibling(".shadow.lock");
    try (FileChannel channel =
        FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      // Held until the channel closes: the read and the write below happen under it.
      channel.lock();
      long before = readOne(target).map(ShadowRecord::count).orElse(0L);
      JsonObject o = new JsonObject();
      o.addProperty("hook", hook.id());
      o.addProperty("action", hook.action());
      o.addProperty("count", before + 1);
      o.addProperty("last_line", line);
      o.addProperty("last", nowEpochSeconds);
      AtomicFile.write(target, o + "\n");
    } catch (IOException | RuntimeException e) {
      log.warn("cannot count the shadow {} in {}: {}", hook.action(), target, e.getMessage());
    }
  }

  /** The records kept beside {@code lockFile}, one per hook that would have acted. */
  public static List<ShadowRecord> read(Path lockFile) {
    List<ShadowRecord> out = new ArrayList<>();
    if (lockFile == null) {
      return out;
    }
    for (KitHook hook : KitHook.values()) {
      readOne(file(lockFile, hook)).ifPresent(out::add);
    }
    return out;
  }

  private static Optional<ShadowRecord> readOne(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      JsonObject o = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
      return KitHook.byId(o.get("hook").getAsString())
          .map(
              h ->
                  new ShadowRecord(
                      h,
                      o.get("count").getAsLong(),
                      o.get("last_line").getAsString(),
                      o.get("last").getAsDouble()));
    } catch (IOException | RuntimeException e) {
      log.debug("{}: {}", file, e.getMessage());
      return Optional.empty();
    }
  }
}
