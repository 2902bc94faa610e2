/*
 * half.c - IEEE 754 binary16 <-> binary32, so FP16 allreduce can be computed
 * in float and rounded back exactly like a device would (round to nearest even).
 */
#include "internal.h"
#include <string.h>

float lw_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else {            /* subnormal: normalise into a float */
            int e = -1;
            do { man <<= 1; e++; } while (!(man & 0x400u));
            man &= 0x3ffu;
            bits = sign | ((uint32_t)(127 - 15 - e) << 23) | (man << 13);
        }
    } else if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);   /* inf / nan keeps payload */
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

uint16_t lw_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;

    if (exp == 0xff)                            /* inf or nan (keep it a nan) */
        return sign | 0x7c00u | (man ? (0x200u | (man >> 13)) : 0);
    int e = (int)exp - 127 + 15;
    if (e >= 0x1f)                              /* overflow -> inf */
        return sign | 0x7c00u;
    if (e <= 0) {                               /* subnormal or zero */
        if (e < -10)
            return sign;
        man |= 0x800000u;                       /* implicit leading one */
        int shift = 14 - e;                     /* 24-bit mantissa -> 10 bits */
        uint32_t half_man = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (half_man & 1u)))
            half_man++;
        return sign | (uint16_t)half_man;       /* a carry lands in the exponent: fine */
    }
    uint32_t half_man = man >> 13;
    uint32_t rem = man & 0x1fffu;
    uint32_t out = ((uint32_t)e << 10) | half_man;
    if (rem > 0x1000u || (rem == 0x1000u && (half_man & 1u)))
        out++;                                  /* may carry into exponent, up to inf: correct */
    return sign | (uint16_t)out;
}

/*
 * Block conversions for the reductions.  On x86-64 CPUs with F16C (every one
 * since 2012-13) one instruction converts 8 values, with exactly the results
 * of the functions above: half -> float is exact; float -> half is told to
 * round to nearest even, whatever the FP control word says, and makes a nan
 * the same quiet nan with the top payload bits.  The one difference, a
 * signalling half nan widened to a quiet float nan, never shows: the
 * reductions' float arithmetic would quiet it, MAX/MIN pass it on, and the
 * rounding back sets the quiet bit either way.  Elsewhere, and for the tails,
 * the functions above do it one value at a time.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_F16C() __builtin_cpu_supports("f16c")

__attribute__((target("avx,f16c")))
static size_t halves_to_floats_f16c(float *out, const uint16_t *in, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(in + i))));
    return i;
}

__attribute__((target("avx,f16c")))
static size_t floats_to_halves_f16c(uint16_t *out, const float *in, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(out + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
    return i;
}
#else
#define HAVE_F16C() 0
#define halves_to_floats_f16c(out, in, n) ((size_t)0)
#define floats_to_halves_f16c(out, in, n) ((size_t)0)
#endif

void lw_halves_to_floats(float *out, const uint16_t *in, size_t n)
{
    size_t i = HAVE_F16C() ? halves_to_floats_f16c(out, in, n) : 0;
    for (; i < n; i++)
        out[i] = lw_half_to_float(in[i]);
}

void lw_floats_to_halves(uint16_t *out, const float *in, size_t n)
{
    size_t i = HAVE_F16C() ? floats_to_halves_f16c(out, in, n) : 0;
    for (; i < n; i++)
        out[i] = lw_float_to_half(in[i]);
}
