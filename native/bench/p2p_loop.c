/*
 * p2p_loop.c - the agent's p2p measurement as a bare C loop over the same
 * sim calls, so the Java agent's figure can be compared against it (run with
 * LINKWATCH_SIM_TIMING=passthrough: then both time the real memcpy and any
 * gap is the agent's own overhead).
 *
 *   p2p-loop [--sizes 1MiB,64MiB,256MiB] [--warmup 5] [--iterations 20]
 */
#include "linkwatch_sim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call) do { int rc_ = (call); if (rc_) { const char *m_ = aclGetRecentErrMsg(); \
    fprintf(stderr, "p2p-loop: %s failed: %d %s\n", #call, rc_, m_ ? m_ : ""); exit(1); } } while (0)

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    double mul = 1;
    if (!strcmp(end, "KiB")) mul = 1024.0;
    else if (!strcmp(end, "MiB")) mul = 1048576.0;
    else if (!strcmp(end, "GiB")) mul = 1073741824.0;
    else if (!strcmp(end, "KB")) mul = 1e3;
    else if (!strcmp(end, "MB")) mul = 1e6;
    else if (!strcmp(end, "GB")) mul = 1e9;
    else if (*end && strcmp(end, "B")) {
        fprintf(stderr, "p2p-loop: bad size '%s'\n", s);
        exit(2);
    }
    if (end == s || v <= 0) {
        fprintf(stderr, "p2p-loop: bad size '%s'\n", s);
        exit(2);
    }
    return (size_t)(v * mul);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    char sizes[512] = "1MiB,64MiB,256MiB";
    int warmup = 5, iters = 20;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc)
            snprintf(sizes, sizeof sizes, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
            warmup = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
            iters = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: p2p-loop [--sizes 1MiB,64MiB,256MiB] [--warmup N] [--iterations N]\n");
            return 2;
        }
    }
    if (iters < 1 || warmup < 0) {
        fprintf(stderr, "p2p-loop: iterations must be >= 1 and warmup >= 0\n");
        return 2;
    }
    size_t list[32], max = 0;
    int nsizes = 0;
    for (char *save, *tok = strtok_r(sizes, ",", &save); tok && nsizes < 32; tok = strtok_r(NULL, ",", &save)) {
        list[nsizes] = parse_size(tok);
        if (list[nsizes] > max)
            max = list[nsizes];
        nsizes++;
    }

    void *src, *dst;
    aclrtStream s;
    aclrtEvent start, end;
    CK(aclInit(NULL));
    CK(aclrtSetDevice(1));
    CK(aclrtDeviceEnablePeerAccess(0, 0));
    CK(aclrtMalloc(&dst, max, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    CK(aclrtSetDevice(0));
    CK(aclrtDeviceEnablePeerAccess(1, 0));
    CK(aclrtMalloc(&src, max, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    memset(src, 0x3c, max);   /* touch the pages so the first copies don't pay for faults */
    memset(dst, 0, max);
    CK(aclrtCreateStream(&s));
    CK(aclrtCreateEvent(&start));
    CK(aclrtCreateEvent(&end));

    double *gbps = malloc(sizeof *gbps * (size_t)iters);
    printf("# p2p 0->1, median of %d after %d warm-up, timing %s\n", iters, warmup,
           getenv("LINKWATCH_SIM_TIMING") ? getenv("LINKWATCH_SIM_TIMING") : "profile");
    for (int k = 0; k < nsizes; k++) {
        size_t n = list[k];
        for (int i = 0; i < warmup + iters; i++) {
            float ms = 0;
            CK(aclrtRecordEvent(start, s));
            CK(aclrtMemcpyAsync(dst, n, src, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
            CK(aclrtRecordEvent(end, s));
            CK(aclrtSynchronizeStream(s));
            CK(aclrtEventElapsedTime(&ms, start, end));
            if (i >= warmup)
                gbps[i - warmup] = ms > 0 ? (double)n / (ms * 1e-3) / 1e9 : 0;
        }
        qsort(gbps, (size_t)iters, sizeof *gbps, cmp);
        double med = iters % 2 ? gbps[iters / 2] : (gbps[iters / 2 - 1] + gbps[iters / 2]) / 2;
        printf("size_bytes=%zu median_gbps=%.2f\n", n, med);
    }
    free(gbps);
    CK(aclrtDestroyEvent(start));
    CK(aclrtDestroyEvent(end));
    CK(aclrtDestroyStream(s));
    CK(aclrtFree(src));
    CK(aclrtFree(dst));
    CK(aclFinalize());
    return 0;
}
