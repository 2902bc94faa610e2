package io.linkwatch.cli;

import io.linkwatch.probe.SettingOption;
import io.linkwatch.probe.TextSettings;
import java.util.List;
import java.util.Map;

/**
 * A probe's settings as its command line gives them: problems name the option ({@code --iterations:
 * must be between 1 and 100000, not 0}).
 */
final class CliSettings extends TextSettings {
  CliSettings(Map<String, List<String>> given) {
    super(given, SettingOption::cliName);
  }

  /** Throws every problem found so far, one line each, as a usage error. */
  void throwIfProblems() {
    List<String> problems = problems();
    if (!problems.isEmpty()) {
      throw new UsageException(String.join("\n", problems));
    }
  }
}
