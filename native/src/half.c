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
