/* test_main.c - runs every test; prints "N passed, M failed" last. */
#define _GNU_SOURCE
#include "check.h"
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int check_failures;
static char dir[256];

#define TESTS(X) X(test_init_and_devices) X(test_memory) X(test_copies) X(test_peer_access) \
    X(test_events) X(test_model_p2p_local) X(test_model_bidirectional) X(test_model_host) X(test_repeated_copy) X(test_reused_memory) X(test_huge_pages) X(test_passthrough) \
    X(test_fault_fail) X(test_fault_hang) X(test_fault_crash) X(test_fault_link_scale) \
    X(test_fault_corrupt) X(test_busy_dcmi) X(test_busy_memory_and_contention) X(test_busy_paced_sharing) X(test_profile_errors) X(test_profiles_shipped) \
    X(test_hccl_reduce) X(test_hccl_model) X(test_hccl_allgather) X(test_hccl_errors) X(test_hccl_timeout) \
    X(test_peer_two_procs) X(test_peer_four_ranks) X(test_peer_large_and_model) X(test_peer_lost) \
    X(test_peer_timeouts) X(test_peer_corrupt) X(test_peer_errors) X(test_peer_no_leaks) X(test_peer_nccl) X(test_peer_p2p) X(test_peer_p2p_model) X(test_peer_p2p_errors) X(test_peer_ports) \
    X(test_reduce_exhaustive) X(test_reduce_in_place) X(test_reduce_split) \
    X(test_visible_devices) X(test_visible_parsing) X(test_p2p_policy) \
    X(test_cuda_init_devices) X(test_cuda_copies) X(test_cuda_model) X(test_cuda_nvml) X(test_cuda_nccl) \
    X(test_cuda_visible) X(test_cuda_profile_grammar) X(test_cuda_exit_not_held) \
    X(test_links_structs) X(test_links_dcmi_traffic) X(test_links_dcmi_lanes) X(test_links_dcmi_counters) \
    X(test_links_dcmi_sio) X(test_links_dcmi_nic) X(test_links_hang) X(test_links_nvml) \
    X(test_exit_waits_for_device_logs) X(test_live_counters_zero)
#define DECL(t) void t(void);
TESTS(DECL)

const char *last_msg(void)
{
    const char *m = aclGetRecentErrMsg();
    return m ? m : "";
}

const char *tmp_path(const char *name)
{
    static char buf[4][512];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
    return buf[i];
}

void write_file(const char *path, const char *text)
{
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) { perror(tmp); exit(2); }
    fputs(text, f);
    fclose(f);
    if (rename(tmp, path) != 0) { perror(path); exit(2); }
}

int use_profile(const char *text)
{
    aclFinalize();
    aclGetRecentErrMsg();
    if (text) {
        write_file(tmp_path("test.profile"), text);
        setenv("LINKWATCH_SIM_PROFILE", tmp_path("test.profile"), 1);
    } else {
        unsetenv("LINKWATCH_SIM_PROFILE");
    }
    return aclInit(NULL);
}

void set_control(const char *text)
{
    if (text)
        write_file(tmp_path("control"), text);
    else
        unlink(tmp_path("control"));
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double copy_gbps(void *dst, const void *src, size_t count, aclrtStream s, int iters)
{
    aclrtEvent a, b;
    double v[64];
    aclrtCreateEvent(&a);
    aclrtCreateEvent(&b);
    for (int i = 0; i < iters; i++) {
        float ms = 0;
        aclrtRecordEvent(a, s);
        CHECK_RC(aclrtMemcpyAsync(dst, count, src, count, ACL_MEMCPY_DEFAULT, s), 0);
        aclrtRecordEvent(b, s);
        aclrtSynchronizeStream(s);
        CHECK_RC(aclrtEventElapsedTime(&ms, a, b), 0);
        v[i] = (double)count / (ms * 1e-3) / 1e9;
    }
    aclrtDestroyEvent(a);
    aclrtDestroyEvent(b);
    return median(v, iters);
}

void peer_pair(void **d0, void **d1, size_t bytes)
{
    aclrtSetDevice(1);
    aclrtDeviceEnablePeerAccess(0, 0);
    CHECK_RC(aclrtMalloc(d1, bytes, ACL_MEM_MALLOC_HUGE_FIRST_P2P), 0);
    aclrtSetDevice(0);
    aclrtDeviceEnablePeerAccess(1, 0);
    CHECK_RC(aclrtMalloc(d0, bytes, ACL_MEM_MALLOC_HUGE_FIRST_P2P), 0);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool wanted(const char *name, int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strstr(name, argv[i]))
            return true;
    return false;
}

/* test_cuda.c: the whole of a process that uses only the CUDA face (--cuda-face-only). */
int cuda_face_only(void);

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--cuda-face-only") == 0)
        return cuda_face_only();
    snprintf(dir, sizeof dir, "/tmp/lwsim-test-XXXXXX");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 2; }
    setenv("LINKWATCH_SIM_CONTROL", tmp_path("control"), 1);
    unsetenv("LINKWATCH_SIM_TIMING");
    unsetenv("HCCL_EXEC_TIMEOUT");
    unsetenv("HCCL_CONNECT_TIMEOUT");
    unsetenv("HCCL_IF_IP");
    unsetenv("NCCL_SOCKET_IFNAME");
    /* This runner calls aclInit: without this its own exit would wait for device logs. */
    setenv("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", "0", 1);
    int passed = 0, failed = 0;
    /* `sim-tests NAME...`: only the tests whose names contain one of the words */
#define WANTED(t) (argc < 2 || wanted(#t, argc, argv))
#define RUN(t) if (WANTED(t)) do { check_failures = 0; set_control(NULL); use_profile(NULL); aclrtSetDevice(0); \
        double t0_ = now_s(); t(); fprintf(stderr, "%-26s %5.2f s\n", #t, now_s() - t0_); \
        if (check_failures) { failed++; fprintf(stderr, "FAILED %s\n", #t); } else passed++; } while (0);
    TESTS(RUN)
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
