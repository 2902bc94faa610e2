package io.linkwatch.status;

import io.linkwatch.probe.result.Measurement;

/**
 * A figure that JSON cannot carry, a failed one with NaN in it, kept as its type's name and its
 * summary: so one bad value never fails the status document, and a reader of the document sees the
 * same figure as the agent that wrote it. Written as {@code {"type": "P2pBandwidth", "summary":
 * "0->1 256MiB NaNGB/s SIO"}}.
 *
 * @param type the measurement's type name, e.g. {@code P2pBandwidth}
 */
public record UnencodedFigure(String type, String summary) implements Measurement {

  /** {@code m} itself, or its unencoded form when a figure of it is not a finite number. */
  public static Measurement of(Measurement m) {
    return finite(m) ? m : new UnencodedFigure(m.getClass().getSimpleName(), m.summary());
  }

  private static boolean finite(Measurement m) {
    if (!m.getClass().isRecord()) {
      return true;
    }
    for (var c : m.getClass().getRecordComponents()) {
      if (c.getType() == double.class || c.getType() == Double.class) {
        try {
          var accessor = c.getAccessor();
          accessor.setAccessible(true);
          Object v = accessor.invoke(m);
          if (v instanceof Double d && !Double.isFinite(d)) {
            return false;
          }
        } catch (ReflectiveOperationException e) {
          return false;
        }
      }
    }
    return true;
  }
}
