/*
 * reduce_loop.c - times the sim's allreduce reduction by itself: lw_reduce,
 * the function HcclAllReduce's last rank calls, linked in from the library's
 * objects (it is not exported).  Every rank has its own send and recv buffer
 * (as the agent's allreduce probe does) filled with random finite values, so
 * rounding and the data-dependent paths of the conversions are exercised.
 *
 *   reduce-loop [--type fp16|bf16] [--op sum|prod|max|min] [--ranks 2]
 *               [--mib 256] [--rounds 5] [--in-place]
 *
 * Prints each round's wall and CPU seconds and the medians; --mib is the
 * per-rank message (the defaults use 1 GiB: a send and a recv buffer a rank).
 */
#define _GNU_SOURCE
#include "internal.h"
#include "reduce.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int usage(void)
{
    fprintf(stderr, "usage: reduce-loop [--type fp16|bf16] [--op sum|prod|max|min] [--ranks N] "
                    "[--mib N] [--rounds N] [--in-place]\n");
    return 2;
}

int main(int argc, char **argv)
{
    static const char *ops[] = { "sum", "prod", "max", "min" };
    int type = HCCL_DATA_TYPE_FP16, op = HCCL_REDUCE_SUM, n = 2, rounds = 5;
    double mib = 256;
    bool in_place = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--in-place")) {
            in_place = true;
            continue;
        }
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--type") && (!strcmp(v, "fp16") || !strcmp(v, "bf16")))
            type = !strcmp(v, "fp16") ? HCCL_DATA_TYPE_FP16 : HCCL_DATA_TYPE_BFP16;
        else if (!strcmp(a, "--op")) {
            for (op = 0; op < 4 && strcmp(v, ops[op]); op++)
                ;
            if (op == 4)
                return usage();
        } else if (!strcmp(a, "--ranks") && (n = atoi(v)) >= 1 && n <= LW_MAX_DEVICES)
            ;
        else if (!strcmp(a, "--mib") && (mib = atof(v)) > 0)
            ;
        else if (!strcmp(a, "--rounds") && (rounds = atoi(v)) >= 1 && rounds <= 100)
            ;
        else
            return usage();
    }

    uint64_t count = (uint64_t)(mib * 1048576.0) / 2;
    void *send[LW_MAX_DEVICES], *recv[LW_MAX_DEVICES];
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (int r = 0; r < n; r++) {
        uint16_t *p = malloc(count * 2);
        send[r] = p;
        recv[r] = in_place ? p : malloc(count * 2);
        if (!p || !recv[r]) {
            fprintf(stderr, "reduce-loop: out of memory\n");
            return 1;
        }
        for (uint64_t i = 0; i < count; i++) {
            uint16_t h;
            do {                                          /* xorshift64; skip inf/nan */
                seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                h = (uint16_t)(seed >> 32);
            } while (type == HCCL_DATA_TYPE_FP16 ? (h & 0x7c00) == 0x7c00 : (h & 0x7f80) == 0x7f80);
            p[i] = h;
        }
        if (!in_place)
            memset(recv[r], 0, count * 2);                /* fault the pages in before timing */
    }

    printf("# lw_reduce %s %s, %d ranks, %.0f MiB each%s, %d rounds\n",
           type == HCCL_DATA_TYPE_FP16 ? "fp16" : "bf16", ops[op], n, mib,
           in_place ? " in place" : "", rounds);
    /* CPU seconds (all threads) as well: unlike wall time, other load on the
     * machine hardly changes them */
    double sec[100], cpu[100];
    for (int i = 0; i < rounds; i++) {
        double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        lw_reduce(send, recv, n, count, type, op);
        sec[i] = clock_s(CLOCK_MONOTONIC) - t0;
        cpu[i] = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        printf("round %d: %.3f s (%.3f s CPU)\n", i + 1, sec[i], cpu[i]);
    }
    qsort(sec, (size_t)rounds, sizeof *sec, cmp);
    qsort(cpu, (size_t)rounds, sizeof *cpu, cmp);
    int mid = rounds / 2;
    double med = rounds % 2 ? sec[mid] : (sec[mid - 1] + sec[mid]) / 2;
    double cmed = rounds % 2 ? cpu[mid] : (cpu[mid - 1] + cpu[mid]) / 2;
    printf("median_s=%.3f best_s=%.3f median_cpu_s=%.3f\n", med, sec[0], cmed);
    for (int r = 0; r < n; r++) {
        if (recv[r] != send[r])
            free(recv[r]);
        free(send[r]);
    }
    return 0;
}
