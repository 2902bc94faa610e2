/*
 * hostnode.c - which NUMA node the calling CPU and a host buffer are on.
 *
 * The pageable-copy rate depends on both (seed 004: node numbers of CPU and
 * memory differ on real machines), so the buffer's node is looked up, not
 * assumed.  move_pages is refused by default container seccomp profiles, so
 * /proc/self/numa_maps (readable without privileges) is the fallback.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int lw_cpu_node(void)
{
    unsigned cpu = 0, node = 0;
    if (getcpu(&cpu, &node) != 0)
        return 0;
    return (int)node;
}

/* Start address of the /proc/self/maps VMA that contains addr, or 0. */
static unsigned long vma_start(uintptr_t addr)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return 0;
    char line[512];
    unsigned long lo, hi, found = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && addr >= lo && addr < hi) {
            found = lo;
            break;
        }
    }
    fclose(f);
    return found;
}

/* Node holding most of the VMA's pages according to numa_maps, or -1. */
static int numa_maps_node(uintptr_t addr)
{
    unsigned long start = vma_start(addr);
    if (!start)
        return -1;
    FILE *f = fopen("/proc/self/numa_maps", "r");
    if (!f)
        return -1;
    char line[4096];
    int best = -1;
    long best_pages = 0;
    while (fgets(line, sizeof line, f)) {
        char *end;
        if (strtoul(line, &end, 16) != start || *end != ' ')
            continue;
        /* Tokens are matched by prefix, never by position (policy strings may hold spaces). */
        for (char *save, *tok = strtok_r(end, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
            int node;
            long pages;
            if (sscanf(tok, "N%d=%ld", &node, &pages) == 2 && pages > best_pages) {
                best = node;
                best_pages = pages;
            }
        }
        break;
    }
    fclose(f);
    return best;
}

int lw_mem_node(const void *addr, int fallback)
{
    long pg = sysconf(_SC_PAGESIZE);
    void *page = (void *)((uintptr_t)addr & ~(uintptr_t)(pg - 1));
    int status = -1;
    if (syscall(SYS_move_pages, 0, 1UL, &page, NULL, &status, 0) == 0 && status >= 0)
        return status;
    int node = numa_maps_node((uintptr_t)addr);
    return node >= 0 ? node : fallback;
}
