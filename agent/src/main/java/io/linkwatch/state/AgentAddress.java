package io.linkwatch.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the running agent answers, kept beside the probe lock ({@code /run/linkwatch/agent.url}:
 * its URL and process id), so that {@code linkwatch status} and {@code check} on the same host ask
 * the port the agent really bound, whatever {@code --listen} it was started with. The agent writes
 * it once it listens and removes it when it stops; a file whose process is gone (a killed agent) is
 * not believed.
 */
public final class AgentAddress {
  private static final Logger log = LoggerFactory.getLogger(AgentAddress.class);

  private AgentAddress() {}

  static Path file(Path lockFile) {
    return lockFile.resolveSibling("agent.url");
  }

  /**
   * The URL to reach an agent that listens on {@code host}:{@code port}: 127.0.0.1 for a wildcard
   * address, else the address itself (an agent bound to one interface answers only there).
   */
  public static String url(boolean tls, String host, int port) {
    String h =
        host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")
            ? "127.0.0.1"
            : host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    return (tls ? "https" : "http") + "://" + h + ":" + port;
  }

  /** Records {@code url} for this process; nothing when there is no lock directory. */
  public static void write(Path lockFile, String url) {
    if (lockFile == null || !Files.isDirectory(lockFile.getParent())) {
      return;
    }
    Path target = file(lockFile);
    Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
    try {
      Files.writeString(
          tmp, url + " " + ProcessHandle.current().pid() + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | UnsupportedOperationException e) {
      log.debug("cannot keep the agent's address in {}: {}", target, e.getMessage());
    }
  }

  /** Removes this process's record (another agent's is left alone). */
  public static void remove(Path lockFile) {
    if (lockFile == null) {
      return;
    }
    Path target = file(lockFile);
    read(target)
        .filter(r -> r.pid() == ProcessHandle.current().pid())
        .ifPresent(
            r -> {
              try {
                Files.deleteIfExists(target);
              } catch (IOException e) {
                log.debug("cannot remove {}: {}", target, e.getMessage());
              }
            });
  }

  /** The URL a running agent recorded beside {@code lockFile}, when its process still runs. */
  public static Optional<String> running(Path lockFile) {
    if (lockFile == null) {
      return Optional.empty();
    }
    return read(file(lockFile))
        .filter(r -> ProcessHandle.of(r.pid()).map(ProcessHandle::isAlive).orElse(false))
        .map(Record::url);
  }

  private record Record(String url, long pid) {}

  private static Optional<Record> read(Path file) {
    try {
      String[] parts = Files.readString(file).strip().split("\\s+");
      if (parts.length == 2
          && parts[0].matches("https?://\\S+:\\d+")
          && parts[1].matches("\\d{1,10}")) {
        return Optional.of(new Record(parts[0], Long.parseLong(parts[1])));
      }
    } catch (IOException e) {
      // no agent recorded one
    }
    return Optional.empty();
  }
}
