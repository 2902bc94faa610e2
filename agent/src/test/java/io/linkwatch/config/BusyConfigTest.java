package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.activity.BusyPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code busy:} block: defaults, every key, and each invalid value's message. */
class BusyConfigTest {
  @Test
  void defaultsSkipBusyDevicesAndRetryEveryThirtySeconds() {
    BusyPolicy busy = ConfigLoader.defaults().busy();
    assertThat(busy).isEqualTo(BusyPolicy.DEFAULTS);
    assertThat(busy.skips()).isTrue();
    assertThat(busy.retry()).isEqualTo(Duration.ofSeconds(30));
    assertThat(busy.whenUnknown()).isEqualTo(BusyPolicy.Unknown.BUSY);
    assertThat(busy.alertAfter()).isEqualTo(Duration.ofHours(24));
  }

  @Test
  void everyKeyIsRead() {
    BusyPolicy busy =
        ConfigLoader.parse(
                "f.yaml",
                """
                busy:
                  policy: ignore
                  retry: 10s
                  utilization_above: 0.25
                  memory_above: 512MiB
                  when_unknown: idle
                  alert_after: 12h
                  check_timeout: 2s
                  npu_smi: /usr/local/bin/npu-smi
                """)
            .busy();
    assertThat(busy)
        .isEqualTo(
            new BusyPolicy(
                BusyPolicy.Mode.IGNORE,
                Duration.ofSeconds(10),
                0.25,
                512L << 20,
                BusyPolicy.Unknown.IDLE,
                Duration.ofHours(12),
                Duration.ofSeconds(2),
                "/usr/local/bin/npu-smi"));
  }

  @Test
  void podResourcesDefaultToTheKubeletsSocketAndCanBeSwitchedOff() {
    assertThat(ConfigLoader.defaults().podResources())
        .isEqualTo(
            new PodResourcesSettings(
                Optional.of(Path.of("/var/lib/kubelet/pod-resources/kubelet.sock")),
                Duration.ofSeconds(2)));
    AgentConfig set =
        ConfigLoader.parse(
            "f.yaml",
            """
            busy:
              pod_resources_socket: /run/k/kubelet.sock
              pod_resources_timeout: 500ms
            """);
    assertThat(set.podResources())
        .isEqualTo(
            new PodResourcesSettings(
                Optional.of(Path.of("/run/k/kubelet.sock")), Duration.ofMillis(500)));
    assertThat(set.busy()).isEqualTo(BusyPolicy.DEFAULTS);
    assertThat(
            ConfigLoader.parse("f.yaml", "busy:\n  pod_resources_socket: \"\"\n")
                .podResources()
                .socket())
        .isEmpty();
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("busy:\n  policy: wait", "f.yaml: busy.policy: 'wait' is not skip or ignore"),
        Arguments.of(
            "busy:\n  retry: soon",
            "f.yaml: busy.retry: 'soon' is not a duration (use e.g. 500ms, 30s, 5m, 1h)"),
        Arguments.of(
            "busy:\n  utilization_above: 80",
            "f.yaml: busy.utilization_above: must be between 0.0 and 1.0, not 80.0"),
        Arguments.of(
            "busy:\n  when_unknown: maybe",
            "f.yaml: busy.when_unknown: 'maybe' is not busy or idle"),
        Arguments.of(
            "busy:\n  npu_smi: npu-smi info",
            "f.yaml: busy.npu_smi: 'npu-smi info' must be one program name or path, without"
                + " arguments"),
        Arguments.of(
            "busy:\n  retries: 3",
            "f.yaml: busy.retries: unknown key (valid here: alert_after, check_timeout, memory_above, npu_smi, pod_resources_socket, pod_resources_timeout, policy, retry, utilization_above, when_unknown)"),
        Arguments.of(
            "busy:\n  pod_resources_socket: kubelet.sock",
            "f.yaml: busy.pod_resources_socket: 'kubelet.sock' must be an absolute path"),
        Arguments.of(
            "busy:\n  pod_resources_timeout: 0s",
            "f.yaml: busy.pod_resources_timeout: '0s' is not a duration: it must be above 0"),
        Arguments.of(
            "busy:\n  pod_resources_timeout: 5m",
            "f.yaml: busy.pod_resources_timeout: '5m' is too long: at most 1m (the lookup never"
                + " delays probes or scrapes)"),
        Arguments.of("busy: skip", "f.yaml: busy: must be a mapping of keys to values"));
  }

  @ParameterizedTest
  @MethodSource("invalid")
  void invalidValuesNameTheKeyAndTheReason(String yaml, String message) {
    assertThatThrownBy(() -> ConfigLoader.parse("f.yaml", yaml)).hasMessage(message);
  }
}
