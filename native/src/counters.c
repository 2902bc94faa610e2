/*
 * counters.c - live-object counters, so tests (and the agent's leak checks)
 * can prove that every allocation, stream, event and comm was released.
 */
#include "internal.h"

static atomic_llong counts[LW_CNT_N];

void lw_count(int which, int delta)
{
    atomic_fetch_add(&counts[which], delta);
}

int64_t linkwatch_sim_live_allocations(void)
{
    int64_t sum = 0;
    for (int i = 0; i < LW_CNT_N; i++)
        sum += atomic_load(&counts[i]);
    return sum;
}

void linkwatch_sim_live_counts(int64_t out[6])
{
    for (int i = 0; i < LW_CNT_N; i++)
        out[i] = atomic_load(&counts[i]);
}

const char *linkwatch_sim_version(void)
{
    return "linkwatch-sim 0.1";
}
