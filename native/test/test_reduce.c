/*
 * test_reduce.c - the reductions are exact: lw_reduce (linked in from the
 * library's objects; it is not exported) against the one-element-at-a-time
 * code it replaced, kept here as the reference, bit for bit.
 */
#include "check.h"
#include "reduce.h"
#include <stdint.h>
#include <stdlib.h>

/* ---- the reference: reduce.c's and half.c's 16-bit float code as it was ---- */

static float ref_half_to_float(uint16_t h)
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

static uint16_t ref_float_to_half(float f)
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

static float ref_bf16_to_float(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint16_t ref_float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu))
        return (uint16_t)((x >> 16) | 0x40u);               /* keep NaN a NaN */
    x += 0x7fffu + ((x >> 16) & 1u);                        /* round to nearest even */
    return (uint16_t)(x >> 16);
}

#define COMBINE(acc, v, op)                                                      \
    ((op) == HCCL_REDUCE_SUM ? (acc) + (v) : (op) == HCCL_REDUCE_PROD ? (acc) * (v) \
     : (op) == HCCL_REDUCE_MAX ? ((v) > (acc) ? (v) : (acc))                     \
     : ((v) < (acc) ? (v) : (acc)))

#define HALF_LOOP(TO_F, FROM_F)                                                   \
    for (uint64_t i = 0; i < count; i++) {                                        \
        float acc = TO_F(((const uint16_t *)send[0])[i]);                         \
        for (int r = 1; r < n; r++) {                                             \
            float v = TO_F(((const uint16_t *)send[r])[i]);                       \
            acc = COMBINE(acc, v, op);                                            \
        }                                                                         \
        uint16_t out = FROM_F(acc);                                               \
        for (int r = 0; r < n; r++)                                               \
            ((uint16_t *)recv[r])[i] = out;                                       \
    }

static void ref_reduce(void *const *send, void *const *recv, int n, uint64_t count, int type,
                       int op)
{
    if (type == HCCL_DATA_TYPE_FP16)
        HALF_LOOP(ref_half_to_float, ref_float_to_half)
    else
        HALF_LOOP(ref_bf16_to_float, ref_float_to_bf16)
}

/* ---- inputs ---- */

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t next32(void)                   /* xorshift64* */
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 32);
}

/* Any 16 bits (a few percent nan, inf or subnormal), and one in eight from
 * the edges: zeros, subnormals, the normal range's ends, infinities, quiet
 * and signalling nans with payloads, ones that round at ties. */
static uint16_t sample(int type)
{
    static const uint16_t fp16[] = { 0x0000, 0x8000, 0x0001, 0x8001, 0x0200, 0x03ff, 0x83ff, 0x0400,
        0x8400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfd55, 0x7fff, 0x3c00,
        0xbc00, 0x3c01, 0x1000, 0x7800, 0x0c00 };
    static const uint16_t bf16[] = { 0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x8080, 0x7f7f,
        0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0xffaa, 0x7fff, 0x3f80, 0xbf80, 0x3f81,
        0x3b80, 0x7f00, 0x0100 };
    uint32_t r = next32();
    if (r % 8)
        return (uint16_t)(r >> 16);
    return type == HCCL_DATA_TYPE_FP16 ? fp16[(r >> 16) % (sizeof fp16 / 2)]
                                       : bf16[(r >> 16) % (sizeof bf16 / 2)];
}

/* Half of the time a nan with a random payload, so that two nans meet often:
 * which one a sum or product returns depends on the order of the operands. */
static uint16_t nan_rich(int type)
{
    uint32_t r = next32();
    if (r & 1)
        return sample(type);
    uint16_t exp = type == HCCL_DATA_TYPE_FP16 ? 0x7c00 : 0x7f80;
    uint16_t payload = (uint16_t)((r >> 16) & (uint16_t)~(exp | 0x8000u));
    return (uint16_t)((r & 0x8000u) | exp | (payload ? payload : 1));
}

static void *alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        perror("test_reduce");
        exit(2);
    }
    return p;
}

static const char *type_name(int type)
{
    return type == HCCL_DATA_TYPE_FP16 ? "fp16" : "bf16";
}

static bool is_nan(uint16_t h, int type)
{
    return type == HCCL_DATA_TYPE_FP16 ? (h & 0x7c00) == 0x7c00 && (h & 0x3ff)
                                       : (h & 0x7f80) == 0x7f80 && (h & 0x7f);
}

/* Which of two nans a sum or product returns depends on which operand the
 * compiler puts first.  lw_reduce puts the lower rank's first, as the
 * reference does when built by `make`; built with other flags (-O3) the
 * reference may not, so where lw_reduce returned the first nan (x86's rule)
 * and the reference another, that is let pass here, and counted. */
static long nan_order_passes;

static bool first_nan_rule(uint16_t got, void *const *in, int n, uint64_t i, int type, int op)
{
    if (op != HCCL_REDUCE_SUM && op != HCCL_REDUCE_PROD)
        return false;
    int nans = 0, first = -1;
    for (int r = 0; r < n; r++)
        if (is_nan(((const uint16_t *)in[r])[i], type) && nans++ == 0)
            first = r;
    uint16_t quiet = type == HCCL_DATA_TYPE_FP16 ? 0x200 : 0x40;
    return nans >= 2 && got == (((const uint16_t *)in[first])[i] | quiet);
}

/* got must equal want element for element; says where it first does not. */
static bool same(const uint16_t *got, const uint16_t *want, uint64_t count, void *const *in, int n,
                 int type, int op, const char *what)
{
    for (uint64_t i = 0; i < count; i++) {
        if (got[i] == want[i])
            continue;
        if (is_nan(want[i], type) && first_nan_rule(got[i], in, n, i, type, op)) {
            nan_order_passes++;
            continue;
        }
        check_failures++;
        fprintf(stderr, "  FAIL %s %s op %d element %llu: inputs", what, type_name(type), op,
                (unsigned long long)i);
        for (int r = 0; r < n; r++)
            fprintf(stderr, " %04x", ((const uint16_t *)in[r])[i]);
        fprintf(stderr, " -> %04x, want %04x\n", got[i], want[i]);
        return false;
    }
    return true;
}

static void report_nan_order(void)
{
    if (nan_order_passes)
        fprintf(stderr, "  %ld nan+nan results where the reference, as compiled, returned "
                        "another rank's nan\n", nan_order_passes);
    nan_order_passes = 0;
}

/* ---- tests ---- */

enum { K = 64 };                         /* random partners for every value */
#define BIG ((uint64_t)65536 * K)        /* 4 Mi elements: the threaded path */

/* Every 16-bit value as one operand against K random ones, in both orders,
 * for every op; then three ranks; then one rank (a round trip). */
void test_reduce_exhaustive(void)
{
    uint16_t *a = alloc(BIG * 2), *b = alloc(BIG * 2), *c = alloc(BIG * 2);
    uint16_t *want = alloc(BIG * 2), *got0 = alloc(BIG * 2), *got1 = alloc(BIG * 2);
    uint16_t *got2 = alloc(BIG * 2);
    int types[2] = { HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_BFP16 };
    for (int t = 0; t < 2; t++) {
        int type = types[t];
        for (uint64_t i = 0; i < BIG; i++) {
            a[i] = (uint16_t)i;
            b[i] = sample(type);
            c[i] = sample(type);
        }
        for (int op = HCCL_REDUCE_SUM; op <= HCCL_REDUCE_MIN; op++) {
            void *pairs[2][2] = { { a, b }, { b, a } };
            for (int k = 0; k < 2; k++) {
                void *wout[2] = { want, want }, *gout[2] = { got0, got1 };
                ref_reduce(pairs[k], wout, 2, BIG, type, op);
                lw_reduce(pairs[k], gout, 2, BIG, type, op);
                if (same(got0, want, BIG, pairs[k], 2, type, op, "2 ranks"))
                    same(got1, want, BIG, pairs[k], 2, type, op, "2 ranks, rank 1");
            }
            void *three[3] = { a, b, c }, *wout[3] = { want, want, want };
            void *gout[3] = { got0, got1, got2 };
            ref_reduce(three, wout, 3, BIG, type, op);
            lw_reduce(three, gout, 3, BIG, type, op);
            for (int r = 0; r < 3; r++)
                same(gout[r], want, BIG, three, 3, type, op, "3 ranks");
        }
        void *one[1] = { a }, *wout[1] = { want }, *gout[1] = { got0 };
        ref_reduce(one, wout, 1, 65536, type, HCCL_REDUCE_SUM);
        lw_reduce(one, gout, 1, 65536, type, HCCL_REDUCE_SUM);
        same(got0, want, 65536, one, 1, type, HCCL_REDUCE_SUM, "1 rank");
    }
    free(a); free(b); free(c);
    free(want); free(got0); free(got1); free(got2);
    report_nan_order();
}

/* In place and aliased between ranks, as HcclAllReduce allows: rank 0 in
 * place, rank 2 sends rank 0's buffer and receives into rank 1's send buffer,
 * on a threaded size with a ragged tail; then 2 ranks in place.  And short,
 * unaligned buffers full of nans, where the tails' code runs. */
void test_reduce_in_place(void)
{
    const uint64_t count = 3 * 1048576 + 5;
    uint16_t *x = alloc(count * 2), *y = alloc(count * 2), *z = alloc(count * 2);
    uint16_t *x0 = alloc(count * 2), *y0 = alloc(count * 2), *want = alloc(count * 2);
    int types[2] = { HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_BFP16 };
    for (int t = 0; t < 2; t++) {
        int type = types[t];
        for (int op = HCCL_REDUCE_SUM; op <= HCCL_REDUCE_MIN; op++) {
            for (uint64_t i = 0; i < count; i++) {
                x0[i] = x[i] = sample(type);
                y0[i] = y[i] = sample(type);
            }
            void *ref_in[3] = { x0, y0, x0 }, *wout[3] = { want, want, want };
            ref_reduce(ref_in, wout, 3, count, type, op);
            void *send[3] = { x, y, x }, *recv[3] = { x, z, y };
            lw_reduce(send, recv, 3, count, type, op);
            same(x, want, count, ref_in, 3, type, op, "3 ranks aliased, x");
            same(y, want, count, ref_in, 3, type, op, "3 ranks aliased, y");
            same(z, want, count, ref_in, 3, type, op, "3 ranks aliased, z");

            memcpy(x, x0, count * 2);
            memcpy(y, y0, count * 2);
            void *pair[2] = { x, y };
            ref_reduce(ref_in, wout, 2, count, type, op);
            lw_reduce(pair, pair, 2, count, type, op);
            same(x, want, count, ref_in, 2, type, op, "2 ranks in place, rank 0");
            same(y, want, count, ref_in, 2, type, op, "2 ranks in place, rank 1");

            for (uint64_t i = 0; i < 48; i++) {
                x0[i] = nan_rich(type);
                y0[i] = nan_rich(type);
            }
            for (uint64_t len = 1; len <= 40; len++) {
                void *in[2] = { x0 + 1, y0 + 1 }, *w[2] = { want, want }, *g[2] = { x + 1, z + 3 };
                ref_reduce(in, w, 2, len, type, op);
                lw_reduce(in, g, 2, len, type, op);
                if (!same(x + 1, want, len, in, 2, type, op, "short") ||
                    !same(z + 3, want, len, in, 2, type, op, "short"))
                    break;
            }
        }
    }
    free(x); free(y); free(z); free(x0); free(y0); free(want);
    report_nan_order();
}

/* Splitting a large reduction across threads changes no result, for every
 * type: the whole at once against 100003-element pieces (each below the
 * threading threshold, so reduced on this thread). */
void test_reduce_split(void)
{
    const uint64_t count = 5 * 1048576 / 2 + 3;
    int types[] = { HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_UINT8, HCCL_DATA_TYPE_INT16,
                    HCCL_DATA_TYPE_UINT16, HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_UINT32,
                    HCCL_DATA_TYPE_INT64, HCCL_DATA_TYPE_UINT64, HCCL_DATA_TYPE_FP16,
                    HCCL_DATA_TYPE_BFP16, HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_FP64 };
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        size_t es = lw_dtype_size(types[t]), bytes = (size_t)count * es;
        char *in0 = alloc(bytes), *in1 = alloc(bytes), *whole = alloc(bytes), *pieces = alloc(bytes);
        for (size_t i = 0; i < bytes; i++) {
            in0[i] = (char)next32();
            in1[i] = (char)next32();
        }
        int op = (int)(t % 4);
        void *send[2] = { in0, in1 }, *recv[2] = { whole, whole };
        lw_reduce(send, recv, 2, count, types[t], op);
        for (uint64_t first = 0; first < count; first += 100003) {
            uint64_t len = count - first < 100003 ? count - first : 100003;
            void *s[2] = { in0 + first * es, in1 + first * es };
            void *r[2] = { pieces + first * es, pieces + first * es };
            lw_reduce(s, r, 2, len, types[t], op);
        }
        if (memcmp(whole, pieces, bytes) != 0) {
            check_failures++;
            fprintf(stderr, "  FAIL type %d op %d: the threaded result differs from the pieces'\n",
                    types[t], op);
        }
        free(in0); free(in1); free(whole); free(pieces);
    }
}
