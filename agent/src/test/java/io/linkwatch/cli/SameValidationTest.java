package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.linkwatch.config.ConfigException;
import io.linkwatch.config.ConfigLoader;
import io.linkwatch.probe.SettingOption;
import io.linkwatch.registry.ProbeKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A mistake in a probe's settings gets the same reason from the config file and from the command
 * line, because both go through the probe's one reader: only the key's spelling differs.
 */
class SameValidationTest {
  @ParameterizedTest(name = "{0}.{1} = {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "p2p            | iterations | 0",
        "p2p            | warmup     | -1",
        "p2p            | sizes      | 1MiB,1MiB",
        "p2p            | sizes      | 12 parsecs",
        "p2p            | pairs      | 0->0",
        "p2p            | pairs      | 0->1,0->1",
        "allreduce      | sizes      | 1001",
        "allreduce      | devices    | 1",
        "allreduce      | devices    | 0,1,0",
        "allgather      | sizes      | 1KiB,1KiB",
        "allgather      | devices    | 2",
        "p2p_bidirectional | pairs   | 0<->0",
        "p2p_bidirectional | pairs   | 0<->1,1<->0",
        "device_memory  | devices    | 0,0",
        "device_memory  | size       | huge",
        "host_transfer  | devices    | 0,0",
        "host_transfer  | nodes      | 0,0",
        "host_transfer  | memory     | huge",
      })
  void configAndCliGiveTheSameReason(String probe, String key, String value) {
    ProbeKind kind = ProbeKind.byId(probe).orElseThrow();
    boolean list =
        value.contains(",")
            || !key.equals("size") && !key.equals("iterations") && !key.equals("warmup");
    String yamlValue = list ? "[" + value.replace(",", ", ") + "]" : value;
    String yaml = "probes:\n  " + probe + ":\n    " + key + ": " + yamlValue + "\n";
    Throwable config = catchThrowable(() -> ConfigLoader.parse("f.yaml", yaml));
    assertThat(config).as(yaml).isInstanceOf(ConfigException.class);
    Matcher fromConfig =
        Pattern.compile("f\\.yaml: probes\\." + probe + "\\." + key + "(\\[\\d+])?: (.*)")
            .matcher(config.getMessage().lines().findFirst().orElseThrow());
    assertThat(fromConfig.matches()).as(config.getMessage()).isTrue();

    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new PrintWriter(out),
            new PrintWriter(err),
            "probe",
            kind.cliName(),
            "--backend",
            "sim",
            SettingOption.cliName(key),
            value);
    assertThat(code).as(err.toString()).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString().lines().findFirst().orElseThrow())
        .isEqualTo("linkwatch: " + SettingOption.cliName(key) + ": " + fromConfig.group(2));
  }

  @Test
  void everyProblemOfACommandLineIsReportedAtOnce() {
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new PrintWriter(new StringWriter()),
            new PrintWriter(err),
            "probe",
            "p2p",
            "--backend",
            "sim",
            "--iterations",
            "0",
            "--pairs",
            "0=1");
    assertThat(code).isEqualTo(Main.EXIT_USAGE);
    assertThat(err.toString().lines())
        .containsExactly(
            "linkwatch: --iterations: must be between 1 and 100000, not 0",
            "linkwatch: --pairs: '0=1' is not a device pair (use e.g. 0-1 or 0:1 (or '0->1', quoted))");
  }
}
