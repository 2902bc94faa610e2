package io.linkwatch.registry;

import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.ResultTable;
import io.linkwatch.probe.SettingOption;
import io.linkwatch.probe.SettingsSource;
import io.linkwatch.probe.result.Judged;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import java.util.List;
import java.util.function.Function;

/**
 * Everything the agent needs to know about one probe, given once in {@link ProbeKind}: its id (the
 * config key and {@code probe} label, which the probe itself also puts on its runs), the default
 * schedule and description, the settings type with its defaults, the one reader of its settings
 * (used by the config file and the CLI alike) and the options the CLI offers for them, each
 * measurement type it produces with its metric writer, and the CLI's table.
 *
 * @param options the CLI options; their keys are exactly the config keys {@code reader} reads (a
 *     test holds them together)
 */
public record ProbeDescriptor<S extends ProbeSettings>(
    String id,
    String defaultInterval,
    String description,
    Class<S> settingsType,
    S defaults,
    Function<SettingsSource, S> reader,
    List<SettingOption> options,
    List<ResultType<?>> results,
    ResultTable<S> table) {
  public ProbeDescriptor {
    options = List.copyOf(options);
    results = List.copyOf(results);
    if (!settingsType.isInstance(defaults)) {
      throw new IllegalArgumentException("defaults are not a " + settingsType.getSimpleName());
    }
  }

  public S read(SettingsSource source) {
    return reader.apply(source);
  }

  public void print(ProbeRun run, ProbeSettings settings, java.io.PrintWriter out) {
    table.print(run, settingsType.cast(settings), out);
  }

  /** Whether expected-figure rows can judge this probe: one of its result types is judged. */
  public boolean judged() {
    return results.stream().anyMatch(r -> Judged.class.isAssignableFrom(r.type()));
  }

  /** Whether this probe's judged figure is a latency (a row gives a ceiling, not a floor). */
  public boolean judgedAsLatency() {
    return results.stream().anyMatch(r -> Judged.Latency.class.isAssignableFrom(r.type()));
  }

  /** The measurement types, for the JSON that crosses the worker boundary. */
  public List<Class<? extends Measurement>> measurementTypes() {
    return results.stream().<Class<? extends Measurement>>map(ResultType::type).toList();
  }
}
