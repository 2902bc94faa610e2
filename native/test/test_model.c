/* test_model.c - modeled event times against the seeds' measured figures. */
#define _GNU_SOURCE
#include "check.h"
#include <sched.h>
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
