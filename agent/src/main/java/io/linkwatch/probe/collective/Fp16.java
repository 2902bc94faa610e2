package io.linkwatch.probe.collective;

/**
 * IEEE 754 half precision for the small whole numbers the allreduce check uses (Java 17 has no
 * {@code Float.floatToFloat16}). {@code encode(3)} is {@code 0x4200}.
 */
final class Fp16 {
  /** The largest finite half. */
  static final int MAX = 65504;

  private Fp16() {}

  /**
   * The half with the value {@code v}.
   *
   * @throws IllegalArgumentException when {@code v} is negative, above {@link #MAX} or not exactly
   *     representable (above 2048 halves skip odd numbers)
   */
  static short encode(int v) {
    if (v < 0 || v > MAX) {
      throw new IllegalArgumentException(v + " is outside 0.." + MAX);
    }
    if (v == 0) {
      return 0;
    }
    int e = 31 - Integer.numberOfLeadingZeros(v); // 2^e <= v < 2^(e+1)
    long scaled = ((long) v << 10) >> e; // 1.mmmmmmmmmm in fixed point
    if ((scaled << e) != ((long) v << 10)) {
      throw new IllegalArgumentException(v + " is not exactly representable in fp16");
    }
    return (short) (((e + 15) << 10) | (scaled - 1024));
  }

  /** The value of a half, for messages. */
  static double decode(short bits) {
    int b = bits & 0xffff;
    int sign = (b & 0x8000) != 0 ? -1 : 1;
    int exp = (b >>> 10) & 0x1f;
    int mant = b & 0x3ff;
    if (exp == 0) {
      return sign * mant * Math.pow(2, -24);
    }
    if (exp == 31) {
      return mant == 0 ? sign * Double.POSITIVE_INFINITY : Double.NaN;
    }
    return sign * (1 + mant / 1024.0) * Math.pow(2, exp - 15);
  }
}
