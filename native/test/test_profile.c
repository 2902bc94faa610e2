/* test_profile.c - profile parse errors name file and line; shipped profiles load. */
#define _GNU_SOURCE
#include "check.h"
#include <stdlib.h>

static void expect_error(const char *text, const char *want)
{
    CHECK_RC(use_profile(text), ACL_ERROR_INVALID_PARAM);
    const char *m = aclGetRecentErrMsg();
    if (!m || !strstr(m, want) || !strstr(m, "test.profile")) {
        check_failures++;
        fprintf(stderr, "  FAIL profile error '%s' lacks '%s'\n", m ? m : "(null)", want);
    }
}

void test_profile_errors(void)
{
    expect_error("device 0 memory 64GiB\nlink 0 1 SIO bandwidth 1GB/s latency 1us\n",
                 ":2: device 1 is not declared");
    expect_error("# c\n\ndevice 0 memory 64GiB\ndevice 1 memory 1GiB\n"
                 "link 0 1 FOO bandwidth 1GB/s latency 1us\n", ":5: unknown link type 'FOO'");
    expect_error("device 0 memory 64Gb\n", ":1: bad size");
    expect_error("device 0 memory 1GiB\ndevice 0 memory 1GiB\n", ":2: device 0 declared twice");
    expect_error("device 0 memory 1GiB\nlocal bandwidth 5Gbps latency 1us\n", ":2: bad bandwidth");
    expect_error("device 0 memory 1GiB\nhccl timeout 5 minutes\n", ":2: expected 'hccl timeout T'");
    expect_error("device 0 memory 1GiB\ntiming fast\n", ":2: expected 'timing model|passthrough'");
    expect_error("device 0 memory 1GiB\nfrobnicate\n", ":2: unknown keyword 'frobnicate'");
    expect_error("device 1 memory 1GiB\n", "device 0 is missing");
    expect_error("device 0 memory 1GiB\ndevice 1 memory 1GiB\nbidirectional 0 1 1.5\n",
                 ":3: bidirectional 0 1: give both directions' link lines first");
    expect_error("device 0 memory 1GiB\ndevice 1 memory 1GiB\n"
                 "link 0 1 SIO bandwidth 1GB/s latency 1us\nbidirectional 0 1 2.5\n",
                 ":4: bad bidirectional ratio '2.5'");
    expect_error("soc X\n", "no 'device' line");
    /* A good file with every line kind, oneway links and units. */
    CHECK_RC(use_profile("soc TestSoc\ndevice 0 memory 2GB phy 7\ndevice 1 memory 512MiB\n"
                         "link 0 1 HCCS_SW bandwidth 800MB/s latency 3us oneway\n"
                         "local bandwidth 100GB/s latency 500ns\npinned h2d 1GB/s d2h 2GB/s latency 0.1ms\n"
                         "pageable cpu 0 mem 1 h2d 1GB/s d2h 1GB/s\npageable default h2d 1GB/s d2h 1GB/s latency 1us\n"
                         "allreduce latency 1ms busbw 1GB/s\nhccl timeout 2s\ntiming passthrough\nnoise 0\n"
                         "affinity 0 0-15,32-47\n"), 0);
    uint32_t n;
    int32_t phy, can;
    size_t fr, tot;
    uint64_t topo;
    aclrtGetDeviceCount(&n);
    CHECK(n == 2);
    CHECK(strcmp(aclrtGetSocName(), "TestSoc") == 0);
    aclrtGetPhyDevIdByLogicDevId(0, &phy);
    CHECK(phy == 7);
    aclrtSetDevice(1);
    aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot);
    CHECK(tot == 512UL << 20);
    CHECK_RC(aclrtGetDevicesTopo(0, 1, &topo), 0);
    CHECK(topo == ACL_RT_DEVS_TOPOLOGY_HCCS_SW);
    CHECK_RC(aclrtDeviceCanAccessPeer(&can, 1, 0), 0);
    CHECK(can == 0);                     /* oneway */
    CHECK(strcmp(linkwatch_sim_affinity(0), "0-15,32-47") == 0);
    CHECK(linkwatch_sim_affinity(1) == NULL);
    CHECK_RC(use_profile(NULL), 0);
}

void test_profiles_shipped(void)
{
    uint32_t n;
    uint64_t topo;
    setenv("LINKWATCH_SIM_PROFILE", PROFILE_DIR "/8x910b-hccs.profile", 1);
    aclFinalize();
    CHECK_RC(aclInit(NULL), 0);
    aclrtGetDeviceCount(&n);
    CHECK(n == 8);
    CHECK(strcmp(aclrtGetSocName(), "Ascend910B3") == 0);
    CHECK_RC(aclrtGetDevicesTopo(3, 6, &topo), 0);
    CHECK(topo == ACL_RT_DEVS_TOPOLOGY_HCCS);
    setenv("LINKWATCH_SIM_PROFILE", PROFILE_DIR "/single-device.profile", 1);
    aclFinalize();
    CHECK_RC(aclInit(NULL), 0);
    aclrtGetDeviceCount(&n);
    CHECK(n == 1);
    /* The shipped A3 file is the built-in default. */
    setenv("LINKWATCH_SIM_PROFILE", PROFILE_DIR "/atlas-800t-a3.profile", 1);
    aclFinalize();
    CHECK_RC(aclInit(NULL), 0);
    CHECK(strcmp(aclrtGetSocName(), "Ascend910_9382") == 0);
    CHECK_RC(use_profile(NULL), 0);
}
