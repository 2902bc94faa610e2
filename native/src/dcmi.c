/*
 * dcmi.c - the DCMI subset the agent reads device activity from (libdcmi.so:
 * dcmi_init, logical id -> card/device, processes holding a device, and
 * utilization).  Readings come from the `busy` lines of the control file, plus
 * the calling process itself while it has a device set, as the real driver
 * lists every process with a context on the device.
 *
 * Mapping: as on an A3, a card carries two dies: logical device N is card
 * N / 2, device N % 2 (the same numbering the npu-smi stand-in prints).  DCMI
 * numbers devices as the host does, whatever ASCEND_RT_VISIBLE_DEVICES says
 * (that variable renumbers an AscendCL process's devices only).  Error
 * codes follow the DCMI docs (-8000 - k); which one "not initialised" returns
 * is not documented, the sim answers -8008 for it (see native/README.md).
 */
#define _GNU_SOURCE
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DCMI_OK 0
#define DCMI_ERR_INVALID_PARAM (-8001)
#define DCMI_ERR_NOT_INIT (-8008)
#define DCMI_ERR_NOT_SUPPORT (-8255)

static pthread_mutex_t dl = PTHREAD_MUTEX_INITIALIZER;
static bool dcmi_ready;
static int dcmi_ndev;
static uint64_t dcmi_memory[LW_MAX_DEVICES];
static struct lw_profile *dcmi_prof;     /* the host's devices and links, for the link calls */

int dcmi_init(void)
{
    int rc = lw_enter("dcmi_init");
    if (rc)
        return rc;
    struct lw_profile p;
    char err[512];
    if (lw_profile_load(LW_FACE_ACL, &p, err, sizeof err) != 0) {
        fprintf(stderr, "linkwatch-sim: dcmi_init: bad simulator profile: %s\n", err);
        return DCMI_ERR_INVALID_PARAM;
    }
    lw_links_topology(LW_FACE_ACL, &p);
    pthread_mutex_lock(&dl);
    if (!dcmi_prof && !(dcmi_prof = malloc(sizeof *dcmi_prof))) {
        pthread_mutex_unlock(&dl);
        return DCMI_ERR_INVALID_PARAM;
    }
    *dcmi_prof = p;
    dcmi_ndev = p.ndev;
    memcpy(dcmi_memory, p.memory, sizeof dcmi_memory);
    dcmi_ready = true;
    pthread_mutex_unlock(&dl);
    return DCMI_OK;
}

/* The logical device behind (card, device), or a DCMI error (< 0). */
static int logical(int card_id, int device_id)
{
    pthread_mutex_lock(&dl);
    int logic = card_id * 2 + device_id;
    int rc = !dcmi_ready ? DCMI_ERR_NOT_INIT
             : card_id < 0 || device_id < 0 || device_id > 1 || logic >= dcmi_ndev ? DCMI_ERR_INVALID_PARAM
                                                                                  : logic;
    pthread_mutex_unlock(&dl);
    return rc;
}

int dcmi_get_card_id_device_id_from_logicid(int *card_id, int *device_id, unsigned int device_logic_id)
{
    int rc = lw_enter("dcmi_get_card_id_device_id_from_logicid");
    if (rc)
        return rc;
    if (!card_id || !device_id)
        return DCMI_ERR_INVALID_PARAM;
    pthread_mutex_lock(&dl);
    rc = !dcmi_ready ? DCMI_ERR_NOT_INIT : device_logic_id >= (unsigned)dcmi_ndev ? DCMI_ERR_INVALID_PARAM : 0;
    pthread_mutex_unlock(&dl);
    if (rc)
        return rc;
    *card_id = (int)device_logic_id / 2;
    *device_id = (int)device_logic_id % 2;
    return DCMI_OK;
}

int dcmi_get_device_resource_info(int card_id, int device_id, struct dcmi_proc_mem_info *proc_info,
                                  int *proc_num)
{
    int rc = lw_enter("dcmi_get_device_resource_info");
    if (rc)
        return rc;
    if (!proc_info || !proc_num)
        return DCMI_ERR_INVALID_PARAM;
    int dev = logical(card_id, device_id);
    if (dev < 0)
        return dev;
    struct lw_workload w[DCMI_MAX_PROC_NUM];
    int n = lw_workloads(dev, w, DCMI_MAX_PROC_NUM);
    int out = 0;
    for (int i = 0; i < n && i < DCMI_MAX_PROC_NUM; i++)
        if (w[i].pid > 0) {
            proc_info[out].proc_id = w[i].pid;
            proc_info[out].proc_mem_usage = (unsigned long)w[i].memory;
            out++;
        }
    /* This process, while it holds a context on the device (under its own number). */
    lw_lock();
    int own = lw_logical(dev);
    bool mine = own >= 0 && lw.refcount[own] > 0;
    uint64_t used = mine ? lw.used[own] : 0;
    lw_unlock();
    if (mine && out < DCMI_MAX_PROC_NUM) {
        proc_info[out].proc_id = (int)getpid();
        proc_info[out].proc_mem_usage = (unsigned long)used;
        out++;
    }
    *proc_num = out;
    return DCMI_OK;
}

int dcmi_get_device_utilization_rate(int card_id, int device_id, int input_type,
                                     unsigned int *utilization_rate)
{
    int rc = lw_enter("dcmi_get_device_utilization_rate");
    if (rc)
        return rc;
    if (!utilization_rate)
        return DCMI_ERR_INVALID_PARAM;
    int dev = logical(card_id, device_id);
    if (dev < 0)
        return dev;
    /* The A3 answers 2 AI Core, 3 AI CPU, 4 control CPU, 6 HBM in use,
     * 10 HBM bandwidth, 12 vector core, 13 NPU overall. */
    switch (input_type) {
    case 2: case 3: case 4: case 10: case 12: case 13: {
        struct lw_workload w[DCMI_MAX_PROC_NUM];
        int n = lw_workloads(dev, w, DCMI_MAX_PROC_NUM);
        unsigned util = 0;
        for (int i = 0; i < n && i < DCMI_MAX_PROC_NUM; i++)
            util = w[i].util > util ? w[i].util : util;
        *utilization_rate = util;
        return DCMI_OK;
    }
    case 6: {
        struct lw_workload w[DCMI_MAX_PROC_NUM];
        int n = lw_workloads(dev, w, DCMI_MAX_PROC_NUM);
        uint64_t taken = 0;
        for (int i = 0; i < n && i < DCMI_MAX_PROC_NUM; i++)
            taken += w[i].memory;
        lw_lock();
        int own = lw_logical(dev);
        if (own >= 0)
            taken += lw.used[own];
        lw_unlock();
        uint64_t total = dcmi_memory[dev];
        unsigned pct = total == 0 ? 0 : taken >= total ? 100 : (unsigned)(taken * 100 / total);
        *utilization_rate = pct;
        return DCMI_OK;
    }
    default:
        return DCMI_ERR_NOT_SUPPORT;
    }
}

/* ---- link status, lanes and counters (dcmi_get_device_info) ----
 *
 * HCCS ports: the device's profile links of type HCCS or HCCS_SW, to peers in
 * ascending device order, take PCS indices 1, 2, 3, ... (port k carries the
 * k-th HCCS peer).  That is the sim's own convention: no DCMI call maps a PCS
 * to a peer.  The counters are the host's (linkstate.c), in flits. */

/* pcs_lane_bitmap's bits 9-10: lane mode 00: 0 lanes, 01: 1, 10: 4, 11: 2 */
static unsigned lane_mode(int lanes)
{
    return lanes == 1 ? 1u : lanes == 4 ? 2u : lanes == 2 ? 3u : 0u;
}

static int hccs_info(int dev, unsigned sub, void *buf)
{
    int peers[LW_HCCS_PORTS];
    pthread_mutex_lock(&dl);
    int n = lw_hccs_ports(dcmi_prof, dev, peers);
    pthread_mutex_unlock(&dl);
    struct lw_devlinks st;
    lw_dev_links(dev, &st);
    switch (sub) {
    case DCMI_HCCS_CMD_GET_STATUS: {
        struct dcmi_hccs_statues *s = buf;
        bool any_down = false;
        for (int k = 1; k <= n; k++) {
            any_down |= st.hccs_down[k];
            if ((st.hccs_down[k] || st.hccs_lanes[k] < 4) && s->pcs_status == 0)
                s->pcs_status = 1u | (unsigned)k << 8;   /* abnormal; the first faulty PCS */
        }
        s->hdlc_status = any_down ? 1u : DCMI_HDLC_STATUS_OK;
        return DCMI_OK;
    }
    case DCMI_HCCS_CMD_GET_LANE_INFO: {
        struct dcmi_hccs_lane_info *l = buf;
        for (int k = 1; k <= n; k++) {
            int lanes = st.hccs_lanes[k];
            l->hccs_port_pcs_bitmap |= 1u << k;
            l->pcs_lane_bitmap[k - 1] = (st.hccs_down[k] ? 0u : 1u) | ((1u << lanes) - 1u) << 1 |
                                        lane_mode(lanes) << 9;
        }
        return DCMI_OK;
    }
    case DCMI_HCCS_CMD_GET_STATISTIC_INFO:
    case DCMI_HCCS_CMD_GET_STATISTIC_INFO_U64: {
        uint64_t c[LW_C_N];
        lw_counters_read(dev, c);
        for (int k = 1; k <= n; k++) {
            if (sub == DCMI_HCCS_CMD_GET_STATISTIC_INFO) {
                struct dcmi_hccs_statistic_info *s = buf;   /* the low 32 bits: wraps as the real one */
                s->tx_cnt[k] = (unsigned)c[LW_C_HCCS_TX + k];
                s->rx_cnt[k] = (unsigned)c[LW_C_HCCS_RX + k];
                s->crc_err_cnt[k] = (unsigned)c[LW_C_HCCS_CRC + k];
                s->retry_cnt[k] = (unsigned)c[LW_C_HCCS_RETRY + k];
            } else {
                struct dcmi_hccs_statistic_info_u64 *s = buf;
                s->tx_cnt[k] = c[LW_C_HCCS_TX + k];
                s->rx_cnt[k] = c[LW_C_HCCS_RX + k];
                s->crc_err_cnt[k] = c[LW_C_HCCS_CRC + k];
                s->retry_cnt[k] = c[LW_C_HCCS_RETRY + k];
            }
        }
        return DCMI_OK;
    }
    }
    return DCMI_ERR_NOT_SUPPORT;
}

int dcmi_get_device_info(int card_id, int device_id, enum dcmi_main_cmd main_cmd, unsigned int sub_cmd,
                         void *buf, unsigned int *size)
{
    char sub[64];
    snprintf(sub, sizeof sub, "dcmi_get_device_info:%d:%u", (int)main_cmd, sub_cmd);
    int rc = lw_enter_sub("dcmi_get_device_info", sub);
    if (rc)
        return rc;
    if (!buf || !size)
        return DCMI_ERR_INVALID_PARAM;
    int dev = logical(card_id, device_id);
    if (dev < 0)
        return dev;
    /* which struct the command fills, and whether the device has such a link */
    unsigned need = 0;
    int peers[LW_HCCS_PORTS];
    pthread_mutex_lock(&dl);
    bool hccs = lw_hccs_ports(dcmi_prof, dev, peers) > 0, sio = false;
    for (int q = 0; q < dcmi_prof->ndev; q++)
        sio |= q != dev && dcmi_prof->link[dev][q].type == LW_LINK_SIO;
    pthread_mutex_unlock(&dl);
    if ((int)main_cmd == DCMI_MAIN_CMD_HCCS && hccs)
        need = sub_cmd == DCMI_HCCS_CMD_GET_STATUS ? sizeof(struct dcmi_hccs_statues)
             : sub_cmd == DCMI_HCCS_CMD_GET_LANE_INFO ? sizeof(struct dcmi_hccs_lane_info)
             : sub_cmd == DCMI_HCCS_CMD_GET_STATISTIC_INFO ? sizeof(struct dcmi_hccs_statistic_info)
             : sub_cmd == DCMI_HCCS_CMD_GET_STATISTIC_INFO_U64 ? sizeof(struct dcmi_hccs_statistic_info_u64)
                                                               : 0;
    else if ((int)main_cmd == DCMI_MAIN_CMD_SIO && sio && sub_cmd == DCMI_SIO_SUB_CMD_CRC_ERR_STATISTICS)
        need = sizeof(struct dcmi_sio_crc_err_statistics_info);
    if (need == 0)
        return DCMI_ERR_NOT_SUPPORT;
    if (*size < need)
        return DCMI_ERR_INVALID_PARAM;
    memset(buf, 0, need);
    if ((int)main_cmd == DCMI_MAIN_CMD_SIO) {
        /* u16 counters: they wrap at 65536 as the struct's do */
        uint64_t c[LW_C_N];
        lw_counters_read(dev, c);
        struct dcmi_sio_crc_err_statistics_info *s = buf;
        s->tx_error_count = (unsigned short)c[LW_C_SIO_CRC_TX];
        s->rx_error_count = (unsigned short)c[LW_C_SIO_CRC_RX];
        rc = DCMI_OK;
    } else {
        rc = hccs_info(dev, sub_cmd, buf);
    }
    if (rc == DCMI_OK)
        *size = need;
    return rc;
}

int dcmi_get_device_pcie_info_v2(int card_id, int device_id, struct dcmi_pcie_info_all *pcie_info)
{
    int rc = lw_enter("dcmi_get_device_pcie_info_v2");
    if (rc)
        return rc;
    if (!pcie_info)
        return DCMI_ERR_INVALID_PARAM;
    int dev = logical(card_id, device_id);
    if (dev < 0)
        return dev;
    pthread_mutex_lock(&dl);
    struct lw_pci a = dcmi_prof->pci[dev];
    /* Huawei's vendor id; the device id of the 910B (d802) or the 910_93 (d803)
     * by the profile's SoC name; subsystem ids are not modeled (0) */
    unsigned devid = strstr(dcmi_prof->soc, "910_93") || strstr(dcmi_prof->soc, "9382") ? 0xd803u : 0xd802u;
    pthread_mutex_unlock(&dl);
    memset(pcie_info, 0, sizeof *pcie_info);
    pcie_info->venderid = 0x19e5;
    pcie_info->deviceid = devid;
    pcie_info->domain = (int)a.domain;
    pcie_info->bdf_busid = a.bus;
    pcie_info->bdf_deviceid = a.device;
    pcie_info->bdf_funcid = a.function;
    return DCMI_OK;
}

/* An NPU's RoCE port as the sim models it (linkstate.c), the same state the
 * hccn_tool stand-in prints; a DCMI error (< 0) when (card, device) is not one. */
static int nic_of(int card_id, int device_id, struct linkwatch_sim_nic *s)
{
    int dev = logical(card_id, device_id);
    if (dev < 0)
        return dev;
    return linkwatch_sim_nic(dev, s) == 0 ? dev : DCMI_ERR_INVALID_PARAM;
}

/* The driver's health codes 0..8 are the first nine of lw_nic_health_names;
 * "Unknown" has no code of its own: DCMI_RDFX_DETECT_MAX. */
int dcmi_get_device_network_health(int card_id, int device_id, int *result)
{
    int rc = lw_enter("dcmi_get_device_network_health");
    if (rc)
        return rc;
    struct linkwatch_sim_nic s;
    if (!result)
        return DCMI_ERR_INVALID_PARAM;
    if ((rc = nic_of(card_id, device_id, &s)) < 0)
        return rc;
    *result = s.health >= 0 && s.health <= 8 ? s.health : 0xFF;
    return DCMI_OK;
}

static unsigned long long nic_error(const struct linkwatch_sim_nic *s, const char *kind)
{
    for (int i = 0; linkwatch_sim_nic_error_kind(i); i++)
        if (strcmp(linkwatch_sim_nic_error_kind(i), kind) == 0)
            return s->errors[i];
    return 0;
}

/* The counters hccn_tool -stat prints, in the struct's fields.  DCMI names
 * three of them differently; the sim counts one event for each pair:
 * roce_err_ack (-stat: roce_unexpected_ack), roce_err_psn (roce_out_of_order)
 * and roce_err_qp_status (roce_qp_status_err). */
int dcmi_get_netdev_pkt_stats_info(int card_id, int device_id, int port_id,
                                   struct dcmi_network_pkt_stats_info *info)
{
    int rc = lw_enter("dcmi_get_netdev_pkt_stats_info");
    if (rc)
        return rc;
    struct linkwatch_sim_nic s;
    if (!info || port_id != 0)
        return DCMI_ERR_INVALID_PARAM;
    if ((rc = nic_of(card_id, device_id, &s)) < 0)
        return rc;
    memset(info, 0, sizeof *info);
    info->mac_tx_bad_pkt_num = nic_error(&s, "mac_tx_bad_pkt");
    info->mac_rx_bad_pkt_num = nic_error(&s, "mac_rx_bad_pkt");
    info->mac_rx_fcs_err_pkt_num = nic_error(&s, "mac_rx_fcs_err_pkt");
    info->roce_rx_err_pkt_num = nic_error(&s, "roce_rx_err_pkt");
    info->roce_tx_err_pkt_num = nic_error(&s, "roce_tx_err_pkt");
    info->roce_err_ack_num = nic_error(&s, "roce_unexpected_ack");
    info->roce_err_psn_num = nic_error(&s, "roce_out_of_order");
    info->roce_verification_err_num = nic_error(&s, "roce_verification_err");
    info->roce_err_qp_status_num = nic_error(&s, "roce_qp_status_err");
    info->roce_new_pkt_rty_num = nic_error(&s, "roce_new_pkt_rty");
    info->mac_tx_total_pkt_num = info->roce_tx_all_pkt_num = info->nic_tx_all_pkg_num = s.tx_packets;
    info->mac_rx_total_pkt_num = info->roce_rx_all_pkt_num = info->nic_rx_all_pkg_num = s.rx_packets;
    info->mac_tx_total_oct_num = info->nic_tx_all_oct_num = s.tx_octets;
    info->mac_rx_total_oct_num = info->nic_rx_all_oct_num = s.rx_octets;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    info->tv_sec = now.tv_sec;
    info->tv_usec = now.tv_nsec / 1000;
    return DCMI_OK;
}

/* The RoCE port's address, 192.168.100.(10 + device) as the hccn_tool stand-in
 * prints it; the virtual NIC port (the host-device channel) is not modeled. */
int dcmi_get_device_ip(int card_id, int device_id, enum dcmi_port_type port_type, int port_id,
                       struct dcmi_ip_addr *ip, struct dcmi_ip_addr *mask)
{
    int rc = lw_enter("dcmi_get_device_ip");
    if (rc)
        return rc;
    struct linkwatch_sim_nic s;
    if (!ip || !mask || port_id != 0)
        return DCMI_ERR_INVALID_PARAM;
    if (port_type != DCMI_ROCE_PORT)
        return DCMI_ERR_NOT_SUPPORT;
    if ((rc = nic_of(card_id, device_id, &s)) < 0)
        return rc;
    memset(ip, 0, sizeof *ip);
    memset(mask, 0, sizeof *mask);
    unsigned char a[4] = { 192, 168, 100, (unsigned char)(10 + rc) };
    unsigned char m[4] = { 255, 255, 255, 0 };
    memcpy(ip->u_addr.ip4, a, 4);
    memcpy(mask->u_addr.ip4, m, 4);
    ip->ip_type = mask->ip_type = DCMI_IPADDR_TYPE_V4;
    return DCMI_OK;
}

int32_t linkwatch_sim_processes(int32_t device, int32_t *pid, uint64_t *mem, int32_t max)
{
    struct lw_workload w[DCMI_MAX_PROC_NUM];
    int n = lw_workloads(device, w, DCMI_MAX_PROC_NUM);
    int out = 0;
    for (int i = 0; i < n && i < DCMI_MAX_PROC_NUM; i++)
        if (w[i].pid > 0) {
            if (out < max) {
                pid[out] = w[i].pid;
                mem[out] = w[i].memory;
            }
            out++;
        }
    return out;
}
