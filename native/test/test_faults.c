/* test_faults.c - the control file: fail, hang, crash, link scale, corrupt. */
#define _GNU_SOURCE
#include "check.h"
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MiB (1024UL * 1024UL)

void test_fault_fail(void)
{
    uint32_t n;
    set_control("# comment\nfail aclrtGetDeviceCount 507899\nbogus line here\n");
    CHECK_RC(aclrtGetDeviceCount(&n), 507899);
    CHECK_MSG("injected fault: aclrtGetDeviceCount returned 507899");
    set_control("fail aclrtGetDeviceCount 107001 after 2\n");
    CHECK_RC(aclrtGetDeviceCount(&n), 0);
    CHECK_RC(aclrtGetDeviceCount(&n), 0);
    CHECK_RC(aclrtGetDeviceCount(&n), 107001);
    CHECK_RC(aclrtGetDeviceCount(&n), 107001);
    /* Editing other lines keeps the count of an unchanged line. */
    set_control("fail aclrtGetDeviceCount 107001 after 2\nfail HcclGetErrorString 4\n");
    CHECK_RC(aclrtGetDeviceCount(&n), 107001);
    CHECK(HcclGetErrorString(HCCL_E_TIMEOUT) == NULL);
    set_control(NULL);                   /* removing the file removes the fault */
    CHECK_RC(aclrtGetDeviceCount(&n), 0);
    CHECK(strcmp(HcclGetErrorString(HCCL_E_TIMEOUT), "timeout") == 0);
}

static void *hung_call(void *arg)
{
    void *p = NULL;
    aclrtSetDevice(0);
    *(int *)arg = aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtFree(p);
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void test_fault_hang(void)
{
    pthread_t t;
    int rc = -1;
    set_control("hang aclrtMalloc\n");
    double t0 = now_s();
    pthread_create(&t, NULL, hung_call, &rc);
    usleep(300 * 1000);
    CHECK(rc == -1);                     /* still blocked */
    set_control("\n");
    pthread_join(t, NULL);
    CHECK(rc == 0);
    CHECK(now_s() - t0 >= 0.3);
}

void test_fault_crash(void)
{
    set_control("crash aclrtCreateStream\n");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        aclrtStream s;
        aclrtSetDevice(0);
        aclrtCreateStream(&s);
        _exit(0);                        /* not reached */
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
    set_control(NULL);
}

void test_fault_link_scale(void)
{
    void *d0, *d1;
    peer_pair(&d0, &d1, 64 * MiB);
    double base = copy_gbps(d1, d0, 64 * MiB, NULL, 5);
    set_control("link 0 1 scale 0.5\n");
    double slow = copy_gbps(d1, d0, 64 * MiB, NULL, 5);
    double other = copy_gbps(d0, d1, 64 * MiB, NULL, 5);   /* directional */
    fprintf(stderr, "  link scale 0.5: 0->1 %.1f -> %.1f GB/s, 1->0 %.1f\n", base, slow, other);
    /* 64 MiB: 0.21 ms latency + 0.353 ms at full rate vs 0.706 ms at half */
    CHECK_NEAR(slow / base, 0.563 / 0.916, 0.05);
    CHECK_NEAR(other, base, 0.05);
    set_control(NULL);
    aclrtFree(d0);
    aclrtFree(d1);
}

void test_fault_corrupt(void)
{
    void *d;
    size_t n = 300 * 1024;
    unsigned char *h = malloc(n), *back = malloc(n);
    memset(h, 0x11, n);
    CHECK_RC(aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    set_control("corrupt aclrtMemcpy\n");
    CHECK_RC(aclrtMemcpy(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    set_control(NULL);
    CHECK_RC(aclrtMemcpy(back, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST), 0);
    int flipped = 0;
    for (size_t i = 0; i < n; i++)
        flipped += back[i] != 0x11;
    CHECK(back[0] != 0x11 && back[n - 1] != 0x11 && back[65536] != 0x11);
    CHECK(flipped == 6);                 /* 0, 64K, 128K, 192K, 256K and the last byte */
    aclrtFree(d);
    free(h);
    free(back);
}
