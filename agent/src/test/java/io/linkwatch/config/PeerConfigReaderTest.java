package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.peer.PeerConfig;
import io.linkwatch.peer.PeerSchedule.Member;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code peers:} section: its defaults, its values, and an exact message for each mistake. */
class PeerConfigReaderTest {
  @Test
  void noSectionMeansNoPeers() {
    PeerConfig p = ConfigLoader.parse("f.yaml", "").peers();
    assertThat(p.enabled()).isFalse();
    assertThat(p).isEqualTo(PeerConfig.NONE);
  }

  @Test
  void readsEveryKey() {
    PeerConfig p =
        ConfigLoader.parse(
                "f.yaml",
                """
                peers:
                  static:
                    - {host: "node-01:10187", tor: leaf-a, rail: r0}
                    - {host: "[fd00::2]:10187"}
                  self: node-01:10187
                  round: 30s
                  budget_per_hour: 600
                  echoes: 10
                  payload_bytes: 1000
                  timeout: 500ms
                  loss_threshold: 0.1
                """)
            .peers();
    assertThat(p.enabled()).isTrue();
    assertThat(p.staticMembers())
        .containsExactly(
            new Member("node-01:10187", "leaf-a", "r0"), new Member("[fd00::2]:10187", null));
    assertThat(p.self()).contains("node-01:10187");
    assertThat(p.round()).isEqualTo(Duration.ofSeconds(30));
    assertThat(p.budgetPerHour()).isEqualTo(600);
    assertThat(p.plannedMeetingsPerHour()).isEqualTo(150);
    assertThat(p.echoes()).isEqualTo(10);
    assertThat(p.payloadBytes()).isEqualTo(1000);
    assertThat(p.timeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(p.lossThreshold()).isEqualTo(0.1);

    PeerConfig sd =
        ConfigLoader.parse("f.yaml", "peers:\n  http_sd: https://sd.example/p.json\n").peers();
    assertThat(sd.httpSd()).contains(URI.create("https://sd.example/p.json"));
    assertThat(sd.httpSdRefresh()).isEqualTo(Duration.ofMinutes(1));
    assertThat(sd.self()).isEqualTo(Optional.empty());
  }

  @Test
  void namesTheKeyAndTheReasonOfEachMistake() {
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    "f.yaml",
                    """
                    peers:
                      static:
                        - {host: node-01}
                        - {tor: leaf-a}
                        - {host: "node-02:10187"}
                        - {host: "node-02:10187"}
                      http_sd: ftp://sd.example/p.json
                      round: 1500ms
                      budget_per_hour: 8
                      payload_bytes: 9000
                      timeout: 1m
                      echos: 5
                    """))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "f.yaml: peers.static[0].host: 'node-01' is not HOST:PORT (e.g. node-07:10187)\n"
                + "f.yaml: peers.static[1].host: is required: the member's host:port, as its"
                + " agent listens\n"
                + "f.yaml: peers.static[3].host: node-02:10187 is listed twice\n"
                + "f.yaml: peers.http_sd: 'ftp://sd.example/p.json' is not an http:// or https://"
                + " URL\n"
                + "f.yaml: peers.round: 1500ms must be whole seconds, 1s or more\n"
                + "f.yaml: peers.budget_per_hour: must be between 16 and 1000000, not 8\n"
                + "f.yaml: peers.payload_bytes: must be between 36 and 1472, not 9000\n"
                + "f.yaml: peers.timeout: 1m must be from 10ms to 30s\n"
                + "f.yaml: peers.echos: unknown key, did you mean 'echoes'? (valid here:"
                + " budget_per_hour, collective, echoes, http_config_file, http_sd,"
                + " http_sd_refresh, kubernetes, loss_threshold, npu_ping, payload_bytes, round,"
                + " self, slurm, static, timeout)");
  }

  @Test
  void npuPingIsAutoUnlessToldAndItsFileIsAbsolute() {
    assertThat(ConfigLoader.parse("f.yaml", "").peers().npuPing())
        .isEqualTo(PeerConfig.NpuPing.DEFAULTS);
    PeerConfig p =
        ConfigLoader.parse(
                "f.yaml",
                "peers:\n  static: [{host: \"a:1\"}]\n"
                    + "  npu_ping: {enabled: true, hccn_conf: /etc/linkwatch/hccn.conf}\n")
            .peers();
    assertThat(p.npuPing().mode()).isEqualTo(PeerConfig.NpuPing.Mode.ON);
    assertThat(p.npuPing().hccnConf()).isEqualTo(java.nio.file.Path.of("/etc/linkwatch/hccn.conf"));
    assertThat(
            ConfigLoader.parse("f.yaml", "peers:\n  npu_ping: {enabled: false}\n")
                .peers()
                .npuPing()
                .mode())
        .isEqualTo(PeerConfig.NpuPing.Mode.OFF);
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    "f.yaml",
                    "peers:\n  npu_ping: {enabled: sometimes, hccn_conf: hccn.conf, count: 3}\n"))
        .hasMessageContaining("peers.npu_ping.enabled: ")
        .hasMessageContaining("sometimes is not auto, true or false")
        .hasMessageContaining("peers.npu_ping.hccn_conf: ")
        .hasMessageContaining("peers.npu_ping.count: unknown key");
  }

  @Test
  void slurmTakesTheListenPortUnlessToldAndAPartition() {
    PeerConfig p =
        ConfigLoader.parse("f.yaml", "listen: 0.0.0.0:9100\npeers:\n  slurm: {partition: gpu}\n")
            .peers();
    assertThat(p.enabled()).isTrue();
    assertThat(p.slurm())
        .contains(new PeerConfig.Slurm(Optional.of("gpu"), 9100, PeerConfig.Slurm.DEFAULT_REFRESH));
    assertThat(ConfigLoader.parse("f.yaml", "peers:\n  slurm: {}\n").peers().slurm())
        .contains(new PeerConfig.Slurm(Optional.empty(), 10187, Duration.ofMinutes(5)));
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    "f.yaml", "listen: 127.0.0.1:0\npeers:\n  slurm: {refresh: 10ms}\n"))
        .hasMessage(
            "f.yaml: peers.slurm.port: is required while listen's port is 0 (chosen at start)\n"
                + "f.yaml: peers.slurm.refresh: 10ms is below 1s");
  }

  @Test
  void kubernetesNeedsTheServiceAndDefaultsToThePodsServiceAccount() {
    PeerConfig p =
        ConfigLoader.parse("f.yaml", "peers:\n  kubernetes: {service: linkwatch}\n").peers();
    assertThat(p.enabled()).isTrue();
    assertThat(p.kubernetes())
        .contains(
            new PeerConfig.Kubernetes(
                "linkwatch",
                Optional.empty(),
                "metrics",
                Duration.ofMinutes(1),
                Optional.empty(),
                Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token"),
                Path.of("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt")));
    PeerConfig all =
        ConfigLoader.parse(
                "f.yaml",
                """
                peers:
                  kubernetes:
                    service: agents
                    namespace: monitoring
                    port: lw
                    refresh: 30s
                    api_server: https://10.0.0.1:6443
                    token_file: /etc/linkwatch/k8s/token
                    ca_file: /etc/linkwatch/k8s/ca.crt
                """)
            .peers();
    assertThat(all.kubernetes())
        .contains(
            new PeerConfig.Kubernetes(
                "agents",
                Optional.of("monitoring"),
                "lw",
                Duration.ofSeconds(30),
                Optional.of(URI.create("https://10.0.0.1:6443")),
                Path.of("/etc/linkwatch/k8s/token"),
                Path.of("/etc/linkwatch/k8s/ca.crt")));
    assertThat(PeerConfig.NONE.kubernetes()).isEmpty();
  }

  @Test
  void kubernetesMistakesAreNamed() {
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    "f.yaml",
                    """
                    peers:
                      kubernetes:
                        namespace: Linkwatch
                        port: metrics_port
                        refresh: 500ms
                        api_server: http://10.0.0.1:6443
                        token_file: ""
                        servce: linkwatch
                    """))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "f.yaml: peers.kubernetes.service: is required: the Service over the agents' pods"
                + " (e.g. linkwatch)\n"
                + "f.yaml: peers.kubernetes.namespace: 'Linkwatch' is not a Kubernetes name"
                + " (lower-case letters, digits and '-', 63 at most)\n"
                + "f.yaml: peers.kubernetes.port: 'metrics_port' is not a port name (lower-case"
                + " letters, digits and '-', 15 at most)\n"
                + "f.yaml: peers.kubernetes.refresh: 500ms is below 1s\n"
                + "f.yaml: peers.kubernetes.api_server: 'http://10.0.0.1:6443' is not an https://"
                + " URL (the token is never sent in the clear)\n"
                + "f.yaml: peers.kubernetes.token_file: is empty\n"
                + "f.yaml: peers.kubernetes.servce: unknown key, did you mean 'service'? (valid"
                + " here: api_server, ca_file, namespace, port, refresh, service, token_file)");
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    "f.yaml", "peers:\n  slurm: {port: 1}\n  kubernetes: {service: linkwatch}\n"))
        .hasMessage(
            "f.yaml: peers.kubernetes: and peers.slurm are both set: the members come from one"
                + " source; drop one");
  }

  @Test
  void oneSourceOnly() {
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    "f.yaml", "peers:\n  static: [{host: \"a:1\"}]\n  slurm: {port: 1}\n"))
        .hasMessage(
            "f.yaml: peers.slurm: and peers.static are both set: the members come from one"
                + " source; drop one");
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    "f.yaml",
                    "peers:\n  static: [{host: \"a:1\"}]\n  http_sd: http://sd.example/\n"))
        .hasMessage(
            "f.yaml: peers.http_sd: and peers.static are both set: the members come from one"
                + " source; drop one");
  }

  @Test
  void collectiveRunsAreOffUnlessConfiguredAndCheckedWhenTheyAre() {
    assertThat(ConfigLoader.parse("f.yaml", "peers:\n  static: [{host: \"a:1\"}]\n").peers())
        .extracting(PeerConfig::collective)
        .isEqualTo(Optional.empty());
    assertThat(
            ConfigLoader.parse("f.yaml", "peers:\n  static: [{host: \"a:1\"}]\n  collective: {}\n")
                .peers()
                .collective())
        .contains(PeerConfig.Collective.DEFAULTS);
    PeerConfig.Collective c =
        ConfigLoader.parse(
                "f.yaml",
                """
                peers:
                  static: [{host: "a:1"}]
                  collective:
                    every: 10m
                    deadline: 90s
                    devices: [0, 1]
                    sizes: [1KiB, 256MiB]
                    warmup: 1
                    iterations: 20
                    probes: [peer_p2p]
                """)
            .peers()
            .collective()
            .orElseThrow();
    assertThat(c)
        .isEqualTo(
            new PeerConfig.Collective(
                Duration.ofMinutes(10),
                Duration.ofSeconds(90),
                java.util.List.of(0, 1),
                java.util.List.of(1024L, 256L << 20),
                1,
                20,
                java.util.List.of("peer_p2p"),
                Optional.empty()));
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    "f.yaml",
                    """
                    peers:
                      static: [{host: "a:1"}]
                      collective:
                        every: 30s
                        deadline: 30s
                        devices: [0, 0]
                        sizes: [1001]
                        iterations: 0
                        probes: [peer_allreduce, allreduce, peer_allreduce]
                        size: 1KiB
                    """))
        .hasMessage(
            "f.yaml: peers.collective.deadline: 30s is not below every (30s): a run must end"
                + " before the next round starts\n"
                + "f.yaml: peers.collective.devices[1]: device 0 is listed twice\n"
                + "f.yaml: peers.collective.sizes[0]: '1001' is not a multiple of 2 bytes (the"
                + " collectives send fp16 elements)\n"
                + "f.yaml: peers.collective.iterations: must be between 1 and 100000, not 0\n"
                + "f.yaml: peers.collective.probes[1]: allreduce is not a two-host probe (one of"
                + " peer_allreduce, peer_p2p)\n"
                + "f.yaml: peers.collective.probes[2]: probe peer_allreduce is listed twice\n"
                + "f.yaml: peers.collective.size: unknown key, did you mean 'sizes'? (valid here:"
                + " deadline, devices, every, http_config_file, iterations, probes, sizes,"
                + " warmup)");
    assertThatThrownBy(() -> ConfigLoader.parse("f.yaml", "peers:\n  collective: {}\n"))
        .hasMessage(
            "f.yaml: peers.collective: needs the members to run with: set peers.static,"
                + " peers.http_sd, peers.slurm or peers.kubernetes");
  }

  @Test
  void theLoginForPeersIsReadAtStartAndItsMistakesNamed(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path login = dir.resolve("peers-http.yml");
    Files.writeString(
        login, "basic_auth: {username: linkwatch, password: x}\nenable_http2: false\n");
    String config =
        "peers:\n  static: [{host: \"a:1\"}]\n  collective:\n    http_config_file: %s\n";
    assertThat(
            ConfigLoader.parse("f.yaml", config.formatted(login))
                .peers()
                .collective()
                .orElseThrow()
                .httpConfigFile())
        .contains(login);
    Files.writeString(login, "tls_config: {server_name: fleet.example}\nbasic_auth: {usr: a}\n");
    assertThatThrownBy(() -> ConfigLoader.parse("f.yaml", config.formatted(login)))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            ("f.yaml: peers.collective.http_config_file: %1$s: basic_auth.username_file: required:"
                    + " the file holding the value (or username with it inline); %1$s:"
                    + " basic_auth.password_file: required: the file holding the secret (or"
                    + " password with it inline); %1$s: basic_auth.usr: unknown key (valid here:"
                    + " password, password_file, username, username_file); %1$s:"
                    + " tls_config.server_name: not for peers: each peer's certificate is checked"
                    + " against its own member host (use names the certificates hold in the"
                    + " member list)")
                .formatted(login));
    Path missing = dir.resolve("absent.yml");
    assertThatThrownBy(() -> ConfigLoader.parse("f.yaml", config.formatted(missing)))
        .hasMessage("f.yaml: peers.collective.http_config_file: " + missing + ": no such file");
  }
}
