/* test_model.c - modeled event times against the seeds' measured figures. */
#define _GNU_SOURCE
#include "check.h"
#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdlib.h>

#define MiB (1024UL * 1024UL)
#define GiB (1024UL * MiB)

static void peer_both(void)
{
    aclrtSetDevice(1);
    aclrtDeviceEnablePeerAccess(0, 0);
    aclrtSetDevice(0);
    aclrtDeviceEnablePeerAccess(1, 0);
}

/* Seed 000: 0->1 p2p 4.7 / 116.5 / 182.4 GB/s for 1 MiB / 64 MiB / 1 GiB;
 * a device-local 1 GiB clone 621 GB/s. */
void test_model_p2p_local(void)
{
    void *d0, *d1;
    aclrtStream s;
    peer_both();
    CHECK_RC(aclrtMalloc(&d0, GiB, ACL_MEM_MALLOC_HUGE_FIRST_P2P), 0);
    aclrtSetDevice(1);
    CHECK_RC(aclrtMalloc(&d1, GiB, ACL_MEM_MALLOC_HUGE_FIRST_P2P), 0);
    aclrtSetDevice(0);
    CHECK_RC(aclrtCreateStream(&s), 0);
    double p1 = copy_gbps(d1, d0, MiB, s, 20);
    double p64 = copy_gbps(d1, d0, 64 * MiB, s, 20);
    double pg = copy_gbps(d1, d0, GiB, s, 1);
    double back = copy_gbps(d0, d1, 64 * MiB, s, 5);
    /* Device-local 1 GiB in place on device 1, whose pages are already
     * touched: the model only needs the size, and this spares the test
     * another GiB of page faults. */
    aclrtSetDevice(1);
    double lg = copy_gbps(d1, d1, GiB, NULL, 1);
    aclrtSetDevice(0);
    fprintf(stderr, "  model p2p 1MiB %.2f 64MiB %.1f 1GiB %.1f GB/s; 1->0 64MiB %.1f; local 1GiB %.1f\n",
            p1, p64, pg, back, lg);
    CHECK_NEAR(p1, 4.7, 0.10);
    CHECK_NEAR(p64, 116.5, 0.10);
    CHECK_NEAR(pg, 182.4, 0.10);
    CHECK_NEAR(back, 116.3, 0.10);
    CHECK_NEAR(lg, 621, 0.10);
    aclrtDestroyStream(s);
    aclrtFree(d0);
    aclrtFree(d1);
}

/* Seed 004: pinned ~58 / ~41 GB/s on every node; pageable depends on the
 * (CPU node, memory node) pair, 24.9 / 25.4 GB/s for node 0 / node 0. */
void test_model_host(void)
{
    void *d, *pin;
    size_t n = 64 * MiB;
    CHECK_RC(aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    CHECK_RC(aclrtMallocHost(&pin, n), 0);
    memset(pin, 1, n);
    double h2d = copy_gbps(d, pin, n, NULL, 9), d2h = copy_gbps(pin, d, n, NULL, 9);
    fprintf(stderr, "  model pinned 64MiB h2d %.1f d2h %.1f GB/s\n", h2d, d2h);
    CHECK_NEAR(h2d, 58, 0.10);
    CHECK_NEAR(d2h, 41, 0.10);

    char *reg = aligned_alloc(4096, n), *plain = malloc(n);
    memset(reg, 2, n);
    memset(plain, 3, n);
    CHECK_RC(aclrtHostRegisterV2(reg, n, ACL_HOST_REG_PINNED), 0);
    double rh2d = copy_gbps(d, reg, n, NULL, 5);
    CHECK_NEAR(rh2d, 58, 0.10);
    CHECK_RC(aclrtHostUnregister(reg), 0);
    double ph2d = copy_gbps(d, plain, n, NULL, 5), pd2h = copy_gbps(plain, d, n, NULL, 5);
    unsigned cpu, node;
    getcpu(&cpu, &node);
    fprintf(stderr, "  model registered h2d %.1f; pageable (cpu node %u) h2d %.1f d2h %.1f GB/s\n",
            rh2d, node, ph2d, pd2h);
    if (node == 0) {   /* the pages of a freshly touched buffer sit on the CPU's node */
        CHECK_NEAR(ph2d, 24.9, 0.10);
        CHECK_NEAR(pd2h, 25.4, 0.10);
    } else {
        CHECK(ph2d < h2d);
    }
    free(reg);
    free(plain);
    aclrtFreeHost(pin);
    aclrtFree(d);
}

void test_passthrough(void)
{
    void *d;
    setenv("LINKWATCH_SIM_TIMING", "passthrough", 1);
    CHECK_RC(use_profile(NULL), 0);
    aclrtSetDevice(0);
    char *h = malloc(16 * MiB);
    memset(h, 9, 16 * MiB);
    CHECK_RC(aclrtMalloc(&d, 16 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    double gbps = copy_gbps(d, h, 16 * MiB, NULL, 5);
    fprintf(stderr, "  passthrough 16MiB h2d %.2f GB/s (real memcpy)\n", gbps);
    CHECK(gbps > 0 && gbps < 1000);
    aclrtFree(d);
    free(h);
    unsetenv("LINKWATCH_SIM_TIMING");
    CHECK_RC(use_profile(NULL), 0);
}

/* Both directions at once on two streams of device 0, as linkwatch's
 * p2p_bidirectional probe times them: total bytes over the pair's wall time.
 * Seed 002's A3 card matrix gives ~541 GB/s both ways for ~329 one way (1.64);
 * the A3 profile assumes the same ratio for SIO.  Opposite copies one after
 * the other are not slowed. */
static double bidir_ratio(size_t bytes, double *one_way_gbps)
{
    void *d0, *d1;
    aclrtStream s1, s2;
    aclrtEvent start, other_done, end;
    peer_pair(&d0, &d1, bytes);
    CHECK_RC(aclrtCreateStream(&s1), 0);
    CHECK_RC(aclrtCreateStream(&s2), 0);
    aclrtCreateEvent(&start);
    aclrtCreateEvent(&other_done);
    aclrtCreateEvent(&end);
    double one = copy_gbps(d1, d0, bytes, s1, 3);
    double back = copy_gbps(d0, d1, bytes, s1, 3);
    CHECK_NEAR(back, one, 0.05);    /* sequential: each direction at full rate */
    double v[5];
    for (int i = 0; i < 5; i++) {
        float ms = 0;
        CHECK_RC(aclrtRecordEvent(start, s1), 0);
        CHECK_RC(aclrtStreamWaitEvent(s2, start), 0);
        CHECK_RC(aclrtMemcpyAsync(d1, bytes, d0, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s1), 0);
        CHECK_RC(aclrtMemcpyAsync(d0, bytes, d1, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s2), 0);
        CHECK_RC(aclrtRecordEvent(other_done, s2), 0);
        CHECK_RC(aclrtStreamWaitEvent(s1, other_done), 0);
        CHECK_RC(aclrtRecordEvent(end, s1), 0);
        CHECK_RC(aclrtSynchronizeStream(s1), 0);
        CHECK_RC(aclrtSynchronizeStream(s2), 0);
        CHECK_RC(aclrtEventElapsedTime(&ms, start, end), 0);
        v[i] = 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
    }
    double both = median(v, 5);
    aclrtDestroyEvent(start);
    aclrtDestroyEvent(other_done);
    aclrtDestroyEvent(end);
    aclrtDestroyStream(s1);
    aclrtDestroyStream(s2);
    aclrtFree(d0);
    aclrtFree(d1);
    *one_way_gbps = one;
    return both / one;
}

void test_model_bidirectional(void)
{
    double one;
    double ratio = bidir_ratio(128 * MiB, &one);
    fprintf(stderr, "  model p2p 128MiB one way %.1f GB/s, both ways %.2fx\n", one, ratio);
    /* 1.64 of the bandwidth, and the 0.21 ms latency overlaps too:
     * 2 (L + S/B) / (L + S/(0.82 B)) = 1.71 for 128 MiB over SIO. */
    CHECK_NEAR(ratio, 1.71, 0.03);

    /* The profile's knob: a full-duplex link moves twice as much both ways. */
    CHECK_RC(use_profile("device 0 memory 64GiB\ndevice 1 memory 64GiB\n"
                         "link 0 1 HCCS bandwidth 56GB/s latency 0.02ms\n"
                         "bidirectional 0 1 2\n"), 0);
    aclrtSetDevice(0);
    ratio = bidir_ratio(64 * MiB, &one);
    CHECK(one > 40 && one < 56);
    CHECK_NEAR(ratio, 2.0, 0.05);

    /* A wait on an event that was never recorded waits for nothing. */
    aclrtStream s;
    aclrtEvent e;
    CHECK_RC(aclrtCreateStream(&s), 0);
    CHECK_RC(aclrtCreateEvent(&e), 0);
    CHECK_RC(aclrtStreamWaitEvent(s, e), 0);
    CHECK_RC(aclrtStreamWaitEvent(s, (aclrtEvent)&e), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtStreamWaitEvent");
    aclrtDestroyEvent(e);
    aclrtDestroyStream(s);
}

/* Reads back byte 0 and the last byte of a device buffer. */
static void ends(void *d, size_t n, unsigned char out[2])
{
    unsigned char *back = malloc(n);
    CHECK_RC(aclrtMemcpy(back, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST), 0);
    out[0] = back[0];
    out[1] = back[n - 1];
    free(back);
}

/* A freed mapping handed out again: at a new address, zeroed, the old pointer
 * gone; the memory accounting is as for fresh memory. */
void test_reused_memory(void)
{
    size_t n = 4 * MiB, free0, total;
    void *d0, *d1, *again;
    unsigned char *h = malloc(n), got[2];
    peer_pair(&d0, &d1, n);
    memset(h, 7, n);
    CHECK_RC(aclrtMemcpy(d0, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    CHECK_RC(aclrtSetDevice(0), 0);
    CHECK_RC(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), 0);
    CHECK_RC(aclrtFree(d0), 0);
    CHECK_RC(aclrtMalloc(&again, n, ACL_MEM_MALLOC_HUGE_FIRST_P2P), 0);
    size_t free1;
    CHECK_RC(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total), 0);
    CHECK(free1 == free0);
    CHECK(again != d0);
    ends(again, n, got);
    CHECK(got[0] == 0 && got[1] == 0);
    CHECK_RC(aclrtFree(d0), ACL_ERROR_INVALID_PARAM);   /* the old pointer is not live */
    CHECK_RC(aclrtMemcpy(h, n, d0, n, ACL_MEMCPY_DEVICE_TO_HOST) == 0, 0);
    CHECK_RC(aclrtFree(again), 0);
    CHECK_RC(aclrtFree(d1), 0);
    free(h);
}

/* kB of AnonHugePages in the mapping of /proc/self/smaps that holds addr; -1 if none. */
static long huge_kb(const void *addr)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    long kb = -1;
    bool in = false;
    uintptr_t a = (uintptr_t)addr, lo, hi;
    while (f && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            in = a >= lo && a < hi;
        else if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
            break;
    }
    if (f)
        fclose(f);
    return kb;
}

/* Whether madvise(MADV_HUGEPAGE) reaches the kernel here: smaps then flags the
 * mapping "hg".  qemu-user drops the advice (and the kernel never sees it). */
static bool huge_advice_reaches_kernel(void)
{
    size_t n = 4 * MiB;
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return false;
    bool hg = false, in = false;
    if (madvise(p, n, MADV_HUGEPAGE) == 0) {
        FILE *f = fopen("/proc/self/smaps", "r");
        char line[512];
        uintptr_t a = (uintptr_t)p, lo, hi;
        while (f && fgets(line, sizeof line, f)) {
            if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
                in = a >= lo && a < hi;
            else if (in && strncmp(line, "VmFlags:", 8) == 0) {
                hg = strstr(line, " hg") != NULL;
                break;
            }
        }
        if (f)
            fclose(f);
    }
    munmap(p, n);
    return hg;
}

/* Device buffers of 2 MiB and more sit on transparent huge pages where the
 * kernel has them; in its "madvise" mode a plain mapping touched the same way
 * gets none, so the advice is what does it. */
void test_huge_pages(void)
{
    char mode[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f) {
        if (!fgets(mode, sizeof mode, f))
            mode[0] = 0;
        fclose(f);
    }
    if (!strstr(mode, "[always]") && !strstr(mode, "[madvise]")) {
        fprintf(stderr, "  (transparent huge pages off here: '%s'; nothing to check)\n", mode);
        return;
    }
    /* A huge page is a PMD: 2 MiB with 4 KiB base pages, 512 MiB with the 64 KiB
     * pages of many aarch64 kernels, where a 16 MiB buffer cannot hold one. */
    long pmd_kb = 2048;
    f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "r");
    if (f) {
        long bytes;
        if (fscanf(f, "%ld", &bytes) == 1 && bytes > 0)
            pmd_kb = bytes / 1024;
        fclose(f);
    }
    if (!huge_advice_reaches_kernel()) {
        fprintf(stderr, "  (madvise(MADV_HUGEPAGE) does not reach the kernel here (qemu-user?); nothing to check)\n");
        return;
    }
    size_t n = 16 * MiB;
    if ((long)(n / 1024) < 2 * pmd_kb) {
        fprintf(stderr, "  (huge pages are %ld KiB here; a %zu MiB buffer holds none; nothing to check)\n",
                pmd_kb, n / MiB);
        return;
    }
    void *d0, *d1;
    unsigned char *h = malloc(n);
    memset(h, 5, n);
    peer_pair(&d0, &d1, n);
    CHECK_RC(aclrtMemcpy(d0, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    CHECK(huge_kb(d0) >= pmd_kb);
    if (strstr(mode, "[madvise]")) {
        unsigned char *plain = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        CHECK(plain != MAP_FAILED);
        if (plain != MAP_FAILED) {
            memcpy(plain, h, n);
            CHECK(huge_kb(plain) == 0);
            munmap(plain, n);
        }
    }
    CHECK_RC(aclrtFree(d0), 0);
    CHECK_RC(aclrtFree(d1), 0);
    free(h);
}

/* A D2D copy that repeats the last one with no device memory written since is
 * not copied again (dst already holds the bytes), yet takes its modeled time;
 * any write in between (the source refilled, a collective, another copy, an
 * allocation) and a corrupt fault make it a real copy again. */
void test_repeated_copy(void)
{
    size_t n = 4 * MiB;
    void *d0, *d1;
    aclrtStream s;
    unsigned char *h = malloc(n), got[2];
    peer_pair(&d0, &d1, n);
    CHECK_RC(aclrtCreateStream(&s), 0);

    memset(h, 1, n);
    CHECK_RC(aclrtMemcpy(d0, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    CHECK_RC(aclrtMemcpyAsync(d1, n, d0, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), 0);
    memset(h, 2, n);
    CHECK_RC(aclrtMemcpy(d0, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), 0);   /* source refilled */
    CHECK_RC(aclrtMemcpyAsync(d1, n, d0, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), 0);
    CHECK_RC(aclrtMemcpyAsync(d1, n, d0, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), 0);   /* repeat */
    ends(d1, n, got);
    CHECK(got[0] == 2 && got[1] == 2);

    /* a copy the other way writes d0: the next 0->1 copies it */
    void *d0b;
    CHECK_RC(aclrtMalloc(&d0b, n, ACL_MEM_MALLOC_HUGE_FIRST_P2P), 0);
    memset(h, 3, n);
    CHECK_RC(aclrtMemcpy(d0b, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    CHECK_RC(aclrtMemcpyAsync(d1, n, d0b, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), 0);
    CHECK_RC(aclrtMemcpyAsync(d0, n, d1, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), 0);   /* d0 = 3 */
    CHECK_RC(aclrtMemcpyAsync(d1, n, d0, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), 0);
    ends(d1, n, got);
    CHECK(got[0] == 3 && got[1] == 3);

    /* a corrupt fault hits a repeat too, and the next clean repeat repairs dst */
    CHECK_RC(aclrtMemcpyAsync(d1, n, d0, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), 0);
    set_control("corrupt aclrtMemcpyAsync\n");
    CHECK_RC(aclrtMemcpyAsync(d1, n, d0, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), 0);
    set_control(NULL);
    ends(d1, n, got);
    CHECK(got[0] != 3);
    CHECK_RC(aclrtMemcpyAsync(d1, n, d0, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s), 0);
    ends(d1, n, got);
    CHECK(got[0] == 3 && got[1] == 3);

    /* repeats still take the model's time: 64 MiB 0->1 as in test_model_p2p_local */
    CHECK_RC(aclrtFree(d1), 0);
    CHECK_RC(aclrtFree(d0), 0);
    peer_pair(&d0, &d1, 64 * MiB);
    CHECK_NEAR(copy_gbps(d1, d0, 64 * MiB, s, 20), 116.5, 0.10);

    aclrtDestroyStream(s);
    aclrtFree(d0);
    aclrtFree(d1);
    aclrtFree(d0b);
    free(h);
}
