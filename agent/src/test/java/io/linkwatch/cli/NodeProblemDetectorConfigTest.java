package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shipped node-problem-detector monitor against the custom plugin contract
 * (pkg/custompluginmonitor): a permanent rule on the declared condition, a rule timeout within the
 * plugin's, output cut at 80 characters, and a command that is `linkwatch status --format npd`
 * (whose exit codes and first line {@code StatusLiveTest} checks against a running agent).
 */
class NodeProblemDetectorConfigTest {
  static final Path MONITOR =
      Path.of("..", "deploy", "node-problem-detector", "linkwatch-monitor.json");

  private static Duration duration(JsonNode n) {
    return io.linkwatch.util.Durations.parse(n.asText());
  }

  @Test
  void theMonitorKeepsTheCustomPluginContract() throws Exception {
    JsonNode m = new ObjectMapper().readTree(MONITOR.toFile());
    assertThat(m.get("plugin").asText()).isEqualTo("custom");
    JsonNode config = m.get("pluginConfig");
    assertThat(config.get("max_output_length").asInt()).isEqualTo(80);
    Duration pluginTimeout = duration(config.get("timeout"));
    assertThat(duration(config.get("invoke_interval"))).isGreaterThan(pluginTimeout);
    List<String> conditions = new ArrayList<>();
    m.get("conditions").forEach(c -> conditions.add(c.get("type").asText()));
    assertThat(conditions).containsExactly("AcceleratorLinkProblem");
    JsonNode rule = m.get("rules").get(0);
    assertThat(m.get("rules")).hasSize(1);
    assertThat(rule.get("type").asText()).isEqualTo("permanent");
    assertThat(rule.get("condition").asText()).isEqualTo("AcceleratorLinkProblem");
    // NPD refuses a rule whose timeout is longer than the plugin's.
    assertThat(duration(rule.get("timeout"))).isLessThanOrEqualTo(pluginTimeout);
    assertThat(rule.get("path").asText()).isEqualTo("/usr/bin/linkwatch");
    List<String> args = new ArrayList<>();
    rule.get("args").forEach(a -> args.add(a.asText()));
    assertThat(args).startsWith("status", "--format", "npd", "--hook", "npd");
    // status's own wait for the agent fits in the rule's timeout, JVM start included.
    Duration statusTimeout =
        io.linkwatch.util.Durations.parse(args.get(args.indexOf("--timeout") + 1));
    assertThat(statusTimeout.plusSeconds(3)).isLessThanOrEqualTo(duration(rule.get("timeout")));
    // The arguments parse as the real command line does.
    assertThat(
            Main.commandLine()
                .parseArgs(args.toArray(String[]::new))
                .subcommand()
                .commandSpec()
                .name())
        .isEqualTo("status");
  }
}
