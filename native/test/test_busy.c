/* test_busy.c - `busy` control lines: DCMI readings, memory, and contention. */
#define _GNU_SOURCE
#include "check.h"
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MiB (1024UL * 1024UL)

static int procs(int card, int die, struct dcmi_proc_mem_info *info)
{
    int n = -1;
    int rc = dcmi_get_device_resource_info(card, die, info, &n);
    return rc ? rc : n;
}

void test_busy_dcmi(void)
{
    struct dcmi_proc_mem_info info[DCMI_MAX_PROC_NUM];
    unsigned util = 99;
    int card = -1, dev = -1;
    CHECK_RC(dcmi_init(), 0);
    CHECK_RC(dcmi_get_card_id_device_id_from_logicid(&card, &dev, 1), 0);
    CHECK(card == 0 && dev == 1);                       /* two dies per card, as on an A3 */
    CHECK_RC(dcmi_get_card_id_device_id_from_logicid(&card, &dev, 7), -8001);

    set_control(NULL);
    aclrtResetDevice(1);
    CHECK_RC(procs(0, 1, info), 0);                        /* idle, not held by us */
    CHECK_RC(dcmi_get_device_utilization_rate(0, 1, 2, &util), 0);
    CHECK(util == 0);

    set_control("busy 1 pid 4242 util 80 memory 2147483648\n");
    CHECK_RC(procs(0, 1, info), 1);
    CHECK(info[0].proc_id == 4242 && info[0].proc_mem_usage == 2147483648UL);
    CHECK_RC(dcmi_get_device_utilization_rate(0, 1, 2, &util), 0);
    CHECK(util == 80);
    CHECK_RC(dcmi_get_device_utilization_rate(0, 1, 13, &util), 0);
    CHECK(util == 80);
    CHECK_RC(dcmi_get_device_utilization_rate(0, 1, 5, &util), -8255);   /* not on an A3 */
    /* Device 0 has no workload; only this test process, which holds it, is listed. */
    CHECK_RC(procs(0, 0, info), 1);
    CHECK(info[0].proc_id == (int)getpid());

    /* A workload whose process is not visible: utilization only. */
    set_control("busy 1 util 30\n");
    CHECK_RC(procs(0, 1, info), 0);
    CHECK_RC(dcmi_get_device_utilization_rate(0, 1, 10, &util), 0);
    CHECK(util == 30);

    /* The caller itself is listed while it holds the device. */
    set_control(NULL);
    void *d;
    aclrtSetDevice(1);
    CHECK_RC(aclrtMalloc(&d, 4 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    CHECK_RC(procs(0, 1, info), 1);
    CHECK(info[0].proc_id == (int)getpid() && info[0].proc_mem_usage >= 4 * MiB);
    aclrtFree(d);
    aclrtResetDevice(1);
    aclrtSetDevice(0);

    set_control("fail dcmi_get_device_resource_info -8013\n");
    CHECK_RC(procs(0, 1, info), -8013);
    set_control("busy x pid 1\nbusy 1 pid -3\nbusy 1 util 101\nbusy 1 color red\n");
    CHECK_RC(procs(0, 1, info), 0);                        /* malformed lines are ignored */
    set_control(NULL);
}

void test_busy_memory_and_contention(void)
{
    size_t free0, total;
    void *d0, *d1;
    aclrtSetDevice(0);
    CHECK_RC(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), 0);
    set_control("busy 0 pid 7 memory 1073741824\n");
    size_t free1;
    CHECK_RC(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total), 0);
    CHECK(free0 - free1 == 1073741824UL);
    set_control(NULL);

    peer_pair(&d0, &d1, 64 * MiB);
    double idle = copy_gbps(d1, d0, 64 * MiB, NULL, 5);
    set_control("busy 1 pid 4242 util 80\n");
    double busy = copy_gbps(d1, d0, 64 * MiB, NULL, 5);
    double local0 = copy_gbps(d0, d0, 64 * MiB, NULL, 3);   /* device 0 is not busy */
    set_control(NULL);
    double again = copy_gbps(d1, d0, 64 * MiB, NULL, 5);
    fprintf(stderr, "  busy device 1: 0->1 64MiB %.1f -> %.1f GB/s, idle again %.1f\n", idle, busy,
            again);
    /* 64 MiB: 0.21 ms latency + 0.353 ms at the full rate vs 0.706 ms at half */
    CHECK_NEAR(busy / idle, 0.563 / 0.916, 0.05);
    CHECK_NEAR(again, idle, 0.05);
    CHECK(local0 > 300);
    aclrtFree(d0);
    aclrtFree(d1);
}

/* `pace`: copies take wall time too, and two processes copying on one device
 * at once each get half of it, as two measurements at once do on hardware
 * (what keeps `linkwatch check` and the agent's probes apart matters).  A
 * forked child copies 0->1 for about a second; this process's copies meanwhile
 * measure low, and full again once it has exited. */
void test_busy_paced_sharing(void)
{
    void *d0, *d1;
    peer_pair(&d0, &d1, 64 * MiB);
    double alone = copy_gbps(d1, d0, 64 * MiB, NULL, 3);
    /* 64 MiB at ~110 GB/s is ~0.6 ms modeled: x100 paced, ~60 ms of wall time */
    set_control("pace 100\n");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double paced = copy_gbps(d1, d0, 64 * MiB, NULL, 3);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK_NEAR(paced, alone, 0.05);                  /* alone, pacing changes no figure */
    CHECK(wall > 0.1);                               /* ...but takes wall time */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 16; i++)                 /* ~1 s of copies on devices 0 and 1 */
            aclrtMemcpy(d1, 64 * MiB, d0, 64 * MiB, ACL_MEMCPY_DEVICE_TO_DEVICE);
        _exit(0);
    }
    struct timespec wait = { 0, 150 * 1000 * 1000 };
    nanosleep(&wait, NULL);
    double shared = copy_gbps(d1, d0, 64 * MiB, NULL, 3);
    int status = -1;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    double after = copy_gbps(d1, d0, 64 * MiB, NULL, 3);
    set_control(NULL);
    fprintf(stderr, "  paced 0->1 64MiB alone %.1f GB/s, beside another process %.1f, after %.1f\n",
            alone, shared, after);
    CHECK(shared < 0.75 * alone);                    /* at most half the bandwidth, plus latency */
    CHECK_NEAR(after, alone, 0.05);
    aclrtFree(d0);
    aclrtFree(d1);
}
