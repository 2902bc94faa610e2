package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.probe.p2p.DevicePair;
import io.linkwatch.probe.p2p.P2pSettings;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.Backend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every invalid file maps to its exact message, as blackbox_exporter's config tests do. */
class ConfigLoaderTest {
  static Stream<Arguments> invalidFiles() {
    return Stream.of(
        Arguments.of(
            "listn: 0.0.0.0:10187",
            "f.yaml: listn: unknown key, did you mean 'listen'? (valid here: backend, budget, busy, coordination, expected, expected_ports, finding_actions, inactive_links, listen, passive, paths, peers, probes, series, topology, verdicts, web, worker)"),
        Arguments.of(
            "listen: 10187", "f.yaml: listen: '10187' is not HOST:PORT (e.g. 0.0.0.0:10187)"),
        Arguments.of(
            "listen: 0.0.0.0:70000",
            "f.yaml: listen: '0.0.0.0:70000': the port must be between 0 and 65535"),
        Arguments.of(
            "listen: 'localhost:http'",
            "f.yaml: listen: 'localhost:http': the port is not a number"),
        Arguments.of(
            "listen: '::1:10187'",
            "f.yaml: listen: '::1:10187': write IPv6 addresses in brackets, e.g. [::1]:10187"),
        Arguments.of(
            "backend: rocm",
            "f.yaml: backend: unknown backend 'rocm' (expected one of auto, ascend, cuda, sim,"
                + " sim-cuda)"),
        Arguments.of("budget: 2", "f.yaml: budget: must be between 1.0E-4 and 1.0, not 2.0"),
        Arguments.of(
            "web: {history_step: 1500ms}",
            "f.yaml: web.history_step: 1500ms must be whole seconds from 1s to 1h"),
        Arguments.of(
            "web: {history_step: 2h}",
            "f.yaml: web.history_step: 2h must be whole seconds from 1s to 1h"),
        Arguments.of("budget: lots", "f.yaml: budget: must be a number, not 'lots'"),
        Arguments.of(
            "paths:\n  procfs: proc", "f.yaml: paths.procfs: 'proc' must be an absolute path"),
        Arguments.of(
            "paths:\n  devfs: /dev",
            "f.yaml: paths.devfs: unknown key (valid here: procfs, sysfs)"),
        Arguments.of("topology:\n  command: []", "f.yaml: topology.command: must not be empty"),
        Arguments.of(
            "probes:\n  p2pp: {}",
            "f.yaml: probes.p2pp: unknown key, did you mean 'p2p'? (valid here: allgather, allreduce, device_memory, host_transfer, p2p, p2p_bidirectional, topology)"),
        Arguments.of("probes: [p2p]", "f.yaml: probes: must be a mapping of keys to values"),
        Arguments.of(
            "probes:\n  p2p:\n    enabled: yes please",
            "f.yaml: probes.p2p.enabled: must be true or false, not 'yes please'"),
        Arguments.of(
            "probes:\n  p2p:\n    every: 5 minutes",
            "f.yaml: probes.p2p.every: '5 minutes' is not a duration (use e.g. 500ms, 30s, 5m, 1h)"),
        Arguments.of(
            "probes:\n  p2p:\n    every: 0s",
            "f.yaml: probes.p2p.every: '0s' is not a duration: it must be above 0"),
        Arguments.of(
            "probes:\n  p2p:\n    cron: '61 * * * * ?'",
            "f.yaml: probes.p2p.cron: '61 * * * * ?' is not a cron expression: Minute and Second values must be between 0 and 59"),
        Arguments.of(
            "probes:\n  p2p:\n    every: 5m\n    cron: '0 * * * * ?'",
            "f.yaml: probes.p2p: set either every or cron, not both"),
        Arguments.of(
            "probes:\n  p2p:\n    every: 1m\n    deadline: 2m",
            "f.yaml: probes.p2p.deadline: 2m must be shorter than the probe's interval (1m), or runs would pile up; set probes.p2p.deadline below 1m or a longer interval"),
        // The deadline the user never wrote: the message says it is the default and what to set.
        Arguments.of(
            "probes:\n  p2p:\n    every: 30s",
            "f.yaml: probes.p2p.deadline: the default deadline, 2m, must be shorter than the probe's interval (30s), or runs would pile up; set probes.p2p.deadline below 30s or a longer interval"),
        Arguments.of(
            "probes:\n  p2p:\n    enabled: 'true'",
            "f.yaml: probes.p2p.enabled: must be true or false, not the text \"true\" (a quoted value is text; write it without quotes: enabled: true)"),
        Arguments.of(
            "probes:\n  p2p:\n    iterations: '2.5'",
            "f.yaml: probes.p2p.iterations: must be a whole number, not '2.5'"),
        Arguments.of(
            "probes:\n  p2p:\n    warmups: 2",
            "f.yaml: probes.p2p.warmups: unknown key, did you mean 'warmup'? (valid here: cron, deadline, enabled, every, iterations, pairs, sizes, warmup)"),
        // Two letters swapped is one edit, as a typist makes it (plain Levenshtein counts two and
        // had no suggestion for a five-letter key).
        Arguments.of(
            "probes:\n  p2p:\n    sizse: [1MiB]",
            "f.yaml: probes.p2p.sizse: unknown key, did you mean 'sizes'? (valid here: cron, deadline, enabled, every, iterations, pairs, sizes, warmup)"),
        Arguments.of(
            "probes:\n  p2p:\n    cron: '0 * * * * ?'\n    deadline: 90s",
            "f.yaml: probes.p2p.deadline: 90s must be shorter than the probe's interval (1m), or runs would pile up; set probes.p2p.deadline below 1m or a longer interval"),
        Arguments.of(
            "probes:\n  p2p:\n    sizes: [1MiB, 12XB]",
            "f.yaml: probes.p2p.sizes[1]: '12XB' is not a size (use e.g. 4096, 64MiB, 1GiB, 1GB)"),
        Arguments.of(
            "probes:\n  p2p:\n    sizes: [0]",
            "f.yaml: probes.p2p.sizes[0]: '0' is not a size: it must be above 0"),
        Arguments.of(
            "probes:\n  p2p:\n    sizes: []", "f.yaml: probes.p2p.sizes: must not be empty"),
        Arguments.of(
            "probes:\n  p2p:\n    iterations: 0",
            "f.yaml: probes.p2p.iterations: must be between 1 and 100000, not 0"),
        Arguments.of(
            "probes:\n  p2p:\n    warmup: -1",
            "f.yaml: probes.p2p.warmup: must be between 0 and 10000, not -1"),
        Arguments.of(
            "probes:\n  p2p:\n    iterations: 2.5",
            "f.yaml: probes.p2p.iterations: must be a whole number, not '2.5'"),
        Arguments.of(
            "probes:\n  p2p:\n    pairs: ['0->0']",
            "f.yaml: probes.p2p.pairs[0]: '0->0' is not a device pair: ids must be different and not negative"),
        Arguments.of(
            "probes:\n  p2p:\n    pairs: ['0=1']",
            "f.yaml: probes.p2p.pairs[0]: '0=1' is not a device pair (use e.g. 0-1 or 0:1 (or '0->1', quoted))"),
        Arguments.of(
            "probes:\n  p2p_bidirectional:\n    pairs: ['0<>1']",
            "f.yaml: probes.p2p_bidirectional.pairs[0]: '0<>1' is not a device pair (use e.g. 0-1 or 0:1 (or '0<->1', quoted))"),
        Arguments.of(
            "probes:\n  p2p:\n    sizes:\n      big: 1GiB",
            "f.yaml: probes.p2p.sizes: must be a list"),
        Arguments.of("- just\n- a list", "f.yaml: the file must be a mapping of keys to values"),
        Arguments.of(
            "probes:\n  p2p:\n    iterations: 10\n    iterations: 20",
            "f.yaml: probes.p2p.iterations: given twice"),
        Arguments.of(
            "probes:\n  p2p:\n    enabled: yes",
            "f.yaml: probes.p2p.enabled: must be true or false, not 'yes'"),
        Arguments.of(
            "probes:\n  p2p:\n    iterations: '20'",
            "f.yaml: probes.p2p.iterations: must be a whole number, not the text \"20\" (a quoted value is text; write it without quotes: iterations: 20)"),
        Arguments.of(
            "probes:\n  p2p:\n    iterations: 1_000",
            "f.yaml: probes.p2p.iterations: must be a whole number, not '1_000'"),
        Arguments.of(
            "probes:\n  p2p:\n    iterations: [1, 2]",
            "f.yaml: probes.p2p.iterations: must be a whole number, not '(sequence)'"),
        Arguments.of(
            "passive:\n  interval: 5s",
            "f.yaml: passive.deadline: 10s must be shorter than passive.interval (5s; the default"
                + " deadline is 10s), or read rounds would pile up"),
        Arguments.of(
            "passive:\n  interval: 0s",
            "f.yaml: passive.interval: '0s' is not a duration: it must be above 0"),
        Arguments.of(
            "passive:\n  nvlink:\n    enabled: false",
            "f.yaml: passive.nvlink: unknown key (valid here: dcmi, deadline, enabled, hccn_tool, infiniband, interval, nvml, sysfs)"),
        Arguments.of(
            "series:\n  link_counters: per_port",
            "f.yaml: series.link_counters: 'per_port' is not per_link or per_device"),
        Arguments.of(
            "series:\n  probe_health: per_host",
            "f.yaml: series.probe_health: 'per_host' is not per_target or per_probe"),
        Arguments.of(
            "series:\n  link_errors: per_device",
            "f.yaml: series.link_errors: unknown key (valid here: link_counters, probe_health)"),
        Arguments.of(
            "passive:\n  hccn_tool:\n    command: hccn_tool",
            "f.yaml: passive.hccn_tool.command: 'hccn_tool' must be an absolute path"),
        Arguments.of(
            "passive:\n  deadline: 5s\n  hccn_tool:\n    timeout: 5s",
            "f.yaml: passive.hccn_tool.timeout: 5s must be shorter than passive.deadline (5s): a"
                + " hung call must not use up the whole round"),
        Arguments.of(
            "passive:\n  hccn_tool:\n    retries: 2",
            "f.yaml: passive.hccn_tool.retries: unknown key (valid here: command, enabled,"
                + " prefer_dcmi, timeout)"),
        Arguments.of(
            "passive:\n  hccn_tool:\n    prefer_dcmi: sometimes",
            "f.yaml: passive.hccn_tool.prefer_dcmi: must be true or false, not 'sometimes'"),
        Arguments.of(
            "passive:\n  sysfs:\n    every: 1m",
            "f.yaml: passive.sysfs.every: unknown key (valid here: enabled)"),
        Arguments.of(
            "coordination:\n  lock_file: run/probes.lock",
            "f.yaml: coordination.lock_file: 'run/probes.lock' must be an absolute path"),
        Arguments.of(
            "expected:\n  product: Ascend910_93", "f.yaml: expected: must be a list of mappings"),
        Arguments.of(
            "expected:\n  - Ascend910_93",
            "f.yaml: expected[0]: must be a mapping of keys to values"),
        Arguments.of(
            "expected:\n  - {product: Ascend910_93, link: SIO}",
            "f.yaml: expected[0].floor_gbps: required: the GB/s below which the link fails"),
        Arguments.of(
            "expected:\n  - {link: SIO, floor_gbps: 100}",
            "f.yaml: expected[0].product: required: the start of the device name, e.g. Ascend910_93"),
        Arguments.of(
            "expected:\n  - {product: A, link: SIO, floor_gbps: 100, warn_gbps: 90}",
            "f.yaml: expected[0].warn_gbps: 90.0 is below floor_gbps 100.0: it must be at least it"),
        Arguments.of(
            "expected:\n  - {product: A, link: SIO, probe: allgather, floor_gbps: 1}",
            "f.yaml: expected[0].probe: 'allgather' has no expected figures: use one of [p2p,"
                + " p2p_bidirectional, host_transfer, allreduce]"),
        Arguments.of(
            "expected:\n  - {product: A, link: 2 ranks, probe: allreduce, floor_gbps: 1}",
            "f.yaml: expected[0].floor_gbps: unknown key (valid here: ceiling_us, link, max_size, min_size, probe, product, size, source, warn_us)\n"
                + "f.yaml: expected[0].ceiling_us: required: the microseconds above which the link"
                + " fails"),
        Arguments.of(
            "expected:\n  - {product: A, link: 2 ranks, probe: allreduce, ceiling_us: 300, warn_us: 400}",
            "f.yaml: expected[0].warn_us: 400.0 is above ceiling_us 300.0: it must be at most it"),
        Arguments.of(
            "expected:\n  - {product: A, link: SIO, size: 1GiB, min_size: 64MiB, floor_gbps: 1}",
            "f.yaml: expected[0].size: give either size or min_size/max_size, not both"),
        Arguments.of(
            "expected:\n  - {product: A, link: SIO, floor_gbps: '100'}",
            "f.yaml: expected[0].floor_gbps: must be a number, not the text \"100\" (a quoted value is text; write it without quotes: floor_gbps: 100)"),
        Arguments.of(
            "expected:\n  - {product: A, link: SIO, floor_gbps: 1, floor: 2}",
            "f.yaml: expected[0].floor: unknown key (valid here: floor_gbps, link, max_size, min_size, probe, product, size, source, warn_gbps)"),
        Arguments.of(
            "inactive_links:\n  - {link: NVLINK, links: 12-17}",
            "f.yaml: inactive_links[0].product: required: the start of the device name, e.g."
                + " NVIDIA H100"),
        Arguments.of(
            "inactive_links:\n  - {product: NVIDIA H100, links: 12-17}",
            "f.yaml: inactive_links[0].link: required: the link type, e.g. NVLINK or HCCS"),
        Arguments.of(
            "inactive_links:\n  - {product: NVIDIA H100, link: NVLINK, links: twelve}",
            "f.yaml: inactive_links[0].links: 'twelve' is not a list of link indices, e.g. 12-17"
                + " or 0,2,4"),
        Arguments.of(
            "inactive_links:\n  - {product: NVIDIA H100, link: NVLINK, links: ''}",
            "f.yaml: inactive_links[0].links: empty: leave the key out for every link of the"
                + " type, or list them, e.g. 12-17"),
        Arguments.of(
            "inactive_links:\n  - {product: NVIDIA H100, link: NVLINK, nodes: 1}",
            "f.yaml: inactive_links[0].nodes: unknown key (valid here:"
                + " link, links, product, source)"),
        Arguments.of(
            "expected_ports:\n  - {reader: hccn_tool, speed: 400Gb/s}",
            "f.yaml: expected_ports[0].product: required: the start of the device name, e.g."
                + " Ascend910_93"),
        Arguments.of(
            "expected_ports:\n  - {product: A, reader: sysfs, speed: 400Gb/s}",
            "f.yaml: expected_ports[0].reader: 'sysfs' reads no ports: one of [hccn_tool,"
                + " infiniband]"),
        Arguments.of(
            "expected_ports:\n  - {product: A, reader: hccn_tool}",
            "f.yaml: expected_ports[0].speed: required: the speed each port should train at, e.g."
                + " 400Gb/s"),
        Arguments.of(
            "expected_ports:\n  - {product: A, reader: hccn_tool, speed: 400}",
            "f.yaml: expected_ports[0].speed: '400' is not a port speed: write it as 400Gb/s (or"
                + " 400000Mb/s)"),
        Arguments.of(
            "expected_ports:\n  - {product: NVIDIA H200, reader: infiniband, speed: 400Gb/s}",
            "f.yaml: expected_ports[0].count: required for reader infiniband: how many ports should"
                + " be up at speed"),
        Arguments.of(
            "expected_ports:\n  - {product: A, reader: hccn_tool, speed: 200Gb/s, ports: 8}",
            "f.yaml: expected_ports[0].ports: unknown key (valid here: count, product, reader,"
                + " source, speed)"),
        Arguments.of(
            "finding_actions:\n  - {action: reseat it}",
            "f.yaml: finding_actions[0].code: required: a finding's code, e.g. LW-LINK-DOWN"),
        Arguments.of(
            "finding_actions:\n  - {code: LW-LINK-DWN, action: reseat it}",
            "f.yaml: finding_actions[0].code: 'LW-LINK-DWN' is no finding's code; the codes are "
                + String.join(", ", FindingActionTable.CODES)),
        Arguments.of(
            "finding_actions:\n  - {code: LW-LINK-DOWN}",
            "f.yaml: finding_actions[0].action: required: what an operator does about it, in a few"
                + " words"),
        Arguments.of(
            "finding_actions:\n  - {code: LW-LINK-DOWN, action: a}\n  - {code: LW-LINK-DOWN,"
                + " action: b}",
            "f.yaml: finding_actions[1].code: LW-LINK-DOWN has a row above: one row per code"),
        Arguments.of(
            "finding_actions:\n  - {code: LW-LINK-DOWN, action: a, escalate: {after: 1, within:"
                + " 1h, action: b}}",
            "f.yaml: finding_actions[0].escalate.after: must be between 2 and 1000, not 1"),
        Arguments.of(
            "finding_actions:\n  - {code: LW-LINK-DOWN, action: a, escalate: {after: 3, action:"
                + " b}}",
            "f.yaml: finding_actions[0].escalate.within: required: the window the appearances are"
                + " counted in, e.g. 24h"),
        Arguments.of(
            "finding_actions:\n  - {code: LW-LINK-DOWN, action: a, escalate: {after: 3, within:"
                + " 1h, state: page, action: b}}",
            "f.yaml: finding_actions[0].escalate.state: 'page' is not a severity an escalation"
                + " raises to: use warn or fail"),
        Arguments.of(
            "finding_actions:\n  - {code: LW-LINK-DOWN, action: a, escalate: {after: 3, within:"
                + " 1h}}",
            "f.yaml: finding_actions[0].escalate.action: required: what an operator does once it"
                + " keeps coming back"),
        Arguments.of(
            "verdicts:\n  enforce: maybe",
            "f.yaml: verdicts.enforce: must be true or false, not 'maybe'"),
        Arguments.of(
            "verdicts:\n  enforced: false",
            "f.yaml: verdicts.enforced: unknown key, did you mean 'enforce'? (valid here:"
                + " enforce)"),
        Arguments.of(
            "listen: [unclosed",
            "f.yaml: line 1: not valid YAML: while parsing a flow sequence: expected ',' or ']', but got <stream end>"));
  }

  @ParameterizedTest
  @MethodSource("invalidFiles")
  void rejectsWithExactMessage(String yaml, String message) {
    assertThatThrownBy(() -> ConfigLoader.parse("f.yaml", yaml))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }

  @Test
  void reportsEveryProblemOfAFileTogether() {
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    "f.yaml",
                    "backend: gpu\nprobes:\n  p2p:\n    iterations: 0\n    sizess: [1MiB]"))
        .hasMessage(
            "f.yaml: backend: unknown backend 'gpu' (expected one of auto, ascend, cuda, sim, sim-cuda)\n"
                + "f.yaml: probes.p2p.iterations: must be between 1 and 100000, not 0\n"
                + "f.yaml: probes.p2p.sizess: unknown key, did you mean 'sizes'? (valid here: cron, deadline, enabled, every, iterations, pairs, sizes, warmup)");
  }

  @Test
  void emptyFileMeansDefaults() {
    AgentConfig c = ConfigLoader.parse("f.yaml", "");
    assertThat(c.listen()).isEqualTo(ListenAddress.DEFAULT);
    assertThat(c.backend()).isEqualTo(Backend.AUTO);
    ProbeConfig p2p = c.probes().get(ProbeKind.P2P);
    assertThat(p2p.enabled()).isTrue();
    assertThat(p2p.schedule().nominalInterval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(p2p.deadline()).isEqualTo(Duration.ofSeconds(120));
    assertThat(p2p.settings()).isEqualTo(P2pSettings.DEFAULTS);
  }

  @Test
  void passiveWatchingIsOnEvery15sByDefaultAndEachSourceCanBeSwitchedOff() {
    AgentConfig defaults = ConfigLoader.parse("f.yaml", "");
    assertThat(defaults.passive().enabled()).isTrue();
    assertThat(defaults.passive().interval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(defaults.passive().deadline()).isEqualTo(Duration.ofSeconds(10));
    assertThat(defaults.passive().sources())
        .containsExactlyInAnyOrder(io.linkwatch.passive.PassiveSource.values());
    AgentConfig c =
        ConfigLoader.parse(
            "f.yaml", "passive:\n  interval: 1m\n  deadline: 20s\n  sysfs:\n    enabled: false");
    assertThat(c.passive().interval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(c.passive().reads(io.linkwatch.passive.PassiveSource.SYSFS)).isFalse();
    assertThat(c.passive().reads(io.linkwatch.passive.PassiveSource.DCMI)).isTrue();
    assertThat(
            ConfigLoader.parse("f.yaml", "passive:\n  enabled: false")
                .passive()
                .reads(io.linkwatch.passive.PassiveSource.DCMI))
        .isFalse();
  }

  @Test
  void inactiveLinksComeBeforeTheShippedRows() {
    AgentConfig c =
        ConfigLoader.parse(
            "f.yaml",
            """
            inactive_links:
              - {product: NVIDIA H100, link: NVLINK, links: "12-15,17", source: 12 of 18 wired}
              - {product: Ascend910_93, link: HCCS}
            """);
    assertThat(c.inactiveLinkTable())
        .startsWith(
            new io.linkwatch.verdict.InactiveLink(
                "NVIDIA H100", "NVLINK", java.util.List.of(12, 13, 14, 15, 17), "12 of 18 wired"),
            new io.linkwatch.verdict.InactiveLink(
                "Ascend910_93", "HCCS", java.util.List.of(), "operator: linkwatch.yaml"))
        .hasSize(2 + ExpectedFigureTable.SHIPPED_INACTIVE.size());
    assertThat(c.inactiveLinkTable().get(0).describe())
        .isEqualTo("NVIDIA H100 NVLINK links 12-15,17 (12 of 18 wired)");
    assertThat(c.expectations().inactiveLinks()).isEqualTo(c.inactiveLinkTable());
  }

  @Test
  void verdictsAreEnforcedUnlessTheFileSaysShadowMode() {
    assertThat(ConfigLoader.parse("f.yaml", "").enforceVerdicts()).isTrue();
    assertThat(ConfigLoader.parse("f.yaml", "verdicts:\n  enforce: false").enforceVerdicts())
        .isFalse();
  }

  @Test
  void anOperatorsActionReplacesTheShippedRowOfItsCode() {
    AgentConfig c =
        ConfigLoader.parse(
            "f.yaml",
            """
            finding_actions:
              - code: LW-LINK-DOWN
                action: open a ticket with the hardware team
                escalate: {after: 2, within: 6h, state: warn, action: page the hardware team}
              - {code: LW-NIC-PORTS, action: check the adapters}
            """);
    io.linkwatch.verdict.FindingAction down =
        c.expectations().actions().of("LW-LINK-DOWN").orElseThrow();
    assertThat(down.action()).isEqualTo("open a ticket with the hardware team");
    assertThat(down.escalate().orElseThrow())
        .isEqualTo(
            new io.linkwatch.verdict.FindingAction.Escalation(
                2,
                Duration.ofHours(6),
                io.linkwatch.verdict.Verdict.State.WARN,
                "page the hardware team"));
    assertThat(down.source()).isEqualTo("operator: linkwatch.yaml");
    assertThat(c.expectations().actions().of("LW-NIC-PORTS").orElseThrow().escalate()).isEmpty();
    // Codes the file leaves alone keep the shipped row.
    assertThat(c.expectations().actions().of("LW-DEVICE-SLOW").orElseThrow().source())
        .isEqualTo(FindingActionTable.RESOURCE);
    // Without the file's rows, the shipped LW-LINK-DOWN row says what it says.
    assertThat(
            ConfigLoader.parse("f.yaml", "")
                .expectations()
                .actions()
                .of("LW-LINK-DOWN")
                .orElseThrow()
                .action())
        .startsWith("reseat or replace the link's cable");
  }

  @Test
  void coordinationAndOperatorFigures() {
    AgentConfig defaults = ConfigLoader.parse("f.yaml", "");
    assertThat(defaults.probeLock()).isEqualTo(java.nio.file.Path.of("/run/linkwatch/probes.lock"));
    assertThat(defaults.expectedFigures())
        .isEqualTo(io.linkwatch.config.ExpectedFigureTable.SHIPPED);
    assertThat(ConfigLoader.parse("f.yaml", "coordination:\n  lock_file: ''").probeLock()).isNull();
    AgentConfig c =
        ConfigLoader.parse(
            "f.yaml",
            """
            expected:
              - product: Ascend910_93
                link: SIO
                size: 256MiB
                floor_gbps: 130
                warn_gbps: 145
                source: site acceptance 2026-11
              - {product: NVIDIA H200, link: NVLINK, probe: p2p_bidirectional, min_size: 64MiB, floor_gbps: 600}
            """);
    var first = c.expectedFigures().get(0);
    assertThat(first.fail()).isEqualTo(130e9);
    assertThat(first.warn()).isEqualTo(145e9);
    assertThat(first.minSizeBytes()).isEqualTo(first.maxSizeBytes()).isEqualTo(256L << 20);
    assertThat(first.source()).isEqualTo("site acceptance 2026-11");
    var second = c.expectedFigures().get(1);
    assertThat(second.probe()).isEqualTo("p2p_bidirectional");
    assertThat(second.warn()).as("no warning band: the floor").isEqualTo(600e9);
    assertThat(second.maxSizeBytes()).isEqualTo(Long.MAX_VALUE);
    // The operator's rows come first, so they win over the shipped row for the same link.
    assertThat(
            io.linkwatch.verdict.ExpectedFigures.find(
                    c.expectedFigures(), "Ascend910_9382", "SIO", "p2p", 256L << 20)
                .orElseThrow()
                .fail())
        .isEqualTo(130e9);
    assertThat(c.expectedFigures())
        .hasSize(2 + io.linkwatch.config.ExpectedFigureTable.SHIPPED.size());
  }

  @Test
  void expectedPortsRowsComeBeforeTheShippedOnes() {
    AgentConfig c =
        ConfigLoader.parse(
            "f.yaml",
            """
            expected_ports:
              - product: Ascend910B
                reader: hccn_tool
                speed: 200000Mb/s
              - product: NVIDIA H200
                reader: infiniband
                speed: 200 Gbit/s
                count: 4
                source: fabric design 2026-10
            """);
    var npu = c.expectedPorts().get(0);
    assertThat(npu.reader()).isEqualTo(io.linkwatch.passive.PassiveSource.HCCN_TOOL);
    assertThat(npu.speedBitsPerSecond()).isEqualTo(200e9);
    assertThat(npu.count()).isZero();
    assertThat(npu.source()).isEqualTo("operator: linkwatch.yaml");
    var table = c.expectedPortsTable();
    assertThat(table).hasSize(2 + io.linkwatch.passive.ExpectedPorts.SHIPPED.size());
    // the operator's H200 row wins over gpud's 8 x 400 Gb/s
    var h200 =
        io.linkwatch.passive.ExpectedPorts.find(
                table, "NVIDIA H200 141GB HBM3e", io.linkwatch.passive.PassiveSource.INFINIBAND)
            .orElseThrow();
    assertThat(h200.count()).isEqualTo(4);
    assertThat(h200.speedBitsPerSecond()).isEqualTo(200e9);
    assertThat(h200.source()).isEqualTo("fabric design 2026-10");
    // no configuration: gpud's rows only, and no Ascend row (no source gives one)
    AgentConfig defaults = ConfigLoader.parse("f.yaml", "");
    assertThat(defaults.expectedPortsTable()).isEqualTo(io.linkwatch.passive.ExpectedPorts.SHIPPED);
    assertThat(
            io.linkwatch.passive.ExpectedPorts.find(
                defaults.expectedPortsTable(),
                "Ascend910_9382",
                io.linkwatch.passive.PassiveSource.HCCN_TOOL))
        .isEmpty();
  }

  @Test
  void readsEveryKey() {
    AgentConfig c =
        ConfigLoader.parse(
            "f.yaml",
            """
            listen: "[::1]:9100"
            backend: sim
            probes:
              p2p:
                cron: "0 0/10 * * * ?"
                deadline: 30s
                sizes: [1MiB, 1GB]
                warmup: 0
                iterations: 3
                pairs: ["1->0"]
            """);
    assertThat(c.listen()).isEqualTo(new ListenAddress("::1", 9100));
    assertThat(c.backend()).isEqualTo(Backend.SIM);
    ProbeConfig p2p = c.probes().get(ProbeKind.P2P);
    assertThat(p2p.schedule().cron()).contains("0 0/10 * * * ?");
    assertThat(p2p.schedule().nominalInterval()).isEqualTo(Duration.ofMinutes(10));
    assertThat(p2p.settings())
        .isEqualTo(
            new P2pSettings(
                List.of(1L << 20, 1_000_000_000L), 0, 3, List.of(new DevicePair(1, 0))));
  }

  /** The shipped file shows every key at its default, so it must parse to exactly the defaults. */
  @Test
  void shippedConfigIsTheDefaults() throws Exception {
    Path shipped = Path.of("..", "systemd", "linkwatch.yaml");
    assertThat(Files.exists(shipped)).isTrue();
    assertThat(ConfigLoader.load(shipped)).isEqualTo(ConfigLoader.defaults());
    for (ProbeKind kind : ProbeKind.values()) {
      assertThat(Files.readString(shipped)).contains("  " + kind.id() + ":");
    }
  }

  /** The demo configs load, run their face of the sim and schedule every probe. */
  @Test
  void exampleConfigsLoadAndNameEveryProbe() throws Exception {
    Map<String, Backend> examples =
        Map.of("sim.yaml", Backend.SIM, "sim-cuda.yaml", Backend.SIM_CUDA);
    for (Map.Entry<String, Backend> e : examples.entrySet()) {
      Path file = Path.of("..", "examples", e.getKey());
      AgentConfig config = ConfigLoader.load(file);
      assertThat(config.backend()).as(e.getKey()).isEqualTo(e.getValue());
      for (ProbeKind kind : ProbeKind.values()) {
        assertThat(Files.readString(file)).as(e.getKey()).contains("  " + kind.id() + ":");
        assertThat(config.probes().get(kind).enabled()).as(e.getKey() + " " + kind.id()).isTrue();
      }
    }
  }

  @Test
  void missingFileIsAnError() {
    assertThatThrownBy(() -> ConfigLoader.load(Path.of("/nonexistent/linkwatch.yaml")))
        .hasMessage("/nonexistent/linkwatch.yaml: no such file");
  }
}
