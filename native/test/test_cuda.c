/* test_cuda.c - the CUDA face: driver API, NVML, NCCL.
 *
 * The driver API has no finalize, so each test runs in a fork of the runner,
 * which has never called cuInit: every test starts from a process the CUDA
 * face has not seen, with its own environment (CUDA_VISIBLE_DEVICES, profile).
 * The runner's aclInit is inherited, which lets the tests check that the two
 * faces do not touch each other. */
#define _GNU_SOURCE
#include "check.h"
#include "linkwatch_sim_cuda.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MiB (1024UL * 1024UL)

/* Runs body in a child; its failures (or its death) count here. */
static void in_child(const char *name, void (*body)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        check_failures = 0;
        body();
        fflush(NULL);
        _exit(check_failures ? 1 : 0);   /* no destructors: the runner's exit hold is its own */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        check_failures++;
        fprintf(stderr, "  FAIL %s: child %s\n", name,
                WIFEXITED(status) ? "reported failures" : "was killed");
    }
}

static CUcontext retain(int dev)
{
    CUcontext c = NULL;
    CHECK_RC(cuDevicePrimaryCtxRetain(&c, dev), CUDA_SUCCESS);
    return c;
}

/* Modeled GB/s of one async copy between two events on s (timing events). */
static double timed_gbps(CUresult (*run)(void *), void *arg, size_t bytes, CUstream s, int iters)
{
    CUevent a, b;
    double v[16];
    CHECK_RC(cuEventCreate(&a, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    CHECK_RC(cuEventCreate(&b, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    for (int i = 0; i < iters; i++) {
        float ms = 0;
        CHECK_RC(cuEventRecord(a, s), CUDA_SUCCESS);
        CHECK_RC(run(arg), CUDA_SUCCESS);
        CHECK_RC(cuEventRecord(b, s), CUDA_SUCCESS);
        CHECK_RC(cuEventSynchronize(b), CUDA_SUCCESS);
        CHECK_RC(cuEventElapsedTime(&ms, a, b), CUDA_SUCCESS);
        v[i] = (double)bytes / (ms * 1e-3) / 1e9;
    }
    cuEventDestroy_v2(a);
    cuEventDestroy_v2(b);
    return median(v, iters);
}

/* ---- init, devices, contexts, error texts ---- */

static void init_devices(void)
{
    int n = -1, version = 0;
    CUdeviceptr p = 0;
    /* Everything but the version and the error texts needs cuInit. */
    CHECK_RC(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
    CHECK_RC(cuMemAlloc_v2(&p, 4096), CUDA_ERROR_NOT_INITIALIZED);
    CHECK_RC(cuCtxSetCurrent(NULL), CUDA_ERROR_NOT_INITIALIZED);
    CHECK_RC(cuDriverGetVersion(&version), CUDA_SUCCESS);
    CHECK(version == 12080);
    CHECK_RC(cuInit(1), CUDA_ERROR_INVALID_VALUE);
    CHECK_RC(cuInit(0), CUDA_SUCCESS);
    CHECK_RC(cuInit(0), CUDA_SUCCESS);                   /* again: nothing happens */

    /* The built-in default: hgx-h200. */
    CHECK_RC(cuDeviceGetCount(&n), CUDA_SUCCESS);
    CHECK(n == 8);
    char name[64], bus[32];
    CHECK_RC(cuDeviceGetName(name, sizeof name, 7), CUDA_SUCCESS);
    CHECK(strcmp(name, "NVIDIA H200") == 0);
    CHECK_RC(cuDeviceGetName(name, 7, 0), CUDA_SUCCESS);   /* cut like the driver */
    CHECK(strcmp(name, "NVIDIA") == 0);
    size_t total = 0;
    CHECK_RC(cuDeviceTotalMem_v2(&total, 3), CUDA_SUCCESS);
    CHECK(total == 143771UL * MiB);
    CHECK_RC(cuDeviceGetPCIBusId(bus, sizeof bus, 0), CUDA_SUCCESS);
    CHECK(strcmp(bus, "0000:18:00.0") == 0);
    CHECK_RC(cuDeviceGetPCIBusId(bus, sizeof bus, 7), CUDA_SUCCESS);
    CHECK(strcmp(bus, "0000:DB:00.0") == 0);
    CUdevice d = -1;
    CHECK_RC(cuDeviceGet(&d, 5), CUDA_SUCCESS);
    CHECK(d == 5);
    CHECK_RC(cuDeviceGet(&d, 8), CUDA_ERROR_INVALID_DEVICE);
    CHECK_RC(cuDeviceTotalMem_v2(&total, -1), CUDA_ERROR_INVALID_DEVICE);
    int can = -1;
    CHECK_RC(cuDeviceCanAccessPeer(&can, 0, 7), CUDA_SUCCESS);
    CHECK(can == 1);
    CHECK_RC(cuDeviceCanAccessPeer(&can, 2, 2), CUDA_SUCCESS);
    CHECK(can == 0);

    /* No current context: 201 for whatever acts in one. */
    CUstream s;
    size_t fr;
    CHECK_RC(cuMemAlloc_v2(&p, 4096), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_RC(cuCtxGetDevice(&d), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_RC(cuStreamCreate(&s, 0), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_RC(cuMemGetInfo_v2(&fr, &total), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_RC(cuCtxSetCurrent((CUcontext)&n), CUDA_ERROR_INVALID_CONTEXT);

    /* One primary context per device, refcounted. */
    CUcontext c2 = retain(2), again = retain(2);
    CHECK(c2 != NULL && c2 == again);
    CHECK_RC(cuCtxSetCurrent(c2), CUDA_SUCCESS);
    CHECK_RC(cuCtxGetDevice(&d), CUDA_SUCCESS);
    CHECK(d == 2);
    CHECK_RC(cuMemGetInfo_v2(&fr, &total), CUDA_SUCCESS);
    CHECK(fr == total && total == 143771UL * MiB);
    int64_t before = linkwatch_sim_live_allocations();
    CHECK_RC(cuMemAlloc_v2(&p, 0), CUDA_ERROR_INVALID_VALUE);
    CHECK_RC(cuMemAlloc_v2(&p, 150000UL * MiB), CUDA_ERROR_OUT_OF_MEMORY);
    CHECK_RC(cuMemAlloc_v2(&p, 8 * MiB), CUDA_SUCCESS);
    CHECK(linkwatch_sim_live_allocations() == before + 1);
    CHECK_RC(cuMemGetInfo_v2(&fr, &total), CUDA_SUCCESS);
    CHECK(total - fr == 8 * MiB);
    CHECK_RC(cuMemFree_v2(p + 64), CUDA_ERROR_INVALID_VALUE);   /* not its start */
    CHECK_RC(cuMemFree_v2(p), CUDA_SUCCESS);
    CHECK_RC(cuMemFree_v2(p), CUDA_ERROR_INVALID_VALUE);        /* twice */
    CHECK(linkwatch_sim_live_allocations() == before);
    CHECK_RC(cuDevicePrimaryCtxRelease_v2(2), CUDA_SUCCESS);
    CHECK_RC(cuMemAlloc_v2(&p, 4096), CUDA_SUCCESS);             /* still retained once */
    CHECK_RC(cuMemFree_v2(p), CUDA_SUCCESS);
    CHECK_RC(cuDevicePrimaryCtxRelease_v2(2), CUDA_SUCCESS);
    CHECK_RC(cuMemAlloc_v2(&p, 4096), CUDA_ERROR_INVALID_CONTEXT);   /* released: gone */
    CHECK_RC(cuDevicePrimaryCtxRelease_v2(2), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_RC(cuCtxSetCurrent(NULL), CUDA_SUCCESS);
    CHECK_RC(cuCtxGetDevice(&d), CUDA_ERROR_INVALID_CONTEXT);

    /* Fixed texts; a code the table lacks gives INVALID_VALUE and NULL. */
    const char *t = NULL;
    CHECK_RC(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &t), CUDA_SUCCESS);
    CHECK(t && strcmp(t, "CUDA_ERROR_ILLEGAL_ADDRESS") == 0);
    CHECK_RC(cuGetErrorString(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, &t), CUDA_SUCCESS);
    CHECK(t && strcmp(t, "peer access is already enabled") == 0);
    CHECK_RC(cuGetErrorString((CUresult)12345, &t), CUDA_ERROR_INVALID_VALUE);
    CHECK(t == NULL);

    /* The Ascend face is untouched: still the runner's A3, and none of the
     * CUDA failures above left text in its recent errors. */
    CHECK(aclGetRecentErrMsg() == NULL);
    uint32_t acl_n = 0;
    CHECK_RC(aclrtGetDeviceCount(&acl_n), 0);
    CHECK(acl_n == 2);
    CHECK(strcmp(aclrtGetSocName(), "Ascend910_9382") == 0);
}

void test_cuda_init_devices(void)
{
    in_child("test_cuda_init_devices", init_devices);
}

/* ---- copies, peer access, streams, events, host memory ---- */

static void copies(void)
{
    CHECK_RC(cuInit(0), CUDA_SUCCESS);
    CUcontext c0 = retain(0), c1 = retain(1);
    CHECK_RC(cuCtxSetCurrent(c1), CUDA_SUCCESS);
    CUdeviceptr d1;
    CUstream s1;
    CHECK_RC(cuMemAlloc_v2(&d1, MiB), CUDA_SUCCESS);
    CHECK_RC(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    CHECK_RC(cuCtxSetCurrent(c0), CUDA_SUCCESS);
    CUdeviceptr d0, d0b;
    CHECK_RC(cuMemAlloc_v2(&d0, MiB), CUDA_SUCCESS);
    CHECK_RC(cuMemAlloc_v2(&d0b, MiB), CUDA_SUCCESS);
    char *h = malloc(MiB), *back = malloc(MiB);
    for (size_t i = 0; i < MiB; i++)
        h[i] = (char)(i * 7 + 1);

    /* The bytes move: host -> 0 -> 0 (local) -> 1 (peer) -> 0 (peer) -> host. */
    CHECK_RC(cuMemcpyHtoD_v2(d0, h, MiB), CUDA_SUCCESS);
    CHECK_RC(cuMemcpyDtoD_v2(d0b, d0, MiB), CUDA_SUCCESS);
    CHECK_RC(cuMemcpyDtoDAsync_v2(d1, d0b, MiB, NULL), CUDA_ERROR_INVALID_VALUE);   /* no peer access */
    CHECK_RC(cuCtxEnablePeerAccess(c1, 0), CUDA_SUCCESS);
    CHECK_RC(cuCtxEnablePeerAccess(c1, 0), CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);
    CHECK_RC(cuCtxEnablePeerAccess(c0, 0), CUDA_ERROR_INVALID_DEVICE);    /* itself */
    CHECK_RC(cuMemcpyDtoDAsync_v2(d1, d0b, MiB, NULL), CUDA_SUCCESS);
    CHECK_RC(cuMemcpyPeerAsync(d0, c0, d1, c1, MiB, NULL), CUDA_SUCCESS);  /* staged: 1 -> 0 not enabled */
    CHECK_RC(cuMemcpyDtoH_v2(back, d0, MiB), CUDA_SUCCESS);
    CHECK(memcmp(h, back, MiB) == 0);
    memset(back, 0, MiB);
    CHECK_RC(cuMemcpyPeer(d0b, c0, d1, c1, MiB), CUDA_SUCCESS);
    CHECK_RC(cuMemcpyDtoHAsync_v2(back, d0b, MiB, NULL), CUDA_SUCCESS);
    CHECK(memcmp(h, back, MiB) == 0);

    /* Bad values: sizes, spans, sides of the wrong kind, contexts that do not match. */
    CHECK_RC(cuMemcpyHtoD_v2(d0, h, 0), CUDA_ERROR_INVALID_VALUE);
    CHECK_RC(cuMemcpyHtoD_v2(d0 + 16, h, MiB), CUDA_ERROR_INVALID_VALUE);
    CHECK_RC(cuMemcpyHtoD_v2((CUdeviceptr)(uintptr_t)back, h, 64), CUDA_ERROR_INVALID_VALUE);
    CHECK_RC(cuMemcpyDtoH_v2((void *)(uintptr_t)d0b, d0, 64), CUDA_ERROR_INVALID_VALUE);
    CHECK_RC(cuMemcpyPeerAsync(d0, c1, d1, c1, 64, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_RC(cuMemcpyPeerAsync(d0, (CUcontext)h, d1, c1, 64, NULL), CUDA_ERROR_INVALID_CONTEXT);
    /* A stream of device 1's context while device 0's is current. */
    CHECK_RC(cuMemcpyDtoDAsync_v2(d0b, d0, 64, s1), CUDA_ERROR_INVALID_HANDLE);
    CHECK_RC(cuStreamSynchronize(s1), CUDA_ERROR_INVALID_HANDLE);
    CHECK_RC(cuStreamDestroy_v2(s1), CUDA_ERROR_INVALID_HANDLE);
    CHECK_RC(cuStreamDestroy_v2(NULL), CUDA_ERROR_INVALID_HANDLE);
    /* CUDA handles are nothing to the Ascend face. */
    CHECK_RC(aclrtSynchronizeStream(s1), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtFree((void *)(uintptr_t)d0), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("is not a live device allocation");   /* the Ascend face's failure, its text */

    /* Events: DISABLE_TIMING and never-recorded events have no time. */
    CUevent a, b, notime;
    float ms = 0;
    CHECK_RC(cuEventCreate(&a, 0), CUDA_SUCCESS);
    CHECK_RC(cuEventCreate(&b, CU_EVENT_BLOCKING_SYNC), CUDA_SUCCESS);
    CHECK_RC(cuEventCreate(&notime, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
    CHECK_RC(cuEventCreate(&notime, CU_EVENT_INTERPROCESS), CUDA_ERROR_INVALID_VALUE);
    CHECK_RC(cuEventElapsedTime(&ms, a, b), CUDA_ERROR_INVALID_HANDLE);
    CHECK_RC(cuEventRecord(a, NULL), CUDA_SUCCESS);
    CHECK_RC(cuEventRecord(notime, NULL), CUDA_SUCCESS);
    CHECK_RC(cuMemcpyDtoDAsync_v2(d0b, d0, MiB, NULL), CUDA_SUCCESS);
    CHECK_RC(cuEventRecord(b, NULL), CUDA_SUCCESS);
    CHECK_RC(cuEventElapsedTime(&ms, a, b), CUDA_SUCCESS);
    CHECK(ms > 0);
    CHECK_RC(cuEventElapsedTime(&ms, notime, b), CUDA_ERROR_INVALID_HANDLE);
    CHECK_RC(cuEventRecord(a, s1), CUDA_ERROR_INVALID_HANDLE);
    /* A stream waits for an event of another context: its clock moves up. */
    CHECK_RC(cuCtxSetCurrent(c1), CUDA_SUCCESS);
    CUevent e1;
    CHECK_RC(cuEventCreate(&e1, 0), CUDA_SUCCESS);
    CHECK_RC(cuStreamWaitEvent(s1, b, 0), CUDA_SUCCESS);
    CHECK_RC(cuEventRecord(e1, s1), CUDA_SUCCESS);
    CHECK_RC(cuEventElapsedTime(&ms, b, e1), CUDA_SUCCESS);
    CHECK(ms == 0);
    CHECK_RC(cuEventRecord(a, s1), CUDA_ERROR_INVALID_HANDLE);   /* a is device 0's */
    CHECK_RC(cuStreamDestroy_v2(s1), CUDA_SUCCESS);
    CHECK_RC(cuEventDestroy_v2(e1), CUDA_SUCCESS);
    CHECK_RC(cuCtxSetCurrent(c0), CUDA_SUCCESS);
    CHECK_RC(cuEventDestroy_v2(a), CUDA_SUCCESS);
    CHECK_RC(cuEventDestroy_v2(a), CUDA_ERROR_INVALID_HANDLE);
    cuEventDestroy_v2(b);
    cuEventDestroy_v2(notime);

    /* Host memory: pinned blocks, registered ranges. */
    void *pin = NULL;
    CHECK_RC(cuMemHostAlloc(&pin, MiB, 8), CUDA_ERROR_INVALID_VALUE);
    CHECK_RC(cuMemHostAlloc(&pin, MiB, CU_MEMHOSTALLOC_PORTABLE), CUDA_SUCCESS);
    CHECK_RC(cuMemHostRegister_v2(h, MiB, CU_MEMHOSTREGISTER_PORTABLE), CUDA_SUCCESS);
    CHECK_RC(cuMemHostRegister_v2(h + 4096, 4096, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CHECK_RC(cuMemHostRegister_v2(pin, 4096, 0), CUDA_ERROR_INVALID_VALUE);
    CHECK_RC(cuMemcpyHtoDAsync_v2(d0, pin, MiB, NULL), CUDA_SUCCESS);
    CHECK_RC(cuMemHostUnregister(h), CUDA_SUCCESS);
    CHECK_RC(cuMemHostUnregister(h), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
    CHECK_RC(cuMemFreeHost(pin), CUDA_SUCCESS);
    CHECK_RC(cuMemFreeHost(pin), CUDA_ERROR_INVALID_VALUE);

    /* A `corrupt` line reaches the CUDA copies too. */
    set_control("corrupt cuMemcpyDtoH_v2\n");
    CHECK_RC(cuMemcpyDtoH_v2(back, d0, MiB), CUDA_SUCCESS);
    CHECK(memcmp(h, back, MiB) != 0);
    set_control(NULL);

    cuMemFree_v2(d0);
    cuMemFree_v2(d0b);
    cuMemFree_v2(d1);
    free(h);
    free(back);
    int64_t c[6];
    linkwatch_sim_live_counts(c);
    for (int i = 0; i < 6; i++)
        CHECK(c[i] == 0);
    CHECK(aclGetRecentErrMsg() == NULL);
}

void test_cuda_copies(void)
{
    in_child("test_cuda_copies", copies);
}

/* ---- the time model, faults ---- */

struct peer_copy {
    CUdeviceptr dst, src;
    CUcontext dctx, sctx;
    size_t bytes;
    CUstream s;
};

static CUresult run_peer(void *arg)
{
    struct peer_copy *c = arg;
    return cuMemcpyPeerAsync(c->dst, c->dctx, c->src, c->sctx, c->bytes, c->s);
}

static CUresult run_htod(void *arg)
{
    struct peer_copy *c = arg;
    return cuMemcpyHtoDAsync_v2(c->dst, (const void *)(uintptr_t)c->src, c->bytes, c->s);
}

static void model(void)
{
    CHECK_RC(cuInit(0), CUDA_SUCCESS);
    CUcontext c0 = retain(0), c1 = retain(1), c2 = retain(2);
    const size_t big = 256 * MiB, mid = 64 * MiB;
    CUdeviceptr d1, d2;
    CHECK_RC(cuCtxSetCurrent(c1), CUDA_SUCCESS);
    CHECK_RC(cuMemAlloc_v2(&d1, big), CUDA_SUCCESS);
    CHECK_RC(cuCtxSetCurrent(c2), CUDA_SUCCESS);
    CHECK_RC(cuMemAlloc_v2(&d2, mid), CUDA_SUCCESS);
    CHECK_RC(cuCtxSetCurrent(c0), CUDA_SUCCESS);
    CUdeviceptr d0;
    CUstream s;
    CHECK_RC(cuMemAlloc_v2(&d0, big), CUDA_SUCCESS);
    CHECK_RC(cuStreamCreate(&s, 0), CUDA_SUCCESS);
    CHECK_RC(cuCtxEnablePeerAccess(c1, 0), CUDA_SUCCESS);

    /* NVLink 0 -> 1 at 256 MiB: 370 GB/s and 10 us latency give ~365 GB/s. */
    struct peer_copy p = { d1, d0, c1, c0, big, s };
    double nv = timed_gbps(run_peer, &p, big, s, 3);
    /* Without peer access (0 -> 2) the copy goes through host memory: the
     * pinned rate (55 GB/s) and two pinned latencies, ~54 GB/s at 64 MiB. */
    struct peer_copy staged = { d2, d0, c2, c0, mid, s };
    double host = timed_gbps(run_peer, &staged, mid, s, 3);
    /* Pinned and pageable host memory, 64 MiB: 55 and 20 GB/s nominal. */
    void *pin;
    char *plain = malloc(mid);
    memset(plain, 1, mid);
    CHECK_RC(cuMemHostAlloc(&pin, mid, 0), CUDA_SUCCESS);
    struct peer_copy hp = { d0, (CUdeviceptr)(uintptr_t)pin, NULL, NULL, mid, s };
    struct peer_copy hq = { d0, (CUdeviceptr)(uintptr_t)plain, NULL, NULL, mid, s };
    double pinned = timed_gbps(run_htod, &hp, mid, s, 3), pageable = timed_gbps(run_htod, &hq, mid, s, 3);
    /* `link 0 1 scale` numbers devices as NVML does. */
    set_control("link 0 1 scale 0.5\n");
    struct peer_copy small = { d1, d0, c1, c0, mid, s };
    double scaled = timed_gbps(run_peer, &small, mid, s, 3);
    set_control(NULL);
    double full = timed_gbps(run_peer, &small, mid, s, 3);
    fprintf(stderr, "  cuda model p2p 0->1 256MiB %.1f GB/s, staged 0->2 64MiB %.1f, pinned h2d %.1f, "
            "pageable %.1f, link scale 0.5 %.1f (of %.1f)\n", nv, host, pinned, pageable, scaled, full);
    CHECK_NEAR(nv, 365.0, 0.03);
    CHECK_NEAR(host, 54.1, 0.03);
    CHECK_NEAR(pinned, 54.6, 0.03);
    CHECK_NEAR(pageable, 19.9, 0.03);
    CHECK_NEAR(scaled / full, 0.5, 0.05);

    /* An injected code comes back as is. */
    set_control("fail cuMemcpyPeerAsync 700\n");
    CHECK_RC(run_peer(&small), CUDA_ERROR_ILLEGAL_ADDRESS);
    CHECK_RC(cuMemcpyDtoDAsync_v2(d1, d0, 64, s), CUDA_SUCCESS);   /* other calls go on */
    set_control(NULL);
    CHECK_RC(run_peer(&small), CUDA_SUCCESS);
    CHECK(aclGetRecentErrMsg() == NULL);

    cuMemFreeHost(pin);
    free(plain);
    cuStreamDestroy_v2(s);
    cuMemFree_v2(d0);
    cuMemFree_v2(d1);
    cuMemFree_v2(d2);
}

void test_cuda_model(void)
{
    in_child("test_cuda_model", model);
}

/* ---- NVML ---- */

static int procs(nvmlDevice_t d, nvmlProcessInfo_t *info, unsigned max)
{
    unsigned n = max;
    nvmlReturn_t rc = nvmlDeviceGetComputeRunningProcesses_v3(d, &n, info);
    return rc ? -(int)rc : (int)n;
}

static void nvml(void)
{
    unsigned n = 0;
    nvmlDevice_t d3 = NULL, d, d0, d4, d2, d5;
    CHECK_RC(nvmlDeviceGetCount_v2(&n), NVML_ERROR_UNINITIALIZED);
    CHECK_RC(nvmlInit_v2(), NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetCount_v2(&n), NVML_SUCCESS);
    CHECK(n == 8);
    CHECK_RC(nvmlDeviceGetHandleByIndex_v2(8, &d), NVML_ERROR_INVALID_ARGUMENT);
    CHECK_RC(nvmlDeviceGetHandleByIndex_v2(3, &d3), NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetHandleByIndex_v2(3, &d), NVML_SUCCESS);
    CHECK(d == d3);                                          /* stable handles */

    /* PCI info, and back from either form of the bus id, any case. */
    nvmlPciInfo_t pci;
    CHECK(sizeof pci == 16 + 5 * 4 + 32);
    CHECK_RC(nvmlDeviceGetPciInfo_v3(d3, &pci), NVML_SUCCESS);
    CHECK(strcmp(pci.busId, "00000000:5D:00.0") == 0);
    CHECK(strcmp(pci.busIdLegacy, "0000:5D:00.0") == 0);
    CHECK(pci.domain == 0 && pci.bus == 0x5d && pci.device == 0 && pci.pciDeviceId == 0x233510DEu);
    /* UUIDs as NVML spells them (what NVIDIA's device plugin gives the kubelet), by NVML index. */
    char uuid[96];
    CHECK_RC(nvmlDeviceGetUUID(d3, uuid, sizeof uuid), NVML_SUCCESS);
    CHECK(strcmp(uuid, "GPU-51110000-0000-4000-8000-000000000003") == 0);
    CHECK_RC(nvmlDeviceGetUUID(d3, uuid, 8), NVML_ERROR_INSUFFICIENT_SIZE);
    CHECK_RC(nvmlDeviceGetHandleByPciBusId_v2(pci.busId, &d), NVML_SUCCESS);
    CHECK(d == d3);
    CHECK_RC(nvmlDeviceGetHandleByPciBusId_v2("00000000:ab:00.0", &d5), NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetHandleByPciBusId_v2("0000:5d:00.0", &d), NVML_SUCCESS);
    CHECK(d == d3);
    CHECK_RC(nvmlDeviceGetHandleByPciBusId_v2("0000:99:00.0", &d), NVML_ERROR_NOT_FOUND);
    CHECK_RC(nvmlDeviceGetHandleByPciBusId_v2("5d:00", &d), NVML_ERROR_INVALID_ARGUMENT);
    char name[32];
    CHECK_RC(nvmlDeviceGetName(d3, name, sizeof name), NVML_SUCCESS);
    CHECK(strcmp(name, "NVIDIA H200") == 0);
    CHECK_RC(nvmlDeviceGetName(d3, name, 11), NVML_ERROR_INSUFFICIENT_SIZE);
    CHECK_RC(nvmlDeviceGetName((nvmlDevice_t)name, name, sizeof name), NVML_ERROR_INVALID_ARGUMENT);

    /* Paths: NODE on a socket, SYS across; NVLink everywhere (NVSwitch). */
    nvmlGpuTopologyLevel_t level;
    nvmlGpuP2PStatus_t st;
    nvmlDeviceGetHandleByIndex_v2(0, &d0);
    nvmlDeviceGetHandleByIndex_v2(4, &d4);
    nvmlDeviceGetHandleByIndex_v2(2, &d2);
    CHECK_RC(nvmlDeviceGetTopologyCommonAncestor(d0, d3, &level), NVML_SUCCESS);
    CHECK(level == NVML_TOPOLOGY_NODE);
    CHECK_RC(nvmlDeviceGetTopologyCommonAncestor(d0, d4, &level), NVML_SUCCESS);
    CHECK(level == NVML_TOPOLOGY_SYSTEM);
    CHECK_RC(nvmlDeviceGetTopologyCommonAncestor(d2, d2, &level), NVML_SUCCESS);
    CHECK(level == NVML_TOPOLOGY_INTERNAL);
    CHECK_RC(nvmlDeviceGetP2PStatus(d0, d5, NVML_P2P_CAPS_INDEX_NVLINK, &st), NVML_SUCCESS);
    CHECK(st == NVML_P2P_STATUS_OK);
    CHECK_RC(nvmlDeviceGetP2PStatus(d0, d5, NVML_P2P_CAPS_INDEX_READ, &st), NVML_SUCCESS);
    CHECK(st == NVML_P2P_STATUS_OK);

    /* Processes: none; this process while it holds a context; `busy` lines. */
    nvmlProcessInfo_t info[8];
    CHECK(sizeof info[0] == 24);
    unsigned zero = 0;
    CHECK_RC(nvmlDeviceGetComputeRunningProcesses_v3(d2, &zero, NULL), NVML_SUCCESS);
    CHECK(zero == 0);
    CHECK_RC(cuInit(0), CUDA_SUCCESS);
    CUcontext c2 = retain(2);
    CHECK_RC(cuCtxSetCurrent(c2), CUDA_SUCCESS);
    CUdeviceptr p;
    CHECK_RC(cuMemAlloc_v2(&p, 4 * MiB), CUDA_SUCCESS);
    CHECK(procs(d2, info, 8) == 1);
    CHECK(info[0].pid == (unsigned)getpid() && info[0].usedGpuMemory == 4 * MiB);
    CHECK(info[0].gpuInstanceId == 0xFFFFFFFFu && info[0].computeInstanceId == 0xFFFFFFFFu);
    CHECK(procs(d3, info, 8) == 0);
    set_control("busy 2 pid 4242 util 70 memory 1073741824\n");
    CHECK(procs(d2, info, 8) == 2);
    CHECK(info[0].pid == 4242 && info[0].usedGpuMemory == 1073741824ULL);
    CHECK(info[1].pid == (unsigned)getpid());
    unsigned one = 1;
    CHECK_RC(nvmlDeviceGetComputeRunningProcesses_v3(d2, &one, info), NVML_ERROR_INSUFFICIENT_SIZE);
    CHECK(one == 2);
    nvmlUtilization_t u = { 9, 9 };
    CHECK_RC(nvmlDeviceGetUtilizationRates(d2, &u), NVML_SUCCESS);
    CHECK(u.gpu == 70 && u.memory == 70);
    CHECK_RC(nvmlDeviceGetUtilizationRates(d3, &u), NVML_SUCCESS);
    CHECK(u.gpu == 0 && u.memory == 0);
    size_t fr, total;
    CHECK_RC(cuMemGetInfo_v2(&fr, &total), CUDA_SUCCESS);   /* the job's memory is taken */
    CHECK(total - fr == 4 * MiB + 1073741824UL);
    cuMemFree_v2(p);
    CHECK_RC(cuDevicePrimaryCtxRelease_v2(2), CUDA_SUCCESS);
    CHECK(procs(d2, info, 8) == 1 && info[0].pid == 4242);
    set_control("fail nvmlDeviceGetComputeRunningProcesses_v3 4\n");
    CHECK(procs(d2, info, 8) == -NVML_ERROR_NO_PERMISSION);
    set_control(NULL);
    CHECK(strcmp(nvmlErrorString(NVML_ERROR_INSUFFICIENT_SIZE), "Insufficient Size") == 0);

    CHECK_RC(nvmlShutdown(), NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetCount_v2(&n), NVML_ERROR_UNINITIALIZED);
    CHECK_RC(nvmlShutdown(), NVML_ERROR_UNINITIALIZED);
}

void test_cuda_nvml(void)
{
    in_child("test_cuda_nvml", nvml);
}

/* ---- NCCL ---- */

struct nrank {
    ncclComm_t comm;
    int dev, nranks;
    size_t count;
    bool gather;
    float ms;
    int rc;
    bool exact;
};

/* One rank: its context and stream, send = rank + 1 + i % 7, one collective
 * between two events, then the result checked element by element. */
static void *nrank_main(void *arg)
{
    struct nrank *r = arg;
    CUcontext c;
    CUstream s;
    CUevent a, b;
    CUdeviceptr send, recv;
    size_t bytes = r->count * sizeof(float), rbytes = r->gather ? bytes * (size_t)r->nranks : bytes;
    cuDevicePrimaryCtxRetain(&c, r->dev);
    cuCtxSetCurrent(c);
    cuStreamCreate(&s, 0);
    cuEventCreate(&a, 0);
    cuEventCreate(&b, 0);
    cuMemAlloc_v2(&send, bytes);
    cuMemAlloc_v2(&recv, rbytes);
    float *h = malloc(rbytes);
    for (size_t i = 0; i < r->count; i++)
        h[i] = (float)(r->dev + 1 + (int)(i % 7));
    cuMemcpyHtoD_v2(send, h, bytes);
    cuEventRecord(a, s);
    r->rc = r->gather ? ncclAllGather((void *)(uintptr_t)send, (void *)(uintptr_t)recv, r->count, ncclFloat32,
                                      r->comm, s)
                      : ncclAllReduce((void *)(uintptr_t)send, (void *)(uintptr_t)recv, r->count, ncclFloat32,
                                      ncclSum, r->comm, s);
    cuEventRecord(b, s);
    cuStreamSynchronize(s);
    cuEventElapsedTime(&r->ms, a, b);
    cuMemcpyDtoH_v2(h, recv, rbytes);
    r->exact = r->rc == ncclSuccess;
    /* devices 0..n-1 (ranks = devices here): the sum of dev + 1 is n(n+1)/2 */
    float base = (float)(r->nranks * (r->nranks + 1) / 2);
    for (size_t i = 0; r->exact && i < r->count; i++) {
        if (r->gather) {
            for (int k = 0; k < r->nranks; k++)
                if (h[(size_t)k * r->count + i] != (float)(k + 1 + (int)(i % 7)))
                    r->exact = false;
        } else if (h[i] != base + (float)(r->nranks * (int)(i % 7))) {
            r->exact = false;
        }
    }
    free(h);
    cuMemFree_v2(send);
    cuMemFree_v2(recv);
    cuEventDestroy_v2(a);
    cuEventDestroy_v2(b);
    cuStreamDestroy_v2(s);
    cuDevicePrimaryCtxRelease_v2(r->dev);
    return NULL;
}

static void run_nccl(ncclComm_t *comms, int n, size_t count, bool gather, struct nrank *r)
{
    pthread_t t[8];
    for (int i = 0; i < n; i++) {
        r[i] = (struct nrank){ comms[i], i, n, count, gather, 0, -1, false };
        pthread_create(&t[i], NULL, nrank_main, &r[i]);
    }
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
}

static void nccl(void)
{
    int v = 0;
    CHECK_RC(ncclGetVersion(&v), ncclSuccess);
    CHECK(v == 22703);
    /* ncclCommInitAll may come first: it brings the CUDA face up itself. */
    ncclComm_t two[2], eight[8];
    CHECK_RC(ncclCommInitAll(two, 2, NULL), ncclSuccess);
    struct nrank r[8];
    const size_t count = 4 * MiB;   /* floats: 16 MiB per rank */
    run_nccl(two, 2, count, false, r);
    for (int i = 0; i < 2; i++)
        CHECK(r[i].rc == ncclSuccess && r[i].exact);
    /* 2 ranks move 2(n-1)/n of 16 MiB at 480 GB/s busbw after 15 us: ~50 us */
    fprintf(stderr, "  nccl allreduce 2 x 16MiB fp32: %.1f us\n", r[0].ms * 1e3);
    CHECK_NEAR(r[0].ms, 0.015 + 16.0 * MiB / 480e9 * 1e3, 0.03);
    CHECK(r[0].ms == r[1].ms);

    int all[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    CHECK_RC(ncclCommInitAll(eight, 8, all), ncclSuccess);
    run_nccl(eight, 8, 64 * 1024, false, r);
    for (int i = 0; i < 8; i++)
        CHECK(r[i].rc == ncclSuccess && r[i].exact);
    run_nccl(eight, 8, 16 * 1024, true, r);
    for (int i = 0; i < 8; i++)
        CHECK(r[i].rc == ncclSuccess && r[i].exact);

    /* Arguments NCCL refuses; the core has no average. */
    ncclComm_t bad[2];
    int twice[2] = { 1, 1 }, none[1] = { 8 };
    CHECK_RC(ncclCommInitAll(bad, 2, twice), ncclInvalidUsage);
    CHECK_RC(ncclCommInitAll(bad, 1, none), ncclInvalidArgument);
    CHECK_RC(ncclCommInitAll(bad, 9, NULL), ncclInvalidArgument);
    CUcontext c0 = retain(0);
    CHECK_RC(cuCtxSetCurrent(c0), CUDA_SUCCESS);
    CUdeviceptr buf;
    CHECK_RC(cuMemAlloc_v2(&buf, MiB), CUDA_SUCCESS);
    void *b = (void *)(uintptr_t)buf;
    CHECK_RC(ncclAllReduce(b, b, 16, ncclFloat32, ncclAvg, two[0], NULL), ncclInvalidArgument);
    CHECK_RC(ncclAllReduce(b, b, 16, (ncclDataType_t)10, ncclSum, two[0], NULL), ncclInvalidArgument);
    CHECK_RC(ncclAllReduce(b, b, 16, ncclFloat32, ncclSum, two[1], NULL), ncclInvalidArgument);  /* device 1's */
    /* A rank whose peer never comes: ncclSystemError after the timeout. */
    setenv("HCCL_EXEC_TIMEOUT", "0.2", 1);
    CHECK_RC(ncclAllReduce(b, b, 16, ncclFloat32, ncclSum, two[0], NULL), ncclSystemError);
    unsetenv("HCCL_EXEC_TIMEOUT");
    set_control("fail ncclAllReduce 6\n");
    CHECK_RC(ncclAllReduce(b, b, 16, ncclFloat32, ncclSum, two[0], NULL), ncclRemoteError);
    set_control(NULL);
    CHECK(strcmp(ncclGetErrorString(ncclInvalidUsage), "invalid usage") == 0);
    cuMemFree_v2(buf);
    cuDevicePrimaryCtxRelease_v2(0);

    /* HCCL does not know NCCL's comms. */
    CHECK_RC(HcclCommDestroy(two[0]), HCCL_E_PARA);
    aclGetRecentErrMsg();
    for (int i = 0; i < 2; i++)
        CHECK_RC(ncclCommDestroy(two[i]), ncclSuccess);
    for (int i = 0; i < 8; i++)
        CHECK_RC(ncclCommDestroy(eight[i]), ncclSuccess);
    CHECK_RC(ncclCommDestroy(two[0]), ncclInvalidArgument);
    CHECK_RC(ncclCommDestroy(NULL), ncclSuccess);
    CHECK(linkwatch_sim_live_allocations() == 0);
}

void test_cuda_nccl(void)
{
    in_child("test_cuda_nccl", nccl);
}

/* ---- CUDA_VISIBLE_DEVICES and profiles ---- */

static const char *bus_id(int dev)
{
    static char bus[32];
    bus[0] = '\0';
    CHECK_RC(cuDeviceGetPCIBusId(bus, sizeof bus, dev), CUDA_SUCCESS);
    return bus;
}

static void visible_3_5(void)
{
    setenv("CUDA_VISIBLE_DEVICES", "3,5", 1);
    int n = 0;
    CHECK_RC(cuInit(0), CUDA_SUCCESS);
    CHECK_RC(cuDeviceGetCount(&n), CUDA_SUCCESS);
    CHECK(n == 2);
    CHECK(strcmp(bus_id(0), "0000:5D:00.0") == 0);
    CHECK(strcmp(bus_id(1), "0000:AB:00.0") == 0);
    int can = 0;
    CHECK_RC(cuDeviceCanAccessPeer(&can, 0, 1), CUDA_SUCCESS);
    CHECK(can == 1);
    /* NVML keeps the host's numbers: ordinal 1 is NVML device 5. */
    unsigned count = 0;
    nvmlDevice_t d5;
    nvmlProcessInfo_t info[4];
    CHECK_RC(nvmlInit_v2(), NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetCount_v2(&count), NVML_SUCCESS);
    CHECK(count == 8);
    CHECK_RC(nvmlDeviceGetHandleByPciBusId_v2(bus_id(1), &d5), NVML_SUCCESS);
    nvmlPciInfo_t pci;
    CHECK_RC(nvmlDeviceGetPciInfo_v3(d5, &pci), NVML_SUCCESS);
    CHECK(pci.bus == 0xab);
    CUcontext c1 = retain(1);
    CHECK(procs(d5, info, 4) == 1 && info[0].pid == (unsigned)getpid());
    /* The control file numbers devices as NVML does: `busy 5` is ordinal 1. */
    set_control("busy 5 pid 77 memory 1048576\n");
    size_t fr, total;
    CHECK_RC(cuCtxSetCurrent(c1), CUDA_SUCCESS);
    CHECK_RC(cuMemGetInfo_v2(&fr, &total), CUDA_SUCCESS);
    CHECK(total - fr == 1048576);
    set_control(NULL);
    cuDevicePrimaryCtxRelease_v2(1);
    nvmlShutdown();
}

static void visible_none(void)
{
    int n = -1;
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    CHECK_RC(cuInit(0), CUDA_ERROR_NO_DEVICE);
    CHECK_RC(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
}

static void visible_parsing(void)
{
    /* any order; the list ends at an entry that is not a valid index */
    setenv("CUDA_VISIBLE_DEVICES", "6,2,9,1", 1);
    int n = 0;
    CHECK_RC(cuInit(0), CUDA_SUCCESS);
    CHECK_RC(cuDeviceGetCount(&n), CUDA_SUCCESS);
    CHECK(n == 2);
    CHECK(strcmp(bus_id(0), "0000:BA:00.0") == 0);
    CHECK(strcmp(bus_id(1), "0000:3A:00.0") == 0);
}

static void visible_uuid(void)
{
    setenv("CUDA_VISIBLE_DEVICES", "4,GPU-8f0c1b2a,5", 1);
    int n = 0;
    CHECK_RC(cuInit(0), CUDA_SUCCESS);
    CHECK_RC(cuDeviceGetCount(&n), CUDA_SUCCESS);
    CHECK(n == 1);
    CHECK(strcmp(bus_id(0), "0000:9A:00.0") == 0);
}

static void single_gpu(void)
{
    setenv("LINKWATCH_SIM_PROFILE", PROFILE_DIR "/single-gpu.profile", 1);
    int n = 0;
    unsigned count = 0;
    CHECK_RC(cuInit(0), CUDA_SUCCESS);
    CHECK_RC(cuDeviceGetCount(&n), CUDA_SUCCESS);
    CHECK(n == 1);
    CHECK_RC(nvmlInit_v2(), NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetCount_v2(&count), NVML_SUCCESS);
    CHECK(count == 1);
    nvmlShutdown();
    /* The override is for both faces: the Ascend face reads it too. */
    aclFinalize();
    CHECK_RC(aclInit(NULL), 0);
    uint32_t acl_n = 0;
    CHECK_RC(aclrtGetDeviceCount(&acl_n), 0);
    CHECK(acl_n == 1);
    CHECK(strcmp(aclrtGetSocName(), "NVIDIA H200") == 0);
}

void test_cuda_visible(void)
{
    in_child("visible 3,5", visible_3_5);
    in_child("visible empty", visible_none);
    in_child("visible order", visible_parsing);
    in_child("visible uuid", visible_uuid);
    in_child("single-gpu profile", single_gpu);
}

/* ---- profile grammar of the CUDA face ---- */

static void expect_bad(const char *text, const char *want)
{
    CHECK_RC(use_profile(text), ACL_ERROR_INVALID_PARAM);
    const char *m = aclGetRecentErrMsg();
    if (!m || !strstr(m, want)) {
        check_failures++;
        fprintf(stderr, "  FAIL profile error '%s' lacks '%s'\n", m ? m : "(null)", want);
    }
}

void test_cuda_profile_grammar(void)
{
    const char *two = "device 0 memory 1GiB pci 0000:01:00.0\ndevice 1 memory 1GiB phy 4 pci 0000:02:00.0\n";
    char text[512];
    snprintf(text, sizeof text, "%slink 0 1 PHB bandwidth 1GB/s latency 1us pcie SYS\n", two);
    expect_bad(text, ":3: 'pcie' is for NVLINK links");
    snprintf(text, sizeof text, "%slink 0 1 NVLINK bandwidth 1GB/s latency 1us pcie HCCS\n", two);
    expect_bad(text, ":3: bad pcie path 'HCCS'");
    snprintf(text, sizeof text, "%slink 0 1 NVLINK bandwidth 1GB/s latency 1us pcie\n", two);
    expect_bad(text, ":3: expected 'link SRC DST TYPE");
    expect_bad("device 0 memory 1GiB pci 0000:1:00.0\n", ":1: bad pci address '0000:1:00.0'");
    expect_bad("device 0 memory 1GiB pci 0000:01:00.0 pci 0000:02:00.0\n", ":1: expected 'device ID");
    expect_bad("device 0 memory 1GiB pci 0000:01:00.0\ndevice 1 memory 1GiB pci 0000:01:00.0\n",
               "devices 0 and 1 have the same pci address");
    expect_bad("soc A very long name that goes on and on past the sixty-three characters allowed\n"
               "device 0 memory 1GiB\n", ":1: soc name too long");
    /* The new words in a good file: on the Ascend face an NVLINK pair is a link
     * without a topology bit, and `soc` keeps its spaces. */
    snprintf(text, sizeof text, "soc  Some   GPU\n%slink 0 1 NVLINK bandwidth 100GB/s latency 1us oneway "
             "pcie PXB\nlink 1 0 NODE bandwidth 50GB/s latency 1us oneway\n", two);
    CHECK_RC(use_profile(text), 0);
    CHECK(strcmp(aclrtGetSocName(), "Some GPU") == 0);
    CHECK(strcmp(linkwatch_sim_link_name(0, 1), "NVLINK") == 0);
    CHECK(strcmp(linkwatch_sim_link_name(1, 0), "NODE") == 0);
    uint64_t topo = 99;
    CHECK_RC(aclrtGetDevicesTopo(0, 1, &topo), 0);
    CHECK(topo == 0);
    int32_t phy = -1;
    CHECK_RC(aclrtGetPhyDevIdByLogicDevId(1, &phy), 0);
    CHECK(phy == 4);
    use_profile(NULL);
}

/* ---- a process that uses only the CUDA face ---- */

int cuda_face_only(void)
{
    CUcontext c;
    ncclComm_t comms[2];
    if (cuInit(0) || nvmlInit_v2() || cuDevicePrimaryCtxRetain(&c, 0) || ncclCommInitAll(comms, 2, NULL))
        return 3;
    ncclCommDestroy(comms[0]);
    ncclCommDestroy(comms[1]);
    return 0;
}

/* The exit wait for device logs is CANN's: a CUDA-only process exits at once,
 * with the variable unset (which would hold an AscendCL process 2 s). */
void test_cuda_exit_not_held(void)
{
    int fds[2];
    if (pipe(fds) != 0)
        return;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        unsetenv("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT");
        execl("/proc/self/exe", "sim-tests", "--cuda-face-only", (char *)NULL);
        _exit(errno == ENOEXEC ? 126 : 127);
    }
    close(fds[1]);
    char said[512];
    ssize_t got = read(fds[0], said, sizeof said - 1);
    said[got > 0 ? got : 0] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 126) {
        /* Under qemu-user without binfmt_misc the kernel cannot run this binary itself. */
        fprintf(stderr, "  (this binary cannot be exec'd here (ENOEXEC: emulated?); nothing to check)\n");
        return;
    }
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(secs < 1.0);
    CHECK(strstr(said, "exit held") == NULL);
}
