/* test_visible.c - ASCEND_RT_VISIBLE_DEVICES, and the P2P allocation policy of copies between
 * devices. */
#define _GNU_SOURCE
#include "check.h"
#include <stdlib.h>
#include <unistd.h>

#define MiB (1024UL * 1024UL)

/* aclInit again with the variable set to value (NULL: unset) and the given profile file. */
static uint32_t init_visible(const char *value, const char *profile)
{
    aclFinalize();
    aclGetRecentErrMsg();
    if (value)
        setenv("ASCEND_RT_VISIBLE_DEVICES", value, 1);
    else
        unsetenv("ASCEND_RT_VISIBLE_DEVICES");
    if (profile)
        setenv("LINKWATCH_SIM_PROFILE", profile, 1);
    else
        unsetenv("LINKWATCH_SIM_PROFILE");
    uint32_t n = 99;
    CHECK_RC(aclInit(NULL), 0);
    CHECK_RC(aclrtGetDeviceCount(&n), 0);
    return n;
}

void test_visible_devices(void)
{
    /* The A3 profile's dies are phy 2 and 3: with "1" the second die is device 0. */
    CHECK(init_visible("1", NULL) == 1);
    int32_t phy = -1;
    CHECK_RC(aclrtGetPhyDevIdByLogicDevId(0, &phy), 0);
    CHECK(phy == 3);
    CHECK_RC(aclrtGetPhyDevIdByLogicDevId(1, &phy), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_RC(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
    CHECK_MSG("1 device(s) visible");
    CHECK_RC(aclrtSetDevice(0), 0);
    /* The control file numbers devices as the host does: a job on host device 1 is on this
     * process's device 0, and one on host device 0 is not. */
    size_t free0 = 0, total = 0;
    set_control("busy 0 pid 4242 memory 4294967296\n");
    CHECK_RC(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), 0);
    CHECK(free0 == total);
    set_control("busy 1 pid 4242 memory 4294967296\n");
    CHECK_RC(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), 0);
    CHECK(total - free0 == 4294967296UL);
    set_control(NULL);
    /* DCMI does not apply the variable: host device 1 is card 0 chip 1, and DCMI lists this
     * process on it, as this process holds its device 0. */
    int card = -1, chip = -1;
    CHECK_RC(dcmi_init(), 0);
    CHECK_RC(dcmi_get_card_id_device_id_from_logicid(&card, &chip, 1), 0);
    CHECK(card == 0 && chip == 1);
    struct dcmi_proc_mem_info procs[DCMI_MAX_PROC_NUM];
    int nproc = -1;
    CHECK_RC(dcmi_get_device_resource_info(0, 1, procs, &nproc), 0);
    CHECK(nproc == 1 && procs[0].proc_id == (int)getpid());
    CHECK_RC(dcmi_get_device_resource_info(0, 0, procs, &nproc), 0);
    CHECK(nproc == 0);
    CHECK_RC(aclrtResetDevice(0), 0);

    /* Two of eight: links and physical ids come along, renumbered. */
    CHECK(init_visible("1,3", PROFILE_DIR "/8x910b-hccs.profile") == 2);
    CHECK_RC(aclrtGetPhyDevIdByLogicDevId(1, &phy), 0);
    CHECK(phy == 3);
    uint64_t topo = 0;
    CHECK_RC(aclrtGetDevicesTopo(0, 1, &topo), 0);
    CHECK(topo == ACL_RT_DEVS_TOPOLOGY_HCCS);
    /* A group of the visible devices, under their new numbers (HcclCommInitAll takes the ids
     * aclrtSetDevice takes). */
    HcclComm comms[2];
    int32_t devices[2] = { 0, 1 };
    CHECK_RC(HcclCommInitAll(2, devices, comms), 0);
    CHECK_RC(HcclCommDestroy(comms[0]), 0);
    CHECK_RC(HcclCommDestroy(comms[1]), 0);
    int32_t hidden[2] = { 0, 3 };
    CHECK(HcclCommInitAll(2, hidden, comms) != 0);

    init_visible(NULL, NULL);
}

void test_visible_parsing(void)
{
    const char *eight = PROFILE_DIR "/8x910b-hccs.profile";
    /* The documented examples: a space ends the list, an invalid id ends it. */
    CHECK(init_visible("1, 2,3", eight) == 1);
    CHECK(init_visible("1,3,8", eight) == 2);
    CHECK(init_visible("0,1,2,3,4,5,6,7", eight) == 8);
    /* Only ascending lists are supported: a smaller or repeated id ends the list. */
    CHECK(init_visible("2,1", eight) == 1);
    CHECK(init_visible("2,2", eight) == 1);
    /* Nothing valid: no device. */
    CHECK(init_visible("", eight) == 0);
    CHECK(init_visible("x", eight) == 0);
    CHECK_RC(aclrtSetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
    int32_t phy;
    CHECK(init_visible("5", eight) == 1);
    CHECK_RC(aclrtGetPhyDevIdByLogicDevId(0, &phy), 0);
    CHECK(phy == 5);
    init_visible(NULL, NULL);
}

void test_p2p_policy(void)
{
    void *d0, *d1, *plain, *h;
    peer_pair(&d0, &d1, MiB);
    /* Copies between devices need *_P2P memory on both sides (aclrtMemMallocPolicy.md). */
    CHECK_RC(aclrtMemcpy(d1, MiB, d0, MiB, ACL_MEMCPY_DEVICE_TO_DEVICE), 0);
    CHECK_RC(aclrtMalloc(&plain, MiB, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    CHECK_RC(aclrtMemcpy(d1, MiB, plain, MiB, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("the src on device 0 was allocated with ACL_MEM_MALLOC_HUGE_FIRST");
    CHECK_RC(aclrtMemcpyAsync(plain, MiB, d1, MiB, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL),
             ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("needs memory allocated with a *_P2P policy");
    /* On one device, and to or from the host, any policy will do. */
    CHECK_RC(aclrtMemcpy(plain, MiB, d0, MiB, ACL_MEMCPY_DEVICE_TO_DEVICE), 0);
    CHECK_RC(aclrtMallocHost(&h, MiB), 0);
    CHECK_RC(aclrtMemcpy(plain, MiB, h, MiB, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    /* aclrtMallocWithCfg: the same memory, with an optional configuration. */
    void *cfgd = NULL;
    aclrtMallocConfig empty = { NULL, 0 }, broken = { NULL, 2 };
    CHECK_RC(aclrtMallocWithCfg(&cfgd, MiB, ACL_MEM_MALLOC_HUGE_FIRST_P2P, &broken), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("attrs is NULL");
    CHECK_RC(aclrtMallocWithCfg(&cfgd, 0, ACL_MEM_MALLOC_HUGE_FIRST_P2P, NULL), ACL_ERROR_INVALID_PARAM);
    CHECK_RC(aclrtMallocWithCfg(&cfgd, MiB, ACL_MEM_MALLOC_HUGE_FIRST_P2P, &empty), 0);
    CHECK_RC(aclrtMemcpy(d1, MiB, cfgd, MiB, ACL_MEMCPY_DEVICE_TO_DEVICE), 0);
    CHECK_RC(aclrtFree(cfgd), 0);
    CHECK_RC(aclrtMallocWithCfg(&cfgd, MiB, ACL_MEM_MALLOC_NORMAL_ONLY, NULL), 0);
    CHECK_RC(aclrtMemcpy(d1, MiB, cfgd, MiB, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("ACL_MEM_MALLOC_NORMAL_ONLY");
    /* The band-width bits do not change the page policy. */
    void *wide = NULL;
    CHECK_RC(aclrtMalloc(&wide, MiB, ACL_MEM_MALLOC_HUGE_FIRST_P2P | ACL_MEM_TYPE_HIGH_BAND_WIDTH), 0);
    CHECK_RC(aclrtMemcpy(d1, MiB, wide, MiB, ACL_MEMCPY_DEVICE_TO_DEVICE), 0);
    aclrtFree(wide);
    aclrtFree(cfgd);
    aclrtFreeHost(h);
    aclrtFree(plain);
    aclrtFree(d0);
    aclrtSetDevice(1);
    aclrtFree(d1);
    aclrtSetDevice(0);
}
