/* test_hccl.c - allreduce and allgather rendezvous, reductions, the time model, timeouts. */
#define _GNU_SOURCE
#include "check.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define MiB (1024UL * 1024UL)
#define GiB (1024UL * MiB)

struct rank {
    HcclComm comm;
    int dev;
    void *send, *recv;
    uint64_t count;
    int type, op, iters;
    bool gather;                /* HcclAllGather instead of HcclAllReduce */
    double ms[16];
    int rc;
};

static void *rank_main(void *arg)
{
    struct rank *r = arg;
    aclrtStream s;
    aclrtEvent a, b;
    aclrtSetDevice(r->dev);
    aclrtCreateStream(&s);
    aclrtCreateEvent(&a);
    aclrtCreateEvent(&b);
    for (int i = 0; i < r->iters; i++) {
        float ms = 0;
        aclrtRecordEvent(a, s);
        r->rc = r->gather ? HcclAllGather(r->send, r->recv, r->count, r->type, r->comm, s)
                          : HcclAllReduce(r->send, r->recv, r->count, r->type, r->op, r->comm, s);
        aclrtRecordEvent(b, s);
        aclrtSynchronizeStream(s);
        aclrtEventElapsedTime(&ms, a, b);
        r->ms[i] = ms;
        if (r->rc)
            break;
    }
    aclrtDestroyEvent(a);
    aclrtDestroyEvent(b);
    aclrtDestroyStream(s);
    return NULL;
}

/* Runs the ranks (one thread each) to completion. */
static void run_ranks(struct rank *r, int n)
{
    pthread_t t[8];
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, rank_main, &r[i]);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
}

static void setup(struct rank *r, HcclComm *comms, size_t bytes, bool in_place)
{
    for (int i = 0; i < 2; i++) {
        memset(&r[i], 0, sizeof r[i]);
        r[i].comm = comms[i];
        r[i].dev = i;
        aclrtSetDevice(i);
        CHECK_RC(aclrtMalloc(&r[i].send, bytes, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        r[i].recv = r[i].send;
        if (!in_place)
            CHECK_RC(aclrtMalloc(&r[i].recv, bytes, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        r[i].iters = 1;
    }
    aclrtSetDevice(0);
}

static void teardown(struct rank *r)
{
    for (int i = 0; i < 2; i++) {
        if (r[i].recv != r[i].send)
            aclrtFree(r[i].recv);
        aclrtFree(r[i].send);
    }
}

static uint16_t f2h(float f)   /* exact for the small values used here */
{
    if (f == 0)
        return 0;
    int e;
    float m = frexpf(fabsf(f), &e);                 /* f = m * 2^e, m in [0.5, 1) */
    uint16_t man = (uint16_t)((m * 2 - 1) * 1024);
    return (uint16_t)((f < 0 ? 0x8000 : 0) | ((e - 1 + 15) << 10) | man);
}

void test_hccl_reduce(void)
{
    HcclComm comms[2];
    int32_t devs[2] = { 0, 1 };
    struct rank r[2];
    enum { N = 1000 };
    CHECK_RC(HcclCommInitAll(2, devs, comms), 0);

    /* FP32 SUM and MAX */
    setup(r, comms, N * 4, false);
    for (int i = 0; i < 2; i++) {
        float v[N];
        for (int k = 0; k < N; k++)
            v[k] = (float)(k * (i + 1)) - (i ? 500.0f : 0);
        aclrtSetDevice(i);
        aclrtMemcpy(r[i].send, sizeof v, v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE);
        r[i].count = N;
        r[i].type = HCCL_DATA_TYPE_FP32;
        r[i].op = HCCL_REDUCE_SUM;
    }
    run_ranks(r, 2);
    CHECK(r[0].rc == 0 && r[1].rc == 0);
    for (int i = 0; i < 2; i++) {
        float out[N];
        aclrtSetDevice(i);
        aclrtMemcpy(out, sizeof out, r[i].recv, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST);
        CHECK(out[0] == -500.0f && out[10] == 30.0f - 500.0f && out[999] == 2997.0f - 500.0f);
    }
    for (int i = 0; i < 2; i++)
        r[i].op = HCCL_REDUCE_MAX;
    run_ranks(r, 2);
    float o[N];
    aclrtMemcpy(o, sizeof o, r[1].recv, sizeof o, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK(o[0] == 0.0f && o[999] == 1498.0f && o[400] == 400.0f);
    teardown(r);

    /* FP16 SUM in place, including a rounding case: 1 + 2^-11 rounds to even (1). */
    setup(r, comms, N * 2, true);
    for (int i = 0; i < 2; i++) {
        uint16_t v[N];
        for (int k = 0; k < N; k++)
            v[k] = f2h((float)(k % 100) * 0.5f * (float)(i + 1));
        v[0] = i ? f2h(1.0f) : 0x1000;              /* 0x1000 = 2^-11 */
        v[1] = f2h(-2.5f);
        aclrtSetDevice(i);
        aclrtMemcpy(r[i].send, sizeof v, v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE);
        r[i].count = N;
        r[i].type = HCCL_DATA_TYPE_FP16;
        r[i].op = HCCL_REDUCE_SUM;
    }
    run_ranks(r, 2);
    CHECK(r[0].rc == 0 && r[1].rc == 0);
    uint16_t h[N];
    aclrtSetDevice(0);
    aclrtMemcpy(h, sizeof h, r[0].recv, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK(h[0] == f2h(1.0f));
    CHECK(h[1] == f2h(-5.0f));
    CHECK(h[7] == f2h(10.5f));                      /* 3.5 + 7 */
    CHECK(h[99] == f2h(148.5f));                    /* 49.5 + 99 */
    teardown(r);

    /* INT32 MIN */
    setup(r, comms, 16, false);
    for (int i = 0; i < 2; i++) {
        int32_t v[4] = { i ? -7 : 3, i ? 5 : 9, 0, i ? 2147483647 : -2147483647 - 1 };
        aclrtSetDevice(i);
        aclrtMemcpy(r[i].send, 16, v, 16, ACL_MEMCPY_HOST_TO_DEVICE);
        r[i].count = 4;
        r[i].type = HCCL_DATA_TYPE_INT32;
        r[i].op = HCCL_REDUCE_MIN;
    }
    run_ranks(r, 2);
    int32_t iv[4];
    aclrtMemcpy(iv, 16, r[1].recv, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK(iv[0] == -7 && iv[1] == 5 && iv[2] == 0 && iv[3] == -2147483647 - 1);
    teardown(r);
    CHECK_RC(HcclCommDestroy(comms[0]), 0);
    CHECK_RC(HcclCommDestroy(comms[1]), 0);
    CHECK_RC(HcclCommDestroy(comms[1]), HCCL_E_PARA);
}

/* Seed 001: 2 dies, 1 KB p50 272.7 us; 1 GB busbw 105.1 GB/s. */
void test_hccl_model(void)
{
    HcclComm comms[2];
    int32_t devs[2] = { 0, 1 };
    struct rank r[2];
    CHECK_RC(HcclCommInitAll(2, devs, comms), 0);
    setup(r, comms, 1024, false);
    for (int i = 0; i < 2; i++) {
        r[i].count = 256;
        r[i].type = HCCL_DATA_TYPE_FP32;
        r[i].iters = 11;
    }
    run_ranks(r, 2);
    double p50 = median(r[0].ms, 11) * 1e3;
    teardown(r);
    setup(r, comms, GiB, true);
    for (int i = 0; i < 2; i++) {
        r[i].count = GiB / 4;
        r[i].type = HCCL_DATA_TYPE_FP32;
        r[i].iters = 1;
    }
    run_ranks(r, 2);
    CHECK(r[0].rc == 0 && r[1].rc == 0);
    double busbw = (double)GiB / (r[0].ms[0] * 1e-3) / 1e9;   /* 2(n-1)/n = 1 for n = 2 */
    fprintf(stderr, "  model allreduce 1KiB p50 %.1f us; 1GiB busbw %.1f GB/s (rank1 %.3f ms)\n",
            p50, busbw, r[1].ms[0]);
    CHECK_NEAR(p50, 273, 0.10);
    CHECK_NEAR(busbw, 105, 0.10);
    CHECK(r[0].ms[0] == r[1].ms[0]);
    teardown(r);
    HcclCommDestroy(comms[0]);
    HcclCommDestroy(comms[1]);
}

void test_hccl_errors(void)
{
    HcclComm comms[2];
    int32_t dup[2] = { 1, 1 }, bad[2] = { 0, 9 }, devs[2] = { 0, 1 };
    void *d0, *d1;
    char host[64];
    CHECK_RC(HcclCommInitAll(2, dup, comms), HCCL_E_PARA);
    CHECK_RC(HcclCommInitAll(2, bad, comms), HCCL_E_PARA);
    CHECK_RC(HcclCommInitAll(2, devs, comms), 0);
    CHECK_RC(aclrtMalloc(&d0, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    aclrtSetDevice(1);
    CHECK_RC(aclrtMalloc(&d1, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    aclrtSetDevice(0);
    CHECK_RC(HcclAllReduce(host, d0, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], NULL), HCCL_E_PTR);
    CHECK_RC(HcclAllReduce(d1, d1, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], NULL), HCCL_E_PTR);
    CHECK_MSG("device 0");
    CHECK_RC(HcclAllReduce(d0, d0, 17, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], NULL), HCCL_E_PTR);
    CHECK_RC(HcclAllReduce(d0, d0, 4, HCCL_DATA_TYPE_INT128, HCCL_REDUCE_SUM, comms[0], NULL),
             HCCL_E_NOT_SUPPORT);
    CHECK_RC(HcclAllReduce(d0, d0, 4, HCCL_DATA_TYPE_FP32, (HcclReduceOp)7, comms[0], NULL), HCCL_E_PARA);
    CHECK(strcmp(HcclGetErrorString(HCCL_E_INTERNAL), "internal error") == 0);
    CHECK(strcmp(HcclGetErrorString(HCCL_E_PARA), "parameter error") == 0);
    /* Unread failure texts pile up, newest on top, HCCL's with AscendCL's: a caller that does
     * not drain after an HCCL failure gets it with its next AscendCL error. */
    (void)aclGetRecentErrMsg();
    CHECK_RC(HcclAllReduce(d0, d0, 4, HCCL_DATA_TYPE_FP32, (HcclReduceOp)7, comms[0], NULL), HCCL_E_PARA);
    CHECK_RC(aclrtMemcpy(d0, 64, host, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    const char *both = aclGetRecentErrMsg();
    CHECK(both && strstr(both, "count is 0") && strstr(both, "reduce op 7"));
    CHECK(both && strstr(both, "count is 0") < strstr(both, "reduce op 7"));
    CHECK(aclGetRecentErrMsg() == NULL);
    aclrtFree(d0);
    aclrtFree(d1);
    HcclCommDestroy(comms[0]);
    HcclCommDestroy(comms[1]);
}

void test_hccl_timeout(void)
{
    HcclComm comms[2];
    int32_t devs[2] = { 0, 1 };
    struct rank r[2];
    CHECK_RC(use_profile("device 0 memory 1GiB\ndevice 1 memory 1GiB\n"
                         "link 0 1 HCCS bandwidth 50GB/s latency 10us\nhccl timeout 0.5s\n"), 0);
    CHECK_RC(HcclCommInitAll(2, devs, comms), 0);
    setup(r, comms, 64, false);
    for (int i = 0; i < 2; i++) {
        r[i].count = 16;
        r[i].type = HCCL_DATA_TYPE_INT32;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_ranks(r, 1);                          /* rank 1 never calls */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double waited = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK(r[0].rc == HCCL_E_TIMEOUT);
    CHECK(waited >= 0.5 && waited < 3);
    /* The group is still usable afterwards. */
    run_ranks(r, 2);
    CHECK(r[0].rc == 0 && r[1].rc == 0);
    /* HCCL_EXEC_TIMEOUT (seconds) overrides the profile. */
    setenv("HCCL_EXEC_TIMEOUT", "0.2", 1);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_ranks(&r[1], 1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    unsetenv("HCCL_EXEC_TIMEOUT");
    waited = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK(r[1].rc == HCCL_E_TIMEOUT && waited < 0.45);
    teardown(r);
    CHECK_RC(HcclCommDestroy(comms[0]), 0);
    CHECK_RC(HcclCommDestroy(comms[1]), 0);
    CHECK_RC(use_profile(NULL), 0);
}

/* Allgather: rank k's block lands at block k of every recv buffer; the time
 * is latency + total (n-1)/n / busbw, so busbw = algbw (n-1)/n approaches the
 * profile's figure for large messages (an assumption for the A3: 150 GB/s,
 * 270 us). */
void test_hccl_allgather(void)
{
    HcclComm comms[2];
    int32_t devs[2] = { 0, 1 };
    CHECK_RC(HcclCommInitAll(2, devs, comms), 0);
    struct rank r[2];
    size_t bytes = 64 * MiB;
    for (int i = 0; i < 2; i++) {
        memset(&r[i], 0, sizeof r[i]);
        r[i] = (struct rank){ .comm = comms[i], .dev = i, .count = bytes, .type = HCCL_DATA_TYPE_INT8,
                              .iters = 3, .gather = true };
        aclrtSetDevice(i);
        CHECK_RC(aclrtMalloc(&r[i].send, bytes, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        CHECK_RC(aclrtMalloc(&r[i].recv, 2 * bytes, ACL_MEM_MALLOC_HUGE_FIRST), 0);
        unsigned char *h = malloc(bytes);
        memset(h, 0x10 + i, bytes);
        CHECK_RC(aclrtMemcpy(r[i].send, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE), 0);
        free(h);
    }
    aclrtSetDevice(0);
    run_ranks(r, 2);
    for (int i = 0; i < 2; i++) {
        CHECK_RC(r[i].rc, 0);
        unsigned char got[2];
        for (int k = 0; k < 2; k++) {
            CHECK_RC(aclrtMemcpy(&got[k], 1, (char *)r[i].recv + (size_t)k * bytes + bytes / 2, 1,
                                 ACL_MEMCPY_DEVICE_TO_HOST), 0);
            CHECK(got[k] == 0x10 + k);
        }
    }
    double total = 2.0 * bytes, t = r[0].ms[2] * 1e-3;
    double busbw = total / t * (2 - 1) / 2 / 1e9;
    fprintf(stderr, "  model allgather 64MiB x2: %.3f ms, busbw %.1f GB/s\n", t * 1e3, busbw);
    CHECK_NEAR(t, 270e-6 + total / 2 / 150e9, 0.03);

    /* A recv buffer that cannot hold every rank's block is refused. */
    aclrtSetDevice(0);
    void *small;
    CHECK_RC(aclrtMalloc(&small, bytes, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    CHECK_RC(HcclAllGather(r[0].send, small, bytes, HCCL_DATA_TYPE_INT8, comms[0], NULL), HCCL_E_PTR);
    CHECK_MSG("HcclAllGather: recvBuf");
    aclrtFree(small);
    for (int i = 0; i < 2; i++) {
        aclrtFree(r[i].send);
        aclrtFree(r[i].recv);
        CHECK_RC(HcclCommDestroy(comms[i]), 0);
    }
}
