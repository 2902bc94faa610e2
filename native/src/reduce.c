/*
 * reduce.c - element-wise reduction of n ranks' buffers into n outputs.
 *
 * Element i of every output is written only after element i of every input
 * was read (16-bit floats go a block at a time: block b of every output after
 * block b of every input), so in-place allreduce (send == recv) and aliasing
 * between ranks are both safe; buffers that overlap at different offsets are
 * not (nor are they in HCCL).  Large counts are split among threads by index
 * range (lw_reduce).  Signed integers wrap (computed in unsigned arithmetic)
 * to stay clear of C's undefined overflow.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "reduce.h"
#include <string.h>
#include <unistd.h>

#define COMBINE(acc, v, op)                                                      \
    ((op) == HCCL_REDUCE_SUM ? (acc) + (v) : (op) == HCCL_REDUCE_PROD ? (acc) * (v) \
     : (op) == HCCL_REDUCE_MAX ? ((v) > (acc) ? (v) : (acc))                     \
     : ((v) < (acc) ? (v) : (acc)))

/* Integer types: SUM/PROD through the unsigned twin, MAX/MIN natively. */
#define INT_LOOP(T, UT)                                                           \
    for (uint64_t i = 0; i < count; i++) {                                        \
        T acc = ((const T *)send[0])[i];                                          \
        for (int r = 1; r < n; r++) {                                             \
            T v = ((const T *)send[r])[i];                                        \
            if (op == HCCL_REDUCE_SUM)                                            \
                acc = (T)((UT)acc + (UT)v);                                       \
            else if (op == HCCL_REDUCE_PROD)                                      \
                acc = (T)((UT)acc * (UT)v);                                       \
            else                                                                  \
                acc = COMBINE(acc, v, op);                                        \
        }                                                                         \
        for (int r = 0; r < n; r++)                                               \
            ((T *)recv[r])[i] = acc;                                              \
    }

#define FLOAT_LOOP(T)                                                             \
    for (uint64_t i = 0; i < count; i++) {                                        \
        T acc = ((const T *)send[0])[i];                                          \
        for (int r = 1; r < n; r++) {                                             \
            T v = ((const T *)send[r])[i];                                        \
            acc = COMBINE(acc, v, op);                                            \
        }                                                                         \
        for (int r = 0; r < n; r++)                                               \
            ((T *)recv[r])[i] = acc;                                              \
    }

/*
 * 16-bit floats: widen to float, reduce, round back once.  A block at a time,
 * so the floats stay in L1 and every pass is one tight loop over the block:
 * widen the first rank's block into acc, widen each other rank's and combine
 * it in (one loop per op, so the operation is a constant there), round acc
 * into out, copy out to every recv buffer.  The float operations are those of
 * one element at a time, in the same order; and every input block is read
 * before any output block is written, so the aliasing above stays safe.
 */
enum { BLOCK = 2048 };

/*
 * Combining, four lanes at a time with GCC/Clang vector extensions (SSE2,
 * NEON, or plain code where there is neither): each lane does the scalar
 * operation.  Which nan a sum or product of two nans returns follows the
 * hardware's rule and whichever operand the compiler happened to put first;
 * the scalar code, as built, put the lower rank's first, so first_nan writes
 * that out (with the x86 or the Arm rule) and no compiler or flag changes it.
 */
typedef float f32x4 __attribute__((vector_size(16)));
typedef int32_t i32x4 __attribute__((vector_size(16)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef uint16_t u16x4 __attribute__((vector_size(8)));

static inline f32x4 pick(i32x4 mask, f32x4 a, f32x4 b)    /* per lane mask ? a : b */
{
    return (f32x4)((mask & (i32x4)a) | (~mask & (i32x4)b));
}

static inline f32x4 first_nan(f32x4 acc, f32x4 v, f32x4 result)
{
    i32x4 acc_nan = acc != acc, v_nan = v != v;
    f32x4 acc_quiet = (f32x4)((i32x4)acc | 0x400000), v_quiet = (f32x4)((i32x4)v | 0x400000);
    result = pick(acc_nan, acc_quiet, pick(v_nan, v_quiet, result));   /* x86: the first one */
#if defined(__aarch64__) || defined(__arm__)
    /* Arm takes a signalling nan (quiet bit clear) before a quiet one */
    i32x4 acc_snan = acc_nan & (((i32x4)acc & 0x400000) == 0);
    i32x4 v_snan = v_nan & (((i32x4)v & 0x400000) == 0);
    result = pick(v_snan & ~acc_snan, v_quiet, result);
#endif
    return result;
}

#define COMBINE4(acc, v, op)                                                      \
    ((op) == HCCL_REDUCE_SUM ? first_nan((acc), (v), (acc) + (v))                 \
     : (op) == HCCL_REDUCE_PROD ? first_nan((acc), (v), (acc) * (v))              \
     : (op) == HCCL_REDUCE_MAX ? pick((v) > (acc), (v), (acc))                   \
     : pick((v) < (acc), (v), (acc)))

/* A vector at a time, the last 1-3 elements in a zero-padded one, so that
 * every element gets the same operation. */
#define COMBINE_VECTOR(i, k, OP)                                                  \
    do {                                                                          \
        f32x4 a = { 0 }, b = { 0 };                                               \
        memcpy(&a, acc + (i), (k) * sizeof *acc);                                 \
        memcpy(&b, v + (i), (k) * sizeof *v);                                     \
        a = COMBINE4(a, b, OP);                                                   \
        memcpy(acc + (i), &a, (k) * sizeof *acc);                                 \
    } while (0)

#define COMBINE_BLOCK(OP)                                                         \
    do {                                                                          \
        size_t i = 0;                                                             \
        for (; i + 4 <= m; i += 4)                                                \
            COMBINE_VECTOR(i, 4, OP);                                             \
        if (i < m)                                                                \
            COMBINE_VECTOR(i, m - i, OP);                                         \
    } while (0)

#define HALF_LOOP(TO_F_BLOCK, FROM_F_BLOCK)                                       \
    for (uint64_t base = 0; base < count; base += BLOCK) {                        \
        size_t m = count - base < BLOCK ? (size_t)(count - base) : BLOCK;         \
        TO_F_BLOCK(acc, (const uint16_t *)send[0] + base, m);                     \
        for (int r = 1; r < n; r++) {                                             \
            TO_F_BLOCK(v, (const uint16_t *)send[r] + base, m);                   \
            if (op == HCCL_REDUCE_SUM)                                            \
                COMBINE_BLOCK(HCCL_REDUCE_SUM);                                   \
            else if (op == HCCL_REDUCE_PROD)                                      \
                COMBINE_BLOCK(HCCL_REDUCE_PROD);                                  \
            else if (op == HCCL_REDUCE_MAX)                                       \
                COMBINE_BLOCK(HCCL_REDUCE_MAX);                                   \
            else                                                                  \
                COMBINE_BLOCK(HCCL_REDUCE_MIN);                                   \
        }                                                                         \
        FROM_F_BLOCK(out, acc, m);                                                \
        for (int r = 0; r < n; r++)                                               \
            memcpy((uint16_t *)recv[r] + base, out, m * sizeof *out);             \
    }

static float bf16_to_float(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint16_t float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu))
        return (uint16_t)((x >> 16) | 0x40u);               /* keep NaN a NaN */
    x += 0x7fffu + ((x >> 16) & 1u);                        /* round to nearest even */
    return (uint16_t)(x >> 16);
}

/* The same, four lanes at a time (nan picked by a mask): GCC's -O2 does not
 * vectorise these loops by itself. */
static void bf16s_to_floats(float *out, const uint16_t *in, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        u16x4 h;
        memcpy(&h, in + i, sizeof h);
        u32x4 x = __builtin_convertvector(h, u32x4) << 16;
        memcpy(out + i, &x, sizeof x);
    }
    for (; i < n; i++)
        out[i] = bf16_to_float(in[i]);
}

static void floats_to_bf16s(uint16_t *out, const float *in, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        u32x4 x;
        memcpy(&x, in + i, sizeof x);
        u32x4 nan = (u32x4)((x & 0x7fffffffu) > 0x7f800000u);
        u32x4 r = (nan & ((x >> 16) | 0x40u)) | (~nan & ((x + 0x7fffu + ((x >> 16) & 1u)) >> 16));
        u16x4 h = __builtin_convertvector(r, u16x4);
        memcpy(out + i, &h, sizeof h);
    }
    for (; i < n; i++)
        out[i] = float_to_bf16(in[i]);
}

size_t lw_dtype_size(int type)
{
    switch (type) {
    case HCCL_DATA_TYPE_INT8: case HCCL_DATA_TYPE_UINT8: return 1;
    case HCCL_DATA_TYPE_INT16: case HCCL_DATA_TYPE_UINT16:
    case HCCL_DATA_TYPE_FP16: case HCCL_DATA_TYPE_BFP16: return 2;
    case HCCL_DATA_TYPE_INT32: case HCCL_DATA_TYPE_UINT32: case HCCL_DATA_TYPE_FP32: return 4;
    case HCCL_DATA_TYPE_INT64: case HCCL_DATA_TYPE_UINT64: case HCCL_DATA_TYPE_FP64: return 8;
    default: return 0;   /* INT128, HIF8, FP8*: not supported by the sim */
    }
}

/* The whole reduction of count elements, on the calling thread. */
static void reduce_part(void *const *send, void *const *recv, int n, uint64_t count, int type, int op)
{
    float acc[BLOCK], v[BLOCK];
    uint16_t out[BLOCK];
    switch (type) {
    case HCCL_DATA_TYPE_INT8: INT_LOOP(int8_t, uint8_t) break;
    case HCCL_DATA_TYPE_UINT8: INT_LOOP(uint8_t, uint8_t) break;
    case HCCL_DATA_TYPE_INT16: INT_LOOP(int16_t, uint16_t) break;
    case HCCL_DATA_TYPE_UINT16: INT_LOOP(uint16_t, uint16_t) break;
    case HCCL_DATA_TYPE_INT32: INT_LOOP(int32_t, uint32_t) break;
    case HCCL_DATA_TYPE_UINT32: INT_LOOP(uint32_t, uint32_t) break;
    case HCCL_DATA_TYPE_INT64: INT_LOOP(int64_t, uint64_t) break;
    case HCCL_DATA_TYPE_UINT64: INT_LOOP(uint64_t, uint64_t) break;
    case HCCL_DATA_TYPE_FP32: FLOAT_LOOP(float) break;
    case HCCL_DATA_TYPE_FP64: FLOAT_LOOP(double) break;
    case HCCL_DATA_TYPE_FP16: HALF_LOOP(lw_halves_to_floats, lw_floats_to_halves) break;
    case HCCL_DATA_TYPE_BFP16: HALF_LOOP(bf16s_to_floats, floats_to_bf16s) break;
    default: break;
    }
}

/*
 * Large reductions are split into contiguous parts reduced by threads of
 * their own.  Each part is the same element-wise reduction of its own index
 * range, so the result does not depend on the split, and the aliasing rule
 * holds within each part.  Below two parts' worth everything stays on the
 * calling thread: small collectives must not pay for starting threads.
 */
enum { PART_MIN = 1 << 20,   /* elements: about a millisecond's work, against tens of
                                microseconds to start a thread */
       PARTS_MAX = 8 };      /* past a few threads memory bandwidth, not cores, is the limit */

struct part {
    void *send[LW_MAX_DEVICES], *recv[LW_MAX_DEVICES];
    int n, type, op;
    uint64_t count;
};

static void *part_main(void *arg)
{
    struct part *p = arg;
    reduce_part(p->send, p->recv, p->n, p->count, p->type, p->op);
    return NULL;
}

void lw_reduce(void *const *send, void *const *recv, int n, uint64_t count, int type, int op)
{
    uint64_t parts = count / PART_MIN;
    if (parts >= 2) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        if (parts > PARTS_MAX)
            parts = PARTS_MAX;
        if (cpus > 0 && parts > (uint64_t)cpus)
            parts = (uint64_t)cpus;
    }
    if (parts < 2 || n > LW_MAX_DEVICES) {
        reduce_part(send, recv, n, count, type, op);
        return;
    }
    /* whole blocks per part, so no two threads write one cache line */
    uint64_t per = (count / parts + BLOCK - 1) / BLOCK * BLOCK;
    size_t es = lw_dtype_size(type);
    struct part p[PARTS_MAX];
    pthread_t t[PARTS_MAX];
    bool started[PARTS_MAX] = { false };
    for (uint64_t k = 0; k < parts; k++) {
        uint64_t first = k * per < count ? k * per : count;
        p[k] = (struct part){ .n = n, .type = type, .op = op,
                              .count = count - first < per ? count - first : per };
        for (int r = 0; r < n; r++) {
            p[k].send[r] = (char *)send[r] + first * es;
            p[k].recv[r] = (char *)recv[r] + first * es;
        }
    }
    for (uint64_t k = 1; k < parts; k++)
        started[k] = pthread_create(&t[k], NULL, part_main, &p[k]) == 0;
    part_main(&p[0]);
    for (uint64_t k = 1; k < parts; k++) {
        if (started[k])
            pthread_join(t[k], NULL);
        else
            part_main(&p[k]);    /* no thread to be had: do that part here */
    }
}
