package io.linkwatch.cli;

import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.Preflight;
import io.linkwatch.probe.ProbeSettings;
import io.linkwatch.probe.SettingOption;
import io.linkwatch.registry.ProbeDescriptor;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.runtime.DeviceRuntime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code linkwatch probe NAME}, built from the probe's descriptor: one option per setting (the
 * config key, dashed: {@code sizes} is {@code --sizes}), read by the probe's own settings reader,
 * checked against this machine ({@link ProbeSettings#preflight}), then one run in this process,
 * printed with the probe's table or as JSON. A probe gets its command by being in {@link
 * ProbeKind}; nothing here names a probe.
 */
final class ProbeSubcommand implements Callable<Integer> {
  private final ProbeKind kind;
  private final HostPaths hostPaths;
  private final ProbeOptions options = new ProbeOptions();
  private CommandSpec spec;

  private ProbeSubcommand(ProbeKind kind, HostPaths hostPaths) {
    this.kind = kind;
    this.hostPaths = hostPaths;
  }

  /** The command for {@code kind}; {@code hostPaths} is where NUMA nodes are looked up. */
  static CommandLine create(ProbeKind kind, HostPaths hostPaths) {
    ProbeSubcommand command = new ProbeSubcommand(kind, hostPaths);
    CommandSpec spec = CommandSpec.wrapWithoutInspection(command);
    spec.name(kind.cliName()).mixinStandardHelpOptions(true).versionProvider(new VersionProvider());
    if (!kind.id().equals(kind.cliName())) {
      // The config key and the probe label, as the metrics and the config file write it.
      spec.aliases(kind.id());
    }
    String description = kind.description();
    spec.usageMessage()
        .description(Character.toUpperCase(description.charAt(0)) + description.substring(1) + ".");
    spec.addMixin("probeOptions", CommandSpec.forAnnotatedObject(command.options));
    for (SettingOption o : kind.descriptor().options()) {
      OptionSpec.Builder b =
          OptionSpec.builder(o.optionName())
              .paramLabel(o.label())
              .description(withDefault(o.help(), kind.descriptor().defaults(), o.key()));
      if (o.list()) {
        b.type(List.class).auxiliaryTypes(String.class).splitRegex(",");
      } else {
        b.type(String.class);
      }
      spec.addOption(b.build());
    }
    command.spec = spec;
    return new CommandLine(spec);
  }

  /**
   * {@code help} with {@code Default: the probe's.} made this probe's value ({@code Default: 20.}),
   * read from its default settings by the key's record component ({@code iterations}).
   */
  static String withDefault(String help, Object defaults, String key) {
    String generic = "Default: the probe's.";
    if (!help.contains(generic)) {
      return help;
    }
    StringBuilder name = new StringBuilder();
    for (String part : key.split("_")) {
      name.append(
          name.length() == 0 ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
    }
    for (java.lang.reflect.RecordComponent c : defaults.getClass().getRecordComponents()) {
      if (c.getName().contentEquals(name)) {
        try {
          return help.replace(generic, "Default: " + c.getAccessor().invoke(defaults) + ".");
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    throw new IllegalStateException(defaults.getClass().getSimpleName() + " has no " + name);
  }

  @Override
  public Integer call() {
    ProbeDescriptor<?> descriptor = kind.descriptor();
    CliSettings given = new CliSettings(givenValues(descriptor));
    ProbeSettings settings = read(kind, given);
    try (DeviceRuntime runtime = Runtimes.open(options.backend)) {
      preflight(settings, given, runtime, hostPaths);
      CommandLine cli = spec.commandLine();
      return OneShot.run(
          runtime,
          options,
          spec,
          settings.newProbe(),
          run -> descriptor.print(run, settings, cli.getOut()));
    }
  }

  /**
   * {@code given} read as {@code kind}'s settings; a problem is a usage error naming the option.
   */
  static ProbeSettings read(ProbeKind kind, CliSettings given) {
    ProbeSettings settings = kind.descriptor().read(given);
    given.throwIfProblems();
    return settings;
  }

  /** {@code settings} checked against this machine, problems reported as by {@link #read}. */
  static void preflight(
      ProbeSettings settings, CliSettings given, DeviceRuntime runtime, HostPaths hostPaths) {
    settings.preflight(new Preflight(runtime, hostPaths, given::problem));
    given.throwIfProblems();
  }

  /** The options the user gave, by config key; unset options are absent. */
  private Map<String, List<String>> givenValues(ProbeDescriptor<?> descriptor) {
    Map<String, List<String>> given = new LinkedHashMap<>();
    for (SettingOption o : descriptor.options()) {
      OptionSpec option = spec.findOption(o.optionName());
      Object value = option.getValue();
      if (value == null) {
        continue;
      }
      if (value instanceof List<?> list) {
        given.put(o.key(), list.stream().map(String::valueOf).toList());
      } else {
        given.put(o.key(), List.of(String.valueOf(value)));
      }
    }
    return given;
  }
}
