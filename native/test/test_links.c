/* test_links.c - passive link telemetry: DCMI's HCCS/SIO status, lanes and
 * counters, the shared counters file, and the link faults of the control file. */
#define _GNU_SOURCE
#include "check.h"
#include "linkwatch_sim_cuda.h"
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MiB (1024UL * 1024UL)

void test_links_structs(void)
{
    CHECK(sizeof(struct dcmi_hccs_statues) == 12);
    CHECK(offsetof(struct dcmi_hccs_statues, hdlc_status) == 4);
    CHECK(sizeof(struct dcmi_hccs_lane_info) == 132);
    CHECK(offsetof(struct dcmi_hccs_lane_info, pcs_lane_bitmap) == 4);
    CHECK(sizeof(struct dcmi_hccs_statistic_info) == 512);
    CHECK(offsetof(struct dcmi_hccs_statistic_info, rx_cnt) == 64);
    CHECK(offsetof(struct dcmi_hccs_statistic_info, crc_err_cnt) == 128);
    CHECK(offsetof(struct dcmi_hccs_statistic_info, retry_cnt) == 192);
    CHECK(sizeof(struct dcmi_hccs_statistic_info_u64) == 1024);
    CHECK(offsetof(struct dcmi_hccs_statistic_info_u64, rx_cnt) == 128);
    CHECK(offsetof(struct dcmi_hccs_statistic_info_u64, crc_err_cnt) == 256);
    CHECK(offsetof(struct dcmi_hccs_statistic_info_u64, retry_cnt) == 384);
    CHECK(sizeof(struct dcmi_sio_crc_err_statistics_info) == 12);
    CHECK(offsetof(struct dcmi_sio_crc_err_statistics_info, rx_error_count) == 2);
    CHECK(sizeof(struct dcmi_pcie_info_all) == 64);
    CHECK(offsetof(struct dcmi_pcie_info_all, domain) == 16);
    CHECK(offsetof(struct dcmi_pcie_info_all, bdf_funcid) == 28);
    CHECK(offsetof(struct dcmi_pcie_info_all, reserve) == 32);
    CHECK(sizeof(struct dcmi_network_pkt_stats_info) == 464);
    CHECK(offsetof(struct dcmi_network_pkt_stats_info, mac_rx_pfc_pkt_num) == 11 * 8);
    CHECK(offsetof(struct dcmi_network_pkt_stats_info, mac_rx_fcs_err_pkt_num) == 28 * 8);
    CHECK(offsetof(struct dcmi_network_pkt_stats_info, roce_err_ack_num) == 38 * 8);
    CHECK(offsetof(struct dcmi_network_pkt_stats_info, nic_rx_all_oct_num) == 47 * 8);
    CHECK(offsetof(struct dcmi_network_pkt_stats_info, tv_sec) == 384);
    CHECK(sizeof(struct dcmi_ip_addr) == 20 && offsetof(struct dcmi_ip_addr, ip_type) == 16);
    CHECK(sizeof(nvmlFieldValue_t) == 40);
    CHECK(offsetof(nvmlFieldValue_t, fieldId) == 0 && offsetof(nvmlFieldValue_t, scopeId) == 4);
    CHECK(offsetof(nvmlFieldValue_t, timestamp) == 8 && offsetof(nvmlFieldValue_t, latencyUsec) == 16);
    CHECK(offsetof(nvmlFieldValue_t, valueType) == 24 && offsetof(nvmlFieldValue_t, nvmlReturn) == 28);
    CHECK(offsetof(nvmlFieldValue_t, value) == 32);
}

static void use_hccs_profile(void)
{
    aclFinalize();
    setenv("LINKWATCH_SIM_PROFILE", PROFILE_DIR "/8x910b-hccs.profile", 1);
    CHECK_RC(aclInit(NULL), 0);
    CHECK_RC(dcmi_init(), 0);
    aclrtSetDevice(0);
}

/* DCMI device `logic` (card logic/2, die logic%2), HCCS sub-command into buf. */
static int hccs(int logic, unsigned sub, void *buf, unsigned size)
{
    unsigned sz = size;
    int rc = dcmi_get_device_info(logic / 2, logic % 2, DCMI_MAIN_CMD_HCCS, sub, buf, &sz);
    if (rc == 0 && sz != size)
        return -1;
    return rc;
}

static struct dcmi_hccs_statistic_info_u64 stats(int logic)
{
    struct dcmi_hccs_statistic_info_u64 s;
    memset(&s, 0xff, sizeof s);
    CHECK_RC(hccs(logic, DCMI_HCCS_CMD_GET_STATISTIC_INFO_U64, &s, sizeof s), 0);
    return s;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

struct rank { HcclComm comm; int dev; void *send, *recv; uint64_t count; int rc; };

static void *rank_main(void *arg)
{
    struct rank *r = arg;
    aclrtSetDevice(r->dev);
    r->rc = HcclAllReduce(r->send, r->recv, r->count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r->comm, NULL);
    return NULL;
}

/* Copies and collectives put flits on the ports that carry the pair (port k
 * of a device carries its k-th HCCS peer in ascending order). */
void test_links_dcmi_traffic(void)
{
    use_hccs_profile();
    void *d0, *d1;
    peer_pair(&d0, &d1, 4 * MiB);
    struct dcmi_hccs_statistic_info_u64 a0 = stats(0), a1 = stats(1), a3 = stats(3);
    CHECK(a0.tx_cnt[0] == 0 && a0.reserved[0] == 0);         /* the caller's area is zeroed */
    CHECK_RC(aclrtMemcpy(d1, 4 * MiB, d0, 1 * MiB + 1, ACL_MEMCPY_DEVICE_TO_DEVICE), 0);
    struct dcmi_hccs_statistic_info_u64 b0 = stats(0), b1 = stats(1), b3 = stats(3);
    uint64_t fl = (MiB + 1 + 19) / 20;                        /* 20-byte flits, rounded up */
    CHECK(b0.tx_cnt[1] - a0.tx_cnt[1] == fl);                 /* device 0's port 1 carries device 1 */
    CHECK(b1.rx_cnt[1] - a1.rx_cnt[1] == fl);                 /* device 1's port 1 carries device 0 */
    CHECK(b0.rx_cnt[1] == a0.rx_cnt[1] && b1.tx_cnt[1] == a1.tx_cnt[1]);
    CHECK(b0.tx_cnt[2] == a0.tx_cnt[2] && b3.rx_cnt[1] == a3.rx_cnt[1]);
    /* the u32 struct shows the same low bits */
    struct dcmi_hccs_statistic_info s32;
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATISTIC_INFO, &s32, sizeof s32), 0);
    CHECK(s32.tx_cnt[1] == (unsigned)b0.tx_cnt[1]);

    /* a 2-rank allreduce of 1 MiB moves 2(n-1)/n x 1 MiB each way per rank */
    HcclComm comms[2];
    int32_t devs[2] = { 0, 1 };
    CHECK_RC(HcclCommInitAll(2, devs, comms), 0);
    struct rank r[2] = { { comms[0], 0, d0, (char *)d0 + 2 * MiB, MiB / 4, -1 }, { comms[1], 1, d1, (char *)d1 + 2 * MiB, MiB / 4, -1 } };
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, rank_main, &r[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    CHECK(r[0].rc == 0 && r[1].rc == 0);
    struct dcmi_hccs_statistic_info_u64 c0 = stats(0), c1 = stats(1);
    CHECK(c0.tx_cnt[1] - b0.tx_cnt[1] == (MiB + 19) / 20 && c0.rx_cnt[1] - b0.rx_cnt[1] == (MiB + 19) / 20);
    CHECK(c1.tx_cnt[1] - b1.tx_cnt[1] == (MiB + 19) / 20 && c1.rx_cnt[1] - b1.rx_cnt[1] == (MiB + 19) / 20);
    CHECK(c0.tx_cnt[2] == b0.tx_cnt[2]);                      /* no rank on device 2 */
    HcclCommDestroy(comms[0]);
    HcclCommDestroy(comms[1]);

    /* a second process (fork) sees this one's counters, and this one the child's */
    pid_t pid = fork();
    if (pid == 0) {
        struct dcmi_hccs_statistic_info_u64 s;
        unsigned sz = sizeof s;
        if (dcmi_get_device_info(0, 0, DCMI_MAIN_CMD_HCCS, 5, &s, &sz) != 0 || s.tx_cnt[1] != c0.tx_cnt[1])
            _exit(1);
        _exit(aclrtMemcpy(d1, 4 * MiB, d0, 40, ACL_MEMCPY_DEVICE_TO_DEVICE) == 0 ? 0 : 2);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(stats(0).tx_cnt[1] == c0.tx_cnt[1] + 2);

    /* LINKWATCH_SIM_COUNTERS names the file; one of another layout (or garbage) starts from zero */
    write_file(tmp_path("other.counters"), "not a counters file");
    setenv("LINKWATCH_SIM_COUNTERS", tmp_path("other.counters"), 1);
    struct dcmi_hccs_statistic_info_u64 o = stats(0);
    CHECK(o.tx_cnt[1] == 0 && o.rx_cnt[1] == 0 && o.crc_err_cnt[1] == 0);
    CHECK_RC(aclrtMemcpy(d1, 4 * MiB, d0, 20, ACL_MEMCPY_DEVICE_TO_DEVICE), 0);
    CHECK(stats(0).tx_cnt[1] == 1);
    unsetenv("LINKWATCH_SIM_COUNTERS");
    CHECK(stats(0).tx_cnt[1] == c0.tx_cnt[1] + 2);

    struct dcmi_pcie_info_all pci;
    CHECK_RC(dcmi_get_device_pcie_info_v2(1, 1, &pci), 0);        /* logical 3: 0000:04:00.0 */
    CHECK(pci.venderid == 0x19e5 && pci.deviceid == 0xd802 && pci.domain == 0 && pci.bdf_busid == 4 &&
          pci.bdf_deviceid == 0 && pci.bdf_funcid == 0);
    aclrtFree(d0);
    aclrtFree(d1);
}

/* lanes/down lines: status, lane info, and a copy's modeled bandwidth. */
void test_links_dcmi_lanes(void)
{
    use_hccs_profile();
    void *d0, *d1;
    peer_pair(&d0, &d1, 64 * MiB);
    struct dcmi_hccs_statues st;
    struct dcmi_hccs_lane_info li;
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATUS, &st, sizeof st), 0);
    CHECK(st.pcs_status == 0 && st.hdlc_status == 3);
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_LANE_INFO, &li, sizeof li), 0);
    CHECK(li.hccs_port_pcs_bitmap == 0xfe);                   /* PCS 1..7: seven peers */
    CHECK(li.pcs_lane_bitmap[0] == (0x1u | 0x1eu | 2u << 9) && li.pcs_lane_bitmap[6] == li.pcs_lane_bitmap[0]);
    CHECK(li.pcs_lane_bitmap[7] == 0);
    double full = copy_gbps(d1, d0, 64 * MiB, NULL, 3);
    /* malformed lines are ignored: port out of range, 3 lanes, a key of another kind, no key */
    set_control("hccs 0 16 down\nhccs 0 1 lanes 3\nhccs 0 1 crc-tx 5\nhccs 0 1\nsio 0 crc 1\n"
                "nvlink 0 36 down\npcie 0 gen 9\nfail dcmi_get_device_info:16 -8255\nhccs 0 1 crc -1\n");
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATUS, &st, sizeof st), 0);
    CHECK(st.pcs_status == 0 && st.hdlc_status == 3);

    set_control("hccs 0 1 lanes 2\n");
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATUS, &st, sizeof st), 0);
    CHECK(st.pcs_status == (1u | 1u << 8) && st.hdlc_status == 3);
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_LANE_INFO, &li, sizeof li), 0);
    CHECK(li.pcs_lane_bitmap[0] == (0x1u | 0x6u | 3u << 9));
    double half = copy_gbps(d1, d0, 64 * MiB, NULL, 3);
    aclrtSetDevice(1);
    double back = copy_gbps(d0, d1, 64 * MiB, NULL, 3);       /* both directions of the pair */
    aclrtSetDevice(0);

    set_control("hccs 1 1 down\n");                             /* device 1's port to device 0 */
    CHECK_RC(hccs(1, DCMI_HCCS_CMD_GET_STATUS, &st, sizeof st), 0);
    CHECK(st.pcs_status == (1u | 1u << 8) && st.hdlc_status == 1);
    CHECK_RC(hccs(1, DCMI_HCCS_CMD_GET_LANE_INFO, &li, sizeof li), 0);
    CHECK(li.pcs_lane_bitmap[0] == 0 && li.pcs_lane_bitmap[1] == (0x1u | 0x1eu | 2u << 9));
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATUS, &st, sizeof st), 0);
    CHECK(st.pcs_status == 0);
    double down = copy_gbps(d1, d0, 64 * MiB, NULL, 3);
    fprintf(stderr, "  HCCS 0->1 64MiB: 4 lanes %.1f, 2 lanes %.1f (1->0 %.1f), port down %.2f GB/s\n", full,
            half, back, down);
    /* 56 GB/s, 20 us: 64 MiB takes 1.218 ms at 4 lanes, 2.417 at 2, 19.19 at 1/16 */
    CHECK_NEAR(half / full, 1.218 / 2.417, 0.03);
    CHECK_NEAR(back, half, 0.03);
    CHECK_NEAR(down / full, 1.218 / 19.19, 0.03);
    set_control(NULL);
    aclrtFree(d0);
    aclrtFree(d1);
}

/* crc/retry rates, base near 2^32, busy traffic, and unsupported commands. */
void test_links_dcmi_counters(void)
{
    use_hccs_profile();
    set_control("hccs 0 2 crc 10000 retry 5000\nhccs 0 3 base 4294967000 crc 20000\n"
                "busy 2 util 50 traffic 14GB/s\n");
    struct dcmi_hccs_statistic_info_u64 a = stats(0), a2 = stats(2);
    CHECK(a.tx_cnt[3] == 4294967000ULL && a.rx_cnt[3] == 4294967000ULL && a.retry_cnt[3] == 4294967000ULL);
    CHECK(a.crc_err_cnt[3] >= 4294967000ULL && a.crc_err_cnt[3] < 4294967000ULL + 200);
    sleep_ms(150);
    struct dcmi_hccs_statistic_info_u64 b = stats(0), b2 = stats(2);
    struct dcmi_hccs_statistic_info s32;
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATISTIC_INFO, &s32, sizeof s32), 0);
    double crc = (double)(b.crc_err_cnt[2] - a.crc_err_cnt[2]), retry = (double)(b.retry_cnt[2] - a.retry_cnt[2]);
    fprintf(stderr, "  150 ms: crc +%.0f, retry +%.0f, busy traffic +%llu flits on one port\n", crc, retry,
            (unsigned long long)(b2.tx_cnt[1] - a2.tx_cnt[1]));
    CHECK(crc >= 1400 && crc < 4000 && retry >= 700 && retry < 2000);
    CHECK(b.crc_err_cnt[3] > (1ULL << 32));                      /* u64 keeps counting */
    CHECK(s32.crc_err_cnt[3] < 100000);                         /* the u32 struct wrapped */
    CHECK(s32.tx_cnt[3] == 4294967000U);
    /* 14 GB/s over device 2's seven up ports: 1e8 flits/s each way on each */
    double per_port = (double)(b2.tx_cnt[1] - a2.tx_cnt[1]);
    CHECK(per_port >= 1.4e7 && per_port < 4e7);
    CHECK(b2.rx_cnt[7] - a2.rx_cnt[7] >= 1.4e7);
    /* a base line applies once, when first seen: the counters go on from it */
    CHECK(stats(0).tx_cnt[3] == 4294967000ULL);

    /* one sub-command unsupported, and the whole call */
    set_control("fail dcmi_get_device_info:16:5 -8255\n");
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATISTIC_INFO_U64, &b, sizeof b), -8255);
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATISTIC_INFO, &s32, sizeof s32), 0);
    set_control("fail dcmi_get_device_info -8255\n");
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATISTIC_INFO, &s32, sizeof s32), -8255);
    set_control(NULL);
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATISTIC_INFO, &s32, sizeof s32 - 1), -8001);   /* *size too small */
    CHECK_RC(hccs(0, 2, &s32, sizeof s32), -8255);              /* no such sub-command */
    unsigned sz = 12;
    CHECK_RC(dcmi_get_device_info(0, 0, DCMI_MAIN_CMD_SIO, 0, &s32, &sz), -8255);   /* no SIO here */
}

/* The A3: two dies joined by SIO only. */
void test_links_dcmi_sio(void)
{
    CHECK_RC(dcmi_init(), 0);                                    /* the built-in A3 profile */
    struct dcmi_hccs_statues st;
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_STATUS, &st, sizeof st), -8255);
    set_control("sio 1 base 65500 crc-tx 2000 crc-rx 10\n");
    struct dcmi_sio_crc_err_statistics_info s;
    unsigned sz = 100;
    memset(&s, 0xff, sizeof s);
    CHECK_RC(dcmi_get_device_info(0, 1, DCMI_MAIN_CMD_SIO, 0, &s, &sz), 0);
    CHECK(sz == 12 && s.tx_error_count >= 65500 && s.rx_error_count >= 65500 && s.reserved[7] == 0);
    sleep_ms(100);
    CHECK_RC(dcmi_get_device_info(0, 1, DCMI_MAIN_CMD_SIO, 0, &s, &sz), 0);
    CHECK(s.tx_error_count < 1000);                              /* u16: wrapped past 65535 */
    CHECK(s.rx_error_count >= 65500);
    set_control(NULL);
}

void test_links_dcmi_nic(void)
{
    CHECK_RC(dcmi_init(), 0);                                    /* the built-in A3 profile */
    set_control("nic 1 health Unreachable\nnic 1 errors roce_new_pkt_rty 2000\n"
                "nic 0 errors roce_out_of_order 2000\nbusy 1 pid 4242 traffic 1GB/s\n");
    int health = -1;
    CHECK_RC(dcmi_get_device_network_health(0, 1, &health), 0);
    CHECK(health == 3);
    CHECK_RC(dcmi_get_device_network_health(0, 0, &health), 0);
    CHECK(health == 0);
    struct dcmi_network_pkt_stats_info a, b;
    CHECK_RC(dcmi_get_netdev_pkt_stats_info(0, 1, 0, &a), 0);
    sleep_ms(100);
    CHECK_RC(dcmi_get_netdev_pkt_stats_info(0, 1, 0, &b), 0);
    CHECK(b.roce_new_pkt_rty_num > a.roce_new_pkt_rty_num && b.roce_err_psn_num == 0);
    CHECK(b.nic_tx_all_oct_num > a.nic_tx_all_oct_num && b.nic_rx_all_oct_num > a.nic_rx_all_oct_num);
    CHECK(b.tv_sec > 0 && b.reserved[63] == 0);
    CHECK_RC(dcmi_get_netdev_pkt_stats_info(0, 0, 0, &b), 0);   /* device 0: out of order as err_psn */
    CHECK(b.roce_err_psn_num > 0 && b.roce_new_pkt_rty_num == 0);
    CHECK_RC(dcmi_get_netdev_pkt_stats_info(0, 1, 1, &b), -8001);   /* port 0 only */
    struct dcmi_ip_addr ip, mask;
    CHECK_RC(dcmi_get_device_ip(0, 1, DCMI_ROCE_PORT, 0, &ip, &mask), 0);
    CHECK(ip.ip_type == DCMI_IPADDR_TYPE_V4 && ip.u_addr.ip4[0] == 192 && ip.u_addr.ip4[3] == 11);
    CHECK(mask.u_addr.ip4[0] == 255 && mask.u_addr.ip4[3] == 0);
    CHECK_RC(dcmi_get_device_ip(0, 1, DCMI_VNIC_PORT, 0, &ip, &mask), -8255);
    CHECK_RC(dcmi_get_device_ip(9, 0, DCMI_ROCE_PORT, 0, &ip, &mask), -8001);
    set_control("fail dcmi_get_device_network_health -8005\n");
    CHECK_RC(dcmi_get_device_network_health(0, 1, &health), -8005);
    set_control(NULL);
}

static void *hung_info(void *arg)
{
    struct dcmi_hccs_statues st;
    *(int *)arg = hccs(0, DCMI_HCCS_CMD_GET_STATUS, &st, sizeof st);
    return NULL;
}

void test_links_hang(void)
{
    use_hccs_profile();
    pthread_t t;
    int rc = -1;
    set_control("hang dcmi_get_device_info:16:0\n");
    struct dcmi_hccs_lane_info li;
    CHECK_RC(hccs(0, DCMI_HCCS_CMD_GET_LANE_INFO, &li, sizeof li), 0);   /* another sub-command */
    pthread_create(&t, NULL, hung_info, &rc);
    sleep_ms(150);
    CHECK(rc == -1);
    set_control(NULL);
    pthread_join(t, NULL);
    CHECK(rc == 0);
}

/* ---- NVML: NVLink and PCIe ----
 * cuInit cannot be undone, so these run in a fork of the runner (as test_cuda.c's). */

static void in_child(const char *name, void (*body)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        check_failures = 0;
        body();
        fflush(NULL);
        _exit(check_failures ? 1 : 0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        check_failures++;
        fprintf(stderr, "  FAIL %s: child %s\n", name, WIFEXITED(status) ? "reported failures" : "was killed");
    }
}

static nvmlDevice_t nv(unsigned i)
{
    nvmlDevice_t d = NULL;
    CHECK_RC(nvmlDeviceGetHandleByIndex_v2(i, &d), NVML_SUCCESS);
    return d;
}

/* One field of d: fieldId at scopeId; the entry's return code into *rc. */
static unsigned long long field(nvmlDevice_t d, unsigned id, unsigned scope, nvmlReturn_t *rc)
{
    nvmlFieldValue_t v;
    memset(&v, 0, sizeof v);
    v.fieldId = id;
    v.scopeId = scope;
    CHECK_RC(nvmlDeviceGetFieldValues(d, 1, &v), NVML_SUCCESS);
    *rc = v.nvmlReturn;
    return v.valueType == NVML_VALUE_TYPE_UNSIGNED_INT ? v.value.uiVal : v.value.ullVal;
}

static unsigned long long kib(nvmlDevice_t d, unsigned id, unsigned scope)
{
    nvmlReturn_t rc;
    unsigned long long v = field(d, id, scope, &rc);
    CHECK(rc == NVML_SUCCESS);
    return v;
}

struct nrank { ncclComm_t comm; int dev; size_t count; int rc; };

static void *nrank_main(void *arg)
{
    struct nrank *r = arg;
    CUcontext c;
    CUdeviceptr send, recv;
    cuDevicePrimaryCtxRetain(&c, r->dev);
    cuCtxSetCurrent(c);
    cuMemAlloc_v2(&send, r->count * 4);
    cuMemAlloc_v2(&recv, r->count * 4);
    r->rc = ncclAllReduce((void *)(uintptr_t)send, (void *)(uintptr_t)recv, r->count, ncclFloat32, ncclSum,
                          r->comm, NULL);
    cuMemFree_v2(send);
    cuMemFree_v2(recv);
    return NULL;
}

struct pcopy { CUdeviceptr dst, src; CUcontext dctx, sctx; size_t bytes; CUstream s; };

static double peer_gbps(struct pcopy *c, int iters)
{
    CUevent a, b;
    double v[8];
    cuEventCreate(&a, CU_EVENT_DEFAULT);
    cuEventCreate(&b, CU_EVENT_DEFAULT);
    for (int i = 0; i < iters; i++) {
        float ms = 0;
        cuEventRecord(a, c->s);
        CHECK_RC(cuMemcpyPeerAsync(c->dst, c->dctx, c->src, c->sctx, c->bytes, c->s), CUDA_SUCCESS);
        cuEventRecord(b, c->s);
        cuEventSynchronize(b);
        cuEventElapsedTime(&ms, a, b);
        v[i] = (double)c->bytes / (ms * 1e-3) / 1e9;
    }
    cuEventDestroy_v2(a);
    cuEventDestroy_v2(b);
    return median(v, iters);
}

static void nvml_links(void)
{
    CHECK_RC(nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t d0 = nv(0), d1 = nv(1), d2 = nv(2);
    nvmlEnableState_t on = NVML_FEATURE_DISABLED;
    nvmlIntNvLinkDeviceType_t type = NVML_NVLINK_DEVICE_TYPE_UNKNOWN;
    nvmlPciInfo_t pci;
    nvmlReturn_t rc;
    unsigned long long v = 0;
    /* hgx-h200: 18 links per GPU, all into NVSwitches */
    CHECK_RC(nvmlDeviceGetNvLinkState(d0, 17, &on), NVML_SUCCESS);
    CHECK(on == NVML_FEATURE_ENABLED);
    CHECK_RC(nvmlDeviceGetNvLinkState(d0, 18, &on), NVML_ERROR_INVALID_ARGUMENT);
    CHECK_RC(nvmlDeviceGetNvLinkRemoteDeviceType(d0, 0, &type), NVML_SUCCESS);
    CHECK(type == NVML_NVLINK_DEVICE_TYPE_SWITCH);
    CHECK_RC(nvmlDeviceGetNvLinkRemotePciInfo_v2(d0, 0, &pci), NVML_SUCCESS);
    CHECK(strcmp(pci.busId, "00000000:F1:00.0") == 0 && pci.pciDeviceId == 0x22A310DEu);
    CHECK_RC(nvmlDeviceGetNvLinkRemotePciInfo_v2(d0, 17, &pci), NVML_SUCCESS);
    CHECK(strcmp(pci.busId, "00000000:F4:00.0") == 0);
    CHECK(field(d0, NVML_FI_DEV_NVLINK_LINK_COUNT, 0, &rc) == 18 && rc == NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetNvLinkErrorCounter(d0, 0, NVML_NVLINK_ERROR_DL_ECC_DATA, &v), NVML_ERROR_NOT_SUPPORTED);

    /* a peer copy: its bytes spread over the source's links (tx) and the destination's (rx) */
    CHECK_RC(cuInit(0), CUDA_SUCCESS);
    CUcontext c0, c1;
    CUdeviceptr b0, b1;
    CUstream s;
    cuDevicePrimaryCtxRetain(&c1, 1);
    cuCtxSetCurrent(c1);
    CHECK_RC(cuMemAlloc_v2(&b1, 64 * MiB), CUDA_SUCCESS);
    cuDevicePrimaryCtxRetain(&c0, 0);
    cuCtxSetCurrent(c0);
    CHECK_RC(cuMemAlloc_v2(&b0, 64 * MiB), CUDA_SUCCESS);
    CHECK_RC(cuCtxEnablePeerAccess(c1, 0), CUDA_SUCCESS);
    cuStreamCreate(&s, 0);
    unsigned long long tx0 = kib(d0, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 0xFFFFFFFFu),
                       tx0l = kib(d0, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 5),
                       rx1 = kib(d1, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX, 0xFFFFFFFFu),
                       rx0 = kib(d0, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX, 0xFFFFFFFFu);
    CHECK_RC(cuMemcpyPeer(b1, c1, b0, c0, 18 * MiB), CUDA_SUCCESS);
    CHECK(kib(d0, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 0xFFFFFFFFu) - tx0 == 18 * 1024);
    CHECK(kib(d0, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 5) - tx0l == 1024);
    CHECK(kib(d1, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX, 0xFFFFFFFFu) - rx1 == 18 * 1024);
    CHECK(kib(d0, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX, 0xFFFFFFFFu) == rx0);

    /* a 2-rank allreduce of 1152 KiB: that much each way per rank, 64 KiB per link */
    ncclComm_t comms[2];
    CHECK_RC(ncclCommInitAll(comms, 2, NULL), ncclSuccess);
    struct nrank r[2] = { { comms[0], 0, 18 * 65536 / 4, -1 }, { comms[1], 1, 18 * 65536 / 4, -1 } };
    unsigned long long t1 = kib(d1, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 0), r0 = kib(d0, 139, 0xFFFFFFFFu);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, nrank_main, &r[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    CHECK(r[0].rc == ncclSuccess && r[1].rc == ncclSuccess);
    CHECK(kib(d1, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 0) - t1 == 64);
    CHECK(kib(d0, 139, 0xFFFFFFFFu) - r0 == 1152);
    ncclCommDestroy(comms[0]);
    ncclCommDestroy(comms[1]);

    /* links down: state, and a copy from the device gets (up links / all links) */
    cuCtxSetCurrent(c0);
    struct pcopy pc = { b1, b0, c1, c0, 64 * MiB, s };
    double full = peer_gbps(&pc, 3);
    char ctl[512] = "";
    for (int l = 0; l < 9; l++)
        snprintf(ctl + strlen(ctl), sizeof ctl - strlen(ctl), "nvlink 0 %d down\n", 2 * l);
    set_control(ctl);
    CHECK_RC(nvmlDeviceGetNvLinkState(d0, 2, &on), NVML_SUCCESS);
    CHECK(on == NVML_FEATURE_DISABLED);
    CHECK(field(d0, NVML_FI_DEV_NVLINK_GET_STATE, 2, &rc) == 0 && rc == NVML_SUCCESS);
    CHECK(field(d0, NVML_FI_DEV_NVLINK_GET_STATE, 3, &rc) == 1);
    double half = peer_gbps(&pc, 3);
    tx0 = kib(d0, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 1);
    CHECK_RC(cuMemcpyPeer(b1, c1, b0, c0, 9 * MiB), CUDA_SUCCESS);
    CHECK(kib(d0, NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 1) - tx0 == 1024);   /* 9 links up */
    fprintf(stderr, "  NVLink 0->1 64MiB: 18 links %.1f GB/s, 9 links %.1f\n", full, half);
    /* 370 GB/s, 10 us: 0.1914 ms with all links, 0.3727 with half */
    CHECK_NEAR(half / full, 0.1914 / 0.3727, 0.03);

    /* error counters, PCIe: rates, base, lowered gen/width */
    set_control("nvlink 1 2 replay 10000 crc-flit 5000 base 1000\npcie 2 replay 2000 gen 3 width 8\n");
    CHECK_RC(nvmlDeviceGetNvLinkErrorCounter(d1, 2, NVML_NVLINK_ERROR_DL_REPLAY, &v), NVML_SUCCESS);
    CHECK(v == 1000);
    unsigned replay0 = 0, gen = 0, width = 0;
    CHECK_RC(nvmlDeviceGetPcieReplayCounter(d2, &replay0), NVML_SUCCESS);
    sleep_ms(100);
    CHECK_RC(nvmlDeviceGetNvLinkErrorCounter(d1, 2, NVML_NVLINK_ERROR_DL_REPLAY, &v), NVML_SUCCESS);
    CHECK(v >= 1900 && v < 4000);
    CHECK_RC(nvmlDeviceGetNvLinkErrorCounter(d1, 2, NVML_NVLINK_ERROR_DL_RECOVERY, &v), NVML_SUCCESS);
    CHECK(v == 1000);
    unsigned long long flit = field(d1, NVML_FI_DEV_NVLINK_ERROR_DL_CRC, 2, &rc);
    CHECK(rc == NVML_SUCCESS && flit >= 1450 && flit < 3000);
    CHECK(field(d1, NVML_FI_DEV_NVLINK_ERROR_DL_REPLAY, 3, &rc) == 0 && rc == NVML_SUCCESS);
    unsigned replay = 0;
    CHECK_RC(nvmlDeviceGetPcieReplayCounter(d2, &replay), NVML_SUCCESS);
    CHECK(replay - replay0 >= 190 && replay - replay0 < 600);
    CHECK(field(d2, NVML_FI_DEV_PCIE_REPLAY_COUNTER, 0, &rc) >= replay);
    CHECK_RC(nvmlDeviceGetCurrPcieLinkGeneration(d2, &gen), NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetCurrPcieLinkWidth(d2, &width), NVML_SUCCESS);
    CHECK(gen == 3 && width == 8);
    CHECK_RC(nvmlDeviceGetMaxPcieLinkGeneration(d2, &gen), NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetMaxPcieLinkWidth(d2, &width), NVML_SUCCESS);
    CHECK(gen == 5 && width == 16);
    CHECK_RC(nvmlDeviceGetCurrPcieLinkGeneration(d0, &gen), NVML_SUCCESS);
    CHECK(gen == 5);

    /* a batch: each entry has its own return, type and timestamp */
    nvmlFieldValue_t f[4] = { { .fieldId = 138, .scopeId = 0 }, { .fieldId = 140, .scopeId = 0 },
                              { .fieldId = 165, .scopeId = 30 }, { .fieldId = 91 } };
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    CHECK_RC(nvmlDeviceGetFieldValues(d0, 4, f), NVML_SUCCESS);
    CHECK(f[0].nvmlReturn == NVML_SUCCESS && f[0].valueType == NVML_VALUE_TYPE_UNSIGNED_LONG_LONG);
    CHECK(f[0].timestamp / 1000000 - now.tv_sec <= 1 && f[0].timestamp / 1000000 >= now.tv_sec);
    CHECK(f[1].nvmlReturn == NVML_ERROR_NOT_SUPPORTED);            /* raw throughput: not modeled */
    CHECK(f[2].nvmlReturn == NVML_ERROR_INVALID_ARGUMENT);         /* no link 30 */
    CHECK(f[3].nvmlReturn == NVML_SUCCESS && f[3].valueType == NVML_VALUE_TYPE_UNSIGNED_INT && f[3].value.uiVal == 18);
    set_control("fail nvmlDeviceGetFieldValues 999\n");
    CHECK_RC(nvmlDeviceGetFieldValues(d0, 4, f), NVML_ERROR_UNKNOWN);
    set_control(NULL);

    cuMemFree_v2(b0);
    cuMemFree_v2(b1);
    cuStreamDestroy_v2(s);
    CHECK_RC(nvmlShutdown(), NVML_SUCCESS);

    /* without `switch`: link k goes to the (k mod n)-th NVLINK peer; no links: not supported */
    write_file(tmp_path("nv.profile"), "soc NVIDIA H200\ndevice 0 memory 1GiB\ndevice 1 memory 1GiB\n"
                                       "device 2 memory 1GiB\ndevice 3 memory 1GiB\nnvlinks 4\n"
                                       "link 0 1 NVLINK bandwidth 100GB/s latency 1us\n"
                                       "link 0 2 NVLINK bandwidth 100GB/s latency 1us\n");
    setenv("LINKWATCH_SIM_PROFILE", tmp_path("nv.profile"), 1);
    CHECK_RC(nvmlInit_v2(), NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetNvLinkRemoteDeviceType(nv(0), 3, &type), NVML_SUCCESS);
    CHECK(type == NVML_NVLINK_DEVICE_TYPE_GPU);
    CHECK_RC(nvmlDeviceGetNvLinkRemotePciInfo_v2(nv(0), 3, &pci), NVML_SUCCESS);
    CHECK(pci.bus == 3);                                           /* device 2 (default 0000:03:00.0) */
    CHECK_RC(nvmlDeviceGetNvLinkRemotePciInfo_v2(nv(0), 2, &pci), NVML_SUCCESS);
    CHECK(pci.bus == 2);
    CHECK_RC(nvmlDeviceGetNvLinkRemoteDeviceType(nv(3), 0, &type), NVML_SUCCESS);
    CHECK(type == NVML_NVLINK_DEVICE_TYPE_UNKNOWN);                /* device 3 has no NVLink peer */
    CHECK_RC(nvmlShutdown(), NVML_SUCCESS);
    write_file(tmp_path("nv.profile"), "device 0 memory 1GiB\n");
    CHECK_RC(nvmlInit_v2(), NVML_SUCCESS);
    CHECK_RC(nvmlDeviceGetNvLinkState(nv(0), 0, &on), NVML_ERROR_NOT_SUPPORTED);
    CHECK(field(nv(0), NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 0xFFFFFFFFu, &rc) == 0 && rc == NVML_ERROR_NOT_SUPPORTED);
    CHECK(field(nv(0), NVML_FI_DEV_NVLINK_LINK_COUNT, 0, &rc) == 0 && rc == NVML_SUCCESS);
    CHECK_RC(nvmlShutdown(), NVML_SUCCESS);
}

void test_links_nvml(void)
{
    in_child("nvml_links", nvml_links);
}
