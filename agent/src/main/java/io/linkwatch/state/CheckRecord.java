package io.linkwatch.state;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last check of each level, kept beside the probe lock ({@code
 * /run/linkwatch/last-check-quick.json}), so that the agent publishes it on {@code /metrics} and a
 * fleet dashboard shows on which nodes a check failed, and why. Written whole and renamed into
 * place: a reader never sees half a record.
 *
 * @param level {@code quick} or {@code medium}
 * @param state the verdict, {@code OK} to {@code FAIL}
 * @param code the worst finding's code, e.g. {@code LW-BELOW-FLOOR}; empty when OK
 * @param subject what that finding concerns, e.g. {@code p2p 0->1 SIO 256MiB}; empty when OK
 * @param summary the first line without its state word
 * @param endedEpochSeconds when the check ended
 * @param seconds how long it took
 */
public record CheckRecord(
    String level,
    String state,
    String code,
    String subject,
    String summary,
    double endedEpochSeconds,
    double seconds) {
  private static final Logger log = LoggerFactory.getLogger(CheckRecord.class);

  static Path file(Path lockFile, String level) {
    return lockFile.resolveSibling("last-check-" + level + ".json");
  }

  /** Keeps {@code r} beside {@code lockFile}; nothing when there is no such directory. */
  public static void write(Path lockFile, CheckRecord r) {
    if (lockFile == null || !Files.isDirectory(lockFile.getParent())) {
      return;
    }
    JsonObject o = new JsonObject();
    o.addProperty("level", r.level());
    o.addProperty("state", r.state());
    o.addProperty("code", r.code());
    o.addProperty("subject", r.subject());
    o.addProperty("summary", r.summary());
    o.addProperty("ended", r.endedEpochSeconds());
    o.addProperty("seconds", r.seconds());
    Path target = file(lockFile, r.level());
    try {
      AtomicFile.write(target, o + "\n");
    } catch (IOException e) {
      log.warn("cannot keep the check's result in {}: {}", target, e.getMessage());
    }
  }

  /**
   * The records kept beside {@code lockFile} for {@code levels} (in that order), one per level that
   * ran; unreadable ones left out.
   */
  public static List<CheckRecord> read(Path lockFile, List<String> levels) {
    List<CheckRecord> records = new ArrayList<>();
    if (lockFile == null) {
      return records;
    }
    for (String level : levels) {
      readOne(file(lockFile, level)).ifPresent(records::add);
    }
    return records;
  }

  private static Optional<CheckRecord> readOne(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      JsonObject o = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
      return Optional.of(
          new CheckRecord(
              o.get("level").getAsString(),
              o.get("state").getAsString(),
              o.get("code").getAsString(),
              o.has("subject") ? o.get("subject").getAsString() : "",
              o.get("summary").getAsString(),
              o.get("ended").getAsDouble(),
              o.get("seconds").getAsDouble()));
    } catch (IOException | RuntimeException e) {
      log.debug("{}: {}", file, e.getMessage());
      return Optional.empty();
    }
  }
}
