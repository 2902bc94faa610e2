package io.linkwatch.cli;

import io.linkwatch.verdict.Verdict;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * How {@code status} and {@code check} print a verdict and what they exit with. The first line is
 * at most 80 characters, {@code OK|WARN|FAIL|UNKNOWN - <what>: <reason>}.
 *
 * <ul>
 *   <li>{@code text}: the first line, then every finding and note; exit 0 OK or WARN, 1 FAIL, 2
 *       UNKNOWN;
 *   <li>{@code npd}: node-problem-detector's custom plugin contract: the first line only, same exit
 *       codes (0 OK, 1 NonOK, 2 Unknown);
 *   <li>{@code nagios}: Nagios plugin words and codes: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
 * </ul>
 */
enum VerdictFormat {
  TEXT,
  NAGIOS,
  NPD;

  static final class Converter implements picocli.CommandLine.ITypeConverter<VerdictFormat> {
    @Override
    public VerdictFormat convert(String value) {
      try {
        return VerdictFormat.valueOf(value.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException(
            "'" + value + "' is not a format: use text, nagios or npd");
      }
    }
  }

  /** The first line, and unless npd every finding with its action, and every note. */
  void print(Verdict verdict, PrintWriter out) {
    print(verdict, out, word(verdict.state()));
  }

  /** As {@link #print(Verdict, PrintWriter)}, the first line's state word {@code stateWord}. */
  void print(Verdict verdict, PrintWriter out, String stateWord) {
    String first = verdict.firstLine(stateWord);
    out.println(first);
    if (this != NPD) {
      List<Verdict.Finding> findings = verdict.findings();
      // One finding the first line carries whole needs no second line saying the same.
      boolean told =
          findings.size() == 1 && first.endsWith(verdict.summary()) && !first.endsWith("…");
      for (Verdict.Finding f : findings) {
        if (!told) {
          out.println("  " + f.state().name().toLowerCase(Locale.ROOT) + " " + f.line());
        }
        // What to do, under what it is about: the reason an operator reads this far.
        if (!f.action().isEmpty() && f.state() != Verdict.State.OK) {
          out.println((told ? "  " : "    ") + "action: " + f.action());
        }
      }
      verdict.notes().forEach(n -> out.println("  note: " + n));
    }
  }

  String word(Verdict.State state) {
    if (this != NAGIOS) {
      return state.name();
    }
    return switch (state) {
      case OK -> "OK";
      case WARN -> "WARNING";
      case FAIL -> "CRITICAL";
      case UNKNOWN -> "UNKNOWN";
    };
  }

  int exitCode(Verdict.State state) {
    if (this == NAGIOS) {
      return switch (state) {
        case OK -> 0;
        case WARN -> 1;
        case FAIL -> 2;
        case UNKNOWN -> 3;
      };
    }
    return switch (state) {
      case OK, WARN -> 0;
      case FAIL -> 1;
      case UNKNOWN -> 2;
    };
  }
}
