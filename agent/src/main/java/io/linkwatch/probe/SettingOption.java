package io.linkwatch.probe;

/**
 * One setting of a probe as its CLI command offers it: {@code key} is the config key ({@code
 * sizes}) and, dashed, the option ({@code --sizes}); {@code list} options take comma-separated
 * values.
 */
public record SettingOption(String key, String label, boolean list, String help) {
  public static SettingOption list(String key, String label, String help) {
    return new SettingOption(key, label, true, help);
  }

  public static SettingOption single(String key, String label, String help) {
    return new SettingOption(key, label, false, help);
  }

  /** E.g. {@code --sizes}. */
  public String optionName() {
    return cliName(key);
  }

  /** The option that sets config key {@code key}. */
  public static String cliName(String key) {
    return "--" + key.replace('_', '-');
  }

  /** {@code --warmup} and {@code --iterations}, which every measuring probe has. */
  public static final SettingOption WARMUP =
      single("warmup", "N", "Untimed repetitions first. Default: the probe's.");

  public static final SettingOption ITERATIONS =
      single(
          "iterations",
          "N",
          "Timed repetitions per figure (median; p99 too for collectives). Default: the probe's.");
}
