package io.linkwatch.state;

import io.linkwatch.runtime.Backend;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the running agent answers, kept beside the probe lock ({@code /run/linkwatch/agent.url}:
 * its URL and process id), so that {@code linkwatch status} and {@code check} on the same host ask
 * the port the agent really bound, whatever {@code --listen} it was started with. The agent writes
 * it once it listens and removes it when it stops; a file whose process is gone (a killed agent) is
 * not believed.
 *
 * <p>Below the first line the agent records its backend and, on a simulated one, the sim's own
 * settings from its environment ({@code LINKWATCH_SIM_*}: profile, fault control file), so that a
 * {@code check} beside it measures the same devices and sees the same faults as the agent it asks:
 *
 * <pre>
 * http://127.0.0.1:10187 4242
 * backend sim
 * env LINKWATCH_SIM_PROFILE=/opt/linkwatch/native/profiles/8x910b-hccs.profile
 * env LINKWATCH_SIM_CONTROL=/tmp/linkwatch-sim-8x910b.ctl
 * </pre>
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

  /** The environment variables the sim reads, which the agent records for a check beside it. */
  public static final String SIM_ENVIRONMENT_PREFIX = "LINKWATCH_SIM_";

  /**
   * What a running agent recorded.
   *
   * @param backend its backend, when it recorded one (an agent of an earlier version did not)
   * @param simEnvironment on a simulated backend, its {@code LINKWATCH_SIM_*} variables
   */
  public record Running(
      String url, long pid, Optional<Backend> backend, Map<String, String> simEnvironment) {
    public Running {
      simEnvironment = Map.copyOf(simEnvironment);
    }
  }

  /** Records {@code url} for this process; nothing when there is no lock directory. */
  public static void write(Path lockFile, String url) {
    write(lockFile, url, null, Map.of());
  }

  /**
   * Records {@code url}, {@code backend} and, for a simulated backend, the {@code LINKWATCH_SIM_*}
   * variables of {@code environment} (this process's); nothing when there is no lock directory.
   */
  public static void write(
      Path lockFile, String url, Backend backend, Map<String, String> environment) {
    if (lockFile == null || !Files.isDirectory(lockFile.getParent())) {
      return;
    }
    Path target = file(lockFile);
    Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
    try {
      StringBuilder text = new StringBuilder();
      text.append(url).append(' ').append(ProcessHandle.current().pid()).append('\n');
      if (backend != null) {
        text.append("backend ").append(backend.id()).append('\n');
        if (backend.simulated()) {
          new TreeMap<>(environment)
              .forEach(
                  (k, v) -> {
                    if (k.startsWith(SIM_ENVIRONMENT_PREFIX) && !v.contains("\n")) {
                      text.append("env ").append(k).append('=').append(v).append('\n');
                    }
                  });
        }
      }
      Files.writeString(tmp, text.toString(), StandardCharsets.UTF_8);
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
    return runningAgent(lockFile).map(Running::url);
  }

  /** What a running agent recorded beside {@code lockFile}, when its process still runs. */
  public static Optional<Running> runningAgent(Path lockFile) {
    if (lockFile == null) {
      return Optional.empty();
    }
    return read(file(lockFile))
        .filter(r -> ProcessHandle.of(r.pid()).map(ProcessHandle::isAlive).orElse(false));
  }

  private static Optional<Running> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readString(file).strip().lines().toList();
    } catch (IOException e) {
      return Optional.empty(); // no agent recorded one
    }
    String[] parts = lines.isEmpty() ? new String[0] : lines.get(0).strip().split("\\s+");
    if (parts.length != 2
        || !parts[0].matches("https?://\\S+:\\d+")
        || !parts[1].matches("\\d{1,10}")) {
      return Optional.empty();
    }
    Backend backend = null;
    Map<String, String> env = new TreeMap<>();
    for (String line : lines.subList(1, lines.size())) {
      if (line.startsWith("backend ")) {
        try {
          backend = Backend.parse(line.substring("backend ".length()).strip());
        } catch (IllegalArgumentException e) {
          log.debug("{}: unknown backend line: {}", file, line);
        }
      } else if (line.startsWith("env " + SIM_ENVIRONMENT_PREFIX) && line.indexOf('=') > 0) {
        String pair = line.substring("env ".length());
        env.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
      }
    }
    return Optional.of(
        new Running(parts[0], Long.parseLong(parts[1]), Optional.ofNullable(backend), env));
  }
}
