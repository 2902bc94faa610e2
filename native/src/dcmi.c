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
#include <string.h>
#include <unistd.h>

#define DCMI_OK 0
#define DCMI_ERR_INVALID_PARAM (-8001)
#define DCMI_ERR_NOT_INIT (-8008)
#define DCMI_ERR_NOT_SUPPORT (-8255)

static pthread_mutex_t dl = PTHREAD_MUTEX_INITIALIZER;
static bool dcmi_ready;
static int dcmi_ndev;
static uint64_t dcmi_memory[LW_MAX_DEVICES];

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
    pthread_mutex_lock(&dl);
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
