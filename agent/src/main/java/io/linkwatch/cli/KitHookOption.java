package io.linkwatch.cli;

import io.linkwatch.config.AgentConfig;
import io.linkwatch.state.KitHook;
import io.linkwatch.state.ShadowRecord;
import io.linkwatch.verdict.Verdict;
import java.util.Arrays;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code --hook} of {@code status} and {@code check}: which part of the job-boundary kit asks,
 * so that in shadow mode ({@code verdicts.enforce: false}) the answer does not make it act. A FAIL
 * then exits 0 (OK's code: the health check does not drain, Slurm does not drain after the prolog,
 * node-problem-detector sets no condition) with its first line starting {@code SHADOW FAIL}, and is
 * counted beside the probe lock for the agent's {@code linkwatch_shadow_actions_total}; an UNKNOWN
 * keeps its code and starts {@code SHADOW UNKNOWN}, so a script that would drain on it sees the
 * mode. Without {@code --hook}, or with the kit enforcing, nothing changes: a person asking gets
 * the verdict as it is.
 */
final class KitHookOption {
  @Option(
      names = "--hook",
      paramLabel = "HOOK",
      converter = Converter.class,
      description =
          "The part of the job-boundary kit that asks (healthcheck, prolog, epilog, npd): with"
              + " verdicts.enforce: false a FAIL exits 0, its first line starts SHADOW, and it is"
              + " counted on the agent's /metrics instead of acted on.")
  KitHook hook;

  static final class Converter implements ITypeConverter<KitHook> {
    @Override
    public KitHook convert(String value) {
      return KitHook.byId(value.strip())
          .orElseThrow(
              () ->
                  new TypeConversionException(
                      "'"
                          + value
                          + "' is not a hook: use "
                          + Arrays.stream(KitHook.values())
                              .map(KitHook::id)
                              .collect(Collectors.joining(", "))));
    }
  }

  /** How a verdict is answered to the hook under {@code cfg}. */
  Answer answer(AgentConfig cfg, VerdictFormat format) {
    return new Answer(hook != null && !cfg.enforceVerdicts() ? hook : null, format);
  }

  /**
   * The words and exit code of one answer.
   *
   * @param shadowOf the hook answered in shadow mode; null when the verdict is answered as it is
   */
  record Answer(KitHook shadowOf, VerdictFormat format) {
    String word(Verdict.State state) {
      boolean marked = state == Verdict.State.FAIL || state == Verdict.State.UNKNOWN;
      return (shadowOf != null && marked ? "SHADOW " : "") + format.word(state);
    }

    int exitCode(Verdict.State state) {
      return shadowOf != null && state == Verdict.State.FAIL ? 0 : format.exitCode(state);
    }

    /** The note a person reading the whole output gets; empty when the verdict is as it is. */
    java.util.Optional<String> note(Verdict.State state) {
      if (shadowOf == null || state != Verdict.State.FAIL) {
        return java.util.Optional.empty();
      }
      return java.util.Optional.of(
          "shadow mode (verdicts.enforce: false): the "
              + shadowOf.id()
              + " would "
              + (shadowOf.action().equals("drain") ? "drain the node" : "set its condition")
              + " for this verdict; not done, counted on /metrics");
    }

    /** Counts a FAIL the hook is not acting on, for the agent's {@code /metrics}. */
    void count(AgentConfig cfg, Verdict verdict) {
      if (shadowOf != null && verdict.state() == Verdict.State.FAIL) {
        ShadowRecord.add(
            cfg.probeLock(),
            shadowOf,
            verdict.firstLine(word(verdict.state())),
            System.currentTimeMillis() / 1e3);
      }
    }
  }
}
