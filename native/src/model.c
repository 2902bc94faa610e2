/*
 * model.c - the timing model: seconds = (latency + bytes / bandwidth) * noise.
 *
 * The noise PRNG is per process and deterministically seeded so that test
 * figures are reproducible run to run; it only ever shifts a duration by
 * +-noise, which is what makes p50 vs p99 differ like on hardware.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <time.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static double uniform_pm1(void)   /* lock held: xorshift64* in [-1, 1] */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    uint64_t r = rng_state * 0x2545F4914F6CDD1DULL;
    return (double)(r >> 11) / (double)(1ULL << 53) * 2.0 - 1.0;
}

double lw_noise_factor(void)
{
    return 1.0 + lw.prof.noise * uniform_pm1();
}

double lw_path_seconds(struct lw_path p, double bytes)
{
    return (p.latency + bytes / p.bandwidth) * lw_noise_factor();
}

double lw_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool has_workload(int dev)
{
    struct lw_workload w;
    return dev >= 0 && lw_workloads(lw_physical(dev), &w, 1) > 0;
}

/* A real job shares the link and the HBM with the probe: while any device a
 * transfer touches is busy, the transfer gets only busy_share of the modeled
 * bandwidth.  This is what makes a probe that ignores busyness measure low. */
double lw_contention(int dev_a, int dev_b)
{
    return has_workload(dev_a) || has_workload(dev_b) ? lw.prof.busy_share : 1.0;
}
