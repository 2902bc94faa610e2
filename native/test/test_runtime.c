/* test_runtime.c - init, devices, memory registry, copies, peer access, events. */
#include "check.h"
#include <pthread.h>
#include <stdlib.h>

#define MiB (1024UL * 1024UL)

void test_init_and_devices(void)
{
    uint32_t n = 0;
    int32_t dev = -1, phy = -1;
    uint64_t topo = 0;
    CHECK_RC(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK_MSG("aclInit");
    CHECK(aclGetRecentErrMsg() == NULL);           /* read clears */
    CHECK_RC(aclrtGetDeviceCount(&n), 0);
    CHECK(n == 2);
    CHECK_RC(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_MSG("aclrtSetDevice: invalid device id 2");
    CHECK_RC(aclrtSetDevice(1), 0);
    CHECK_RC(aclrtGetDevice(&dev), 0);
    CHECK(dev == 1);
    CHECK_RC(aclrtResetDevice(1), 0);
    CHECK(aclrtGetSocName() && strcmp(aclrtGetSocName(), "Ascend910_9382") == 0);
    CHECK_RC(aclrtGetPhyDevIdByLogicDevId(1, &phy), 0);
    CHECK(phy == 3);
    CHECK_RC(aclrtGetPhyDevIdByLogicDevId(7, &phy), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RC(aclrtGetDevicesTopo(0, 1, &topo), 0);
    CHECK(topo == ACL_RT_DEVS_TOPOLOGY_SIO);
    CHECK_RC(aclrtGetDevicesTopo(0, 0, &topo), ACL_ERROR_INVALID_PARAM);
    CHECK(strcmp(linkwatch_sim_version(), "linkwatch-sim 0.1") == 0);
    CHECK(strcmp(linkwatch_sim_link_name(1, 0), "SIO") == 0);
    CHECK_RC(aclFinalize(), 0);
    CHECK_RC(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    CHECK_RC(aclrtGetDeviceCount(&n), ACL_ERROR_UNINITIALIZE);
    CHECK(aclrtGetSocName() == NULL);
    CHECK_RC(aclInit(NULL), 0);
}

void test_memory(void)
{
    void *p = NULL, *q = NULL, *h = NULL;
    size_t fr0, tot, fr1;
    CHECK_RC(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtMalloc: size is 0");
    CHECK_RC(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtGetMemInfo(ACL_HBM_MEM, &fr0, &tot), 0);
    CHECK(tot == 64UL << 30 && fr0 == tot);
    CHECK_RC(aclrtMalloc(&p, 3 * MiB + 5, ACL_MEM_MALLOC_HUGE_FIRST_P2P), 0);
    CHECK_RC(aclrtGetMemInfo(ACL_HBM_MEM, &fr1, &tot), 0);
    CHECK(fr0 - fr1 == 3 * MiB + 5);
    CHECK_RC(aclrtMalloc(&q, 64UL << 30, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    CHECK_MSG("out of device memory");
    CHECK_RC(aclrtFree((char *)p + 100), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("not its start");
    CHECK_RC(aclrtFree(p), 0);
    CHECK_RC(aclrtFree(p), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("already freed");
    int x;
    CHECK_RC(aclrtFree(&x), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtGetMemInfo(ACL_HBM_MEM, &fr1, &tot), 0);
    CHECK(fr1 == tot);
    /* Host memory does not count against the device. */
    CHECK_RC(aclrtMallocHost(&h, MiB), 0);
    CHECK(((uintptr_t)h & 63) == 0);
    CHECK_RC(aclrtGetMemInfo(ACL_HBM_MEM, &fr1, &tot), 0);
    CHECK(fr1 == tot);
    CHECK_RC(aclrtFree(h), ACL_ERROR_INVALID_PARAM);   /* wrong kind */
    CHECK_RC(aclrtFreeHost(h), 0);
    CHECK_RC(aclrtFreeHost(h), ACL_ERROR_INVALID_PARAM);
    /* Registered ranges: 4 KiB alignment and the PINNED flag are required. */
    char *buf = aligned_alloc(4096, 8192);
    CHECK_RC(aclrtHostRegisterV2(buf + 8, 4096, ACL_HOST_REG_PINNED), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("4 KiB aligned");
    CHECK_RC(aclrtHostRegisterV2(buf, 8192, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtHostRegisterV2(buf, 8192, ACL_HOST_REG_PINNED | ACL_HOST_REG_MAPPED), 0);
    CHECK_RC(aclrtHostRegisterV2(buf, 4096, ACL_HOST_REG_PINNED), ACL_ERROR_INVALID_PARAM);
    CHECK(linkwatch_sim_live_allocations() == 1);
    CHECK_RC(aclrtHostUnregister(buf), 0);
    CHECK_RC(aclrtHostUnregister(buf), ACL_ERROR_INVALID_PARAM);
    free(buf);
    CHECK(linkwatch_sim_live_allocations() == 0);
}

void test_copies(void)
{
    void *d0, *d0b;
    size_t n = 4096;
    unsigned char *h = malloc(2 * MiB), *back = calloc(1, 2 * MiB);
    for (size_t i = 0; i < 2 * MiB; i++)
        h[i] = (unsigned char)(i * 7 + 1);
    CHECK_RC(aclrtMalloc(&d0, 2 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    CHECK_RC(aclrtMalloc(&d0b, 2 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    CHECK_RC(aclrtMemcpy(d0, 2 * MiB, h, 2 * MiB, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    /* Offsets inside an allocation resolve to it (registry lookup). */
    CHECK_RC(aclrtMemcpy((char *)d0b + 100, n, (char *)d0 + 200, n, ACL_MEMCPY_DEVICE_TO_DEVICE), 0);
    CHECK_RC(aclrtMemcpy(back, n, (char *)d0b + 100, n, ACL_MEMCPY_DEVICE_TO_HOST), 0);
    CHECK(memcmp(back, h + 200, n) == 0);
    CHECK_RC(aclrtMemcpyAsync(back, 2 * MiB, d0, 2 * MiB, ACL_MEMCPY_DEVICE_TO_HOST, NULL), 0);
    CHECK(memcmp(back, h, 2 * MiB) == 0);
    /* Argument checks. */
    CHECK_RC(aclrtMemcpyAsync(d0, 4096, h, MiB, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("aclrtMemcpyAsync: count 1048576 > destMax 4096");
    CHECK_RC(aclrtMemcpy(d0, n, h, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("count is 0");
    CHECK_RC(aclrtMemcpy(NULL, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtMemcpy(d0, n, NULL, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtMemcpy(d0, n, h, n, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("kind 9");
    CHECK_RC(aclrtMemcpy(back, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("dst");
    CHECK_RC(aclrtMemcpy(back, n, h, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("src");
    CHECK_RC(aclrtMemcpy((char *)d0 + 2 * MiB - 10, 20, h, 20, ACL_MEMCPY_HOST_TO_DEVICE),
             ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("runs past");
    CHECK_RC(aclrtMemcpyAsync(d0, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE, (aclrtStream)h), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("not a live stream");
    /* H2H and DEFAULT kinds are inferred. */
    CHECK_RC(aclrtMemcpy(back, n, h + 1, n, ACL_MEMCPY_HOST_TO_HOST), 0);
    CHECK(memcmp(back, h + 1, n) == 0);
    /* Stricter than a plain memcpy, as the runtime is: no asynchronous copy inside the host
     * (by kind or by addresses), and device-to-device async copies on 64-byte boundaries only;
     * the synchronous copy at an odd offset above stays allowed. */
    CHECK_RC(aclrtMemcpyAsync(back, n, h, n, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_MSG("host-to-host copies cannot be asynchronous");
    CHECK_RC(aclrtMemcpyAsync(back, n, h, n, ACL_MEMCPY_DEFAULT, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_RC(aclrtMemcpyAsync((char *)d0b + 100, n, (char *)d0 + 192, n, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL),
             ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("64-byte-aligned");
    CHECK_RC(aclrtMemcpyAsync((char *)d0b + 128, n, (char *)d0 + 8, n, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL),
             ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtMemcpyAsync((char *)d0b + 128, n, (char *)d0 + 192, n, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL), 0);
    CHECK_RC(aclrtSynchronizeStream(NULL), 0);
    CHECK_RC(aclrtFree(d0), 0);
    CHECK_RC(aclrtFree(d0b), 0);
    free(h);
    free(back);
}

void test_peer_access(void)
{
    void *d0, *d1;
    int32_t can = -1;
    char src[256], dst[256];
    memset(src, 0x5a, sizeof src);
    CHECK_RC(aclrtDeviceCanAccessPeer(&can, 0, 1), 0);
    CHECK(can == 1);
    CHECK_RC(aclrtMalloc(&d0, 256, ACL_MEM_MALLOC_HUGE_FIRST_P2P), 0);
    CHECK_RC(aclrtSetDevice(1), 0);
    CHECK_RC(aclrtMalloc(&d1, 256, ACL_MEM_MALLOC_HUGE_FIRST_P2P), 0);
    CHECK_RC(aclrtMemcpy(d0, 256, src, 256, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    CHECK_RC(aclrtMemcpy(d1, 256, d0, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("peer access from device 0 to device 1 is not enabled");
    CHECK_RC(aclrtDeviceEnablePeerAccess(0, 1), ACL_ERROR_INVALID_PARAM);   /* flags must be 0 */
    CHECK_RC(aclrtDeviceEnablePeerAccess(0, 0), 0);                         /* 1 -> 0 only */
    CHECK_RC(aclrtMemcpy(d1, 256, d0, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtSetDevice(0), 0);
    CHECK_RC(aclrtDeviceEnablePeerAccess(1, 0), 0);
    CHECK_RC(aclrtMemcpy(d1, 256, d0, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), 0);
    CHECK_RC(aclrtMemcpy(dst, 256, d1, 256, ACL_MEMCPY_DEVICE_TO_HOST), 0);
    CHECK(memcmp(src, dst, 256) == 0);
    CHECK_RC(aclrtDeviceDisablePeerAccess(1), 0);
    CHECK_RC(aclrtMemcpy(d1, 256, d0, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM);  /* self */
    CHECK_RC(aclrtFree(d0), 0);
    CHECK_RC(aclrtFree(d1), 0);
}

/* arg: { stream, int *rc }: tries to destroy the stream on a thread with no current device. */
static void *destroy_stream_elsewhere(void *arg)
{
    void **a = arg;
    *(int *)a[1] = aclrtDestroyStream(a[0]);
    return NULL;
}

void test_events(void)
{
    aclrtStream s;
    aclrtEvent a, b, c;
    float ms = -1;
    CHECK_RC(aclrtCreateStream(&s), 0);
    CHECK_RC(aclrtCreateEvent(&a), 0);
    CHECK_RC(aclrtCreateEventWithFlag(&b, ACL_EVENT_TIME_LINE), 0);
    CHECK_RC(aclrtCreateEventWithFlag(&c, 0x1000), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtRecordEvent(a, s), 0);
    CHECK_RC(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("never recorded");
    CHECK_RC(aclrtRecordEvent(b, s), 0);
    CHECK_RC(aclrtSynchronizeEvent(b), 0);
    CHECK_RC(aclrtEventElapsedTime(&ms, a, b), 0);
    CHECK(ms == 0.0f);                         /* nothing ran on the stream */
    CHECK_RC(aclrtSynchronizeStreamWithTimeout(s, 1000), 0);
    CHECK_RC(aclrtSynchronizeDevice(), 0);
    CHECK_RC(aclrtDestroyEvent(a), 0);
    CHECK_RC(aclrtDestroyEvent(a), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtDestroyEvent(b), 0);
    /* A stream is destroyed in its own device's context: with device 1 current, device 0's
     * stream stays (107003), as on a thread with no device current (107002). */
    CHECK_RC(aclrtSetDevice(1), 0);
    CHECK_RC(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CONTEXT);
    CHECK_MSG("belongs to device 0 but device 1 is current");
    pthread_t other;
    int other_rc = 0;
    pthread_create(&other, NULL, destroy_stream_elsewhere, (void *[]){ s, &other_rc });
    pthread_join(other, NULL);
    CHECK(other_rc == ACL_ERROR_RT_CONTEXT_NULL);
    CHECK_RC(aclrtSetDevice(0), 0);
    CHECK_RC(aclrtDestroyStream(s), 0);
    CHECK_RC(aclrtDestroyStream(s), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtSynchronizeStream(s), ACL_ERROR_INVALID_PARAM);
}

void test_live_counters_zero(void)
{
    int64_t c[6];
    linkwatch_sim_live_counts(c);
    for (int i = 0; i < 6; i++)
        CHECK(c[i] == 0);
    CHECK(linkwatch_sim_live_allocations() == 0);
}
