/*
 * reduce.c - element-wise reduction of n ranks' buffers into n outputs.
 *
 * Element i of every output is written only after element i of every input
 * was read, so in-place allreduce (send == recv) and aliasing between ranks
 * are both safe.  Signed integers wrap (computed in unsigned arithmetic) to
 * stay clear of C's undefined overflow.
 */
#include "internal.h"
#include "reduce.h"
#include <string.h>

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

/* 16-bit floats: widen to float, reduce, round back once. */
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

void lw_reduce(void *const *send, void *const *recv, int n, uint64_t count, int type, int op)
{
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
    case HCCL_DATA_TYPE_FP16: HALF_LOOP(lw_half_to_float, lw_float_to_half) break;
    case HCCL_DATA_TYPE_BFP16: HALF_LOOP(bf16_to_float, float_to_bf16) break;
    default: break;
    }
}
