package io.linkwatch.util;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.text.similarity.DamerauLevenshteinDistance;

/**
 * The "did you mean" of every error that names a word we do not know (a config key, a probe): the
 * closest known name, only when it is within a typo of what was written, an edit distance
 * (Damerau-Levenshtein: two swapped letters are one edit) of at most a third of the name, 1 to 3.
 * E.g. {@code sizse} among {@code [enabled, every, sizes]} gives {@code sizes}; {@code nosuch}
 * among the probes gives nothing.
 */
public final class ClosestName {
  private static final DamerauLevenshteinDistance DISTANCE = new DamerauLevenshteinDistance();

  private ClosestName() {}

  /** The closest of {@code known} to {@code typed} (compared in lower case), if it is close. */
  public static Optional<String> of(String typed, Collection<String> known) {
    String t = typed.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = DISTANCE.apply(t, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best != null && bestDistance <= Math.max(1, Math.min(3, best.length() / 3))
        ? Optional.of(best)
        : Optional.empty();
  }
}
