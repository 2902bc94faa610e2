/*
 * nvml.c - the NVML subset the agent reads inventory, link paths and device
 * activity from (libnvidia-ml.so.1).
 *
 * NVML indexes the host's devices: the profile's devices in order, whatever
 * CUDA_VISIBLE_DEVICES says (that variable renumbers a CUDA process's devices
 * only; a caller maps a CUDA ordinal to NVML by PCI bus id).  The `busy` lines
 * of the control file number devices the same way.  Readings mirror dcmi.c:
 * the processes are the `busy` lines' plus the calling process while it holds
 * a primary context on the device, utilization the highest `util` of the
 * device's `busy` lines.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NVDEV_MAGIC 0x4e56444du
#define MAX_PROCS 64

/* Handles are the addresses of these slots: stable for the process's life. */
struct nvmlDevice_st {
    uint32_t magic;
    int index;
};
static struct nvmlDevice_st handles[LW_MAX_DEVICES];

static pthread_mutex_t nl = PTHREAD_MUTEX_INITIALIZER;   /* guards the three below */
static int refs;                   /* nvmlInit_v2 calls not yet shut down */
static struct lw_profile *prof;    /* the host's devices, loaded by the first init */

nvmlReturn_t nvmlInit_v2(void)
{
    int rc = lw_enter("nvmlInit_v2");
    if (rc)
        return rc;
    pthread_mutex_lock(&nl);
    if (refs == 0) {
        /* (Re)load on the first init, so a changed profile is seen after a shutdown. */
        struct lw_profile *p = prof ? prof : malloc(sizeof *p);
        char err[512];
        if (!p) {
            rc = NVML_ERROR_UNKNOWN;
        } else if (lw_profile_load(LW_FACE_CUDA, p, err, sizeof err) != 0) {
            fprintf(stderr, "linkwatch-sim: nvmlInit_v2: bad simulator profile: %s\n", err);
            rc = NVML_ERROR_UNKNOWN;
        }
        prof = p;
        if (!rc)
            lw_links_topology(LW_FACE_CUDA, p);
        for (int i = 0; !rc && i < p->ndev; i++)
            handles[i] = (struct nvmlDevice_st){ NVDEV_MAGIC, i };
    }
    if (!rc)
        refs++;
    pthread_mutex_unlock(&nl);
    return rc;
}

nvmlReturn_t nvmlShutdown(void)
{
    int rc = lw_enter("nvmlShutdown");
    if (rc)
        return rc;
    pthread_mutex_lock(&nl);
    rc = refs > 0 ? NVML_SUCCESS : NVML_ERROR_UNINITIALIZED;
    if (refs > 0)
        refs--;
    pthread_mutex_unlock(&nl);
    return rc;
}

const char *nvmlErrorString(nvmlReturn_t result)
{
    if (lw_enter("nvmlErrorString") != 0)
        return NULL;
    switch ((int)result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case NVML_ERROR_ALREADY_INITIALIZED: return "Already Initialized";
    case NVML_ERROR_NOT_FOUND: return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    default: return "Unknown Error";
    }
}

/* The host index behind a handle into *index: 0, or the NVML error. */
static int index_of(nvmlDevice_t device, int *index)
{
    pthread_mutex_lock(&nl);
    int rc = NVML_SUCCESS;
    if (refs == 0)
        rc = NVML_ERROR_UNINITIALIZED;
    else if (!device || device < handles || device >= handles + LW_MAX_DEVICES ||
             device->magic != NVDEV_MAGIC || device->index >= prof->ndev)
        rc = NVML_ERROR_INVALID_ARGUMENT;
    else
        *index = device->index;
    pthread_mutex_unlock(&nl);
    return rc;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount)
{
    int rc = lw_enter("nvmlDeviceGetCount_v2");
    if (rc)
        return rc;
    pthread_mutex_lock(&nl);
    rc = refs == 0 ? NVML_ERROR_UNINITIALIZED : !deviceCount ? NVML_ERROR_INVALID_ARGUMENT : 0;
    if (!rc)
        *deviceCount = (unsigned)prof->ndev;
    pthread_mutex_unlock(&nl);
    return rc;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
    int rc = lw_enter("nvmlDeviceGetHandleByIndex_v2");
    if (rc)
        return rc;
    pthread_mutex_lock(&nl);
    rc = refs == 0 ? NVML_ERROR_UNINITIALIZED
         : !device || index >= (unsigned)prof->ndev ? NVML_ERROR_INVALID_ARGUMENT : 0;
    if (!rc)
        *device = &handles[index];
    pthread_mutex_unlock(&nl);
    return rc;
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device)
{
    int rc = lw_enter("nvmlDeviceGetHandleByPciBusId_v2");
    if (rc)
        return rc;
    struct lw_pci want;
    pthread_mutex_lock(&nl);
    rc = refs == 0 ? NVML_ERROR_UNINITIALIZED
         : !pciBusId || !device || lw_parse_pci(pciBusId, &want) != 0 ? NVML_ERROR_INVALID_ARGUMENT
                                                                       : NVML_ERROR_NOT_FOUND;
    for (int i = 0; rc == NVML_ERROR_NOT_FOUND && i < prof->ndev; i++)
        if (memcmp(&prof->pci[i], &want, sizeof want) == 0) {
            *device = &handles[i];
            rc = NVML_SUCCESS;
        }
    pthread_mutex_unlock(&nl);
    return rc;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length)
{
    int rc = lw_enter("nvmlDeviceGetName");
    if (rc)
        return rc;
    int i;
    if ((rc = index_of(device, &i)))
        return rc;
    if (!name)
        return NVML_ERROR_INVALID_ARGUMENT;
    pthread_mutex_lock(&nl);
    size_t need = strlen(prof->soc) + 1;
    if (length < need)
        rc = NVML_ERROR_INSUFFICIENT_SIZE;
    else
        memcpy(name, prof->soc, need);
    pthread_mutex_unlock(&nl);
    return rc;
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
    int rc = lw_enter("nvmlDeviceGetPciInfo_v3");
    if (rc)
        return rc;
    int i;
    if ((rc = index_of(device, &i)))
        return rc;
    if (!pci)
        return NVML_ERROR_INVALID_ARGUMENT;
    pthread_mutex_lock(&nl);
    struct lw_pci a = prof->pci[i];
    pthread_mutex_unlock(&nl);
    memset(pci, 0, sizeof *pci);
    /* nvml.h's two forms; NVML writes function 0 as ".0" whatever it is */
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", a.domain & 0xffff, a.bus,
             a.device);
    snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", a.domain, a.bus, a.device);
    pci->domain = a.domain;
    pci->bus = a.bus;
    pci->device = a.device;
    /* Every simulated GPU answers as an H200 (device 0x2335, NVIDIA's vendor id
     * 0x10DE); the subsystem id, which varies by board, is not modeled (0). */
    pci->pciDeviceId = 0x233510DEu;
    pci->pciSubSystemId = 0;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t device1, nvmlDevice_t device2,
                                                 nvmlGpuTopologyLevel_t *pathInfo)
{
    int rc = lw_enter("nvmlDeviceGetTopologyCommonAncestor");
    if (rc)
        return rc;
    int a, b;
    if ((rc = index_of(device1, &a)) || (rc = index_of(device2, &b)))
        return rc;
    if (!pathInfo)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (a == b) {
        *pathInfo = NVML_TOPOLOGY_INTERNAL;
        return NVML_SUCCESS;
    }
    pthread_mutex_lock(&nl);
    /* the pair's PCIe path: an NVLINK link's `pcie` attribute, a PCIe link's
     * own type; no link at all: across the system */
    int path = prof->link[a][b].type == LW_LINK_NONE ? LW_LINK_SYS : prof->link[a][b].pcie;
    pthread_mutex_unlock(&nl);
    *pathInfo = path == LW_LINK_PIX ? NVML_TOPOLOGY_SINGLE
                : path == LW_LINK_PXB ? NVML_TOPOLOGY_MULTIPLE
                : path == LW_LINK_PHB ? NVML_TOPOLOGY_HOSTBRIDGE
                : path == LW_LINK_NODE ? NVML_TOPOLOGY_NODE
                                       : NVML_TOPOLOGY_SYSTEM;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t device1, nvmlDevice_t device2,
                                    nvmlGpuP2PCapsIndex_t p2pIndex, nvmlGpuP2PStatus_t *p2pStatus)
{
    int rc = lw_enter("nvmlDeviceGetP2PStatus");
    if (rc)
        return rc;
    int a, b;
    if ((rc = index_of(device1, &a)) || (rc = index_of(device2, &b)))
        return rc;
    if (!p2pStatus || a == b || (int)p2pIndex < 0 || p2pIndex > NVML_P2P_CAPS_INDEX_PCI)
        return NVML_ERROR_INVALID_ARGUMENT;
    pthread_mutex_lock(&nl);
    int type = prof->link[a][b].type;
    pthread_mutex_unlock(&nl);
    /* NVLINK asks for an NVLink between the two; read, write, atomics and PCI
     * for any peer path the profile gives */
    bool ok = p2pIndex == NVML_P2P_CAPS_INDEX_NVLINK ? type == LW_LINK_NVLINK : type != LW_LINK_NONE;
    *p2pStatus = ok ? NVML_P2P_STATUS_OK : NVML_P2P_STATUS_NOT_SUPPORTED;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *infoCount,
                                                     nvmlProcessInfo_t *infos)
{
    int rc = lw_enter("nvmlDeviceGetComputeRunningProcesses_v3");
    if (rc)
        return rc;
    int dev;
    if ((rc = index_of(device, &dev)))
        return rc;
    if (!infoCount)
        return NVML_ERROR_INVALID_ARGUMENT;
    nvmlProcessInfo_t found[MAX_PROCS + 1];
    struct lw_workload w[MAX_PROCS];
    int n = lw_workloads(dev, w, MAX_PROCS), out = 0;
    for (int i = 0; i < n && i < MAX_PROCS; i++)
        if (w[i].pid > 0)
            found[out++] = (nvmlProcessInfo_t){ (unsigned)w[i].pid, w[i].memory, 0xFFFFFFFFu, 0xFFFFFFFFu };
    /* This process, while it holds the device's primary context (under its CUDA ordinal). */
    lw_lock();
    int own = lw_logical(dev);
    bool mine = own >= 0 && lw.refcount[own] > 0;
    unsigned long long used = mine ? lw.used[own] : 0;
    lw_unlock();
    if (mine)
        found[out++] = (nvmlProcessInfo_t){ (unsigned)getpid(), used, 0xFFFFFFFFu, 0xFFFFFFFFu };
    if (*infoCount < (unsigned)out) {
        *infoCount = (unsigned)out;   /* how many the caller must make room for */
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    if (out > 0 && !infos)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (out > 0)
        memcpy(infos, found, (size_t)out * sizeof *found);
    *infoCount = (unsigned)out;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization)
{
    int rc = lw_enter("nvmlDeviceGetUtilizationRates");
    if (rc)
        return rc;
    int dev;
    if ((rc = index_of(device, &dev)))
        return rc;
    if (!utilization)
        return NVML_ERROR_INVALID_ARGUMENT;
    struct lw_workload w[MAX_PROCS];
    int n = lw_workloads(dev, w, MAX_PROCS);
    unsigned util = 0;
    for (int i = 0; i < n && i < MAX_PROCS; i++)
        util = w[i].util > util ? w[i].util : util;
    /* gpu: time a kernel ran; memory: time device memory was read or written -
     * a job's one `util` figure stands for both, as for DCMI's AI Core and HBM
     * bandwidth readings */
    utilization->gpu = util;
    utilization->memory = util;
    return NVML_SUCCESS;
}
