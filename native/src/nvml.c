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
#include <time.h>
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

/* The header of a call on NVML's own state: lw_enter, then nl locked where it
 * passed (the call unlocks it): 0, or lw_enter's error, with nl not locked. */
static int enter_locked(const char *fn)
{
    int rc = lw_enter(fn);
    if (!rc)
        pthread_mutex_lock(&nl);
    return rc;
}

nvmlReturn_t nvmlInit_v2(void)
{
    int rc = enter_locked("nvmlInit_v2");
    if (rc)
        return rc;
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
    int rc = enter_locked("nvmlShutdown");
    if (rc)
        return rc;
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

static void fill_pci(nvmlPciInfo_t *pci, struct lw_pci a, unsigned id);

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

/* The header of a call on one device: the call journal and the injected
 * faults (lw_enter), then the handle's host index into *index (index_of):
 * 0, or the first error. */
static int enter_device(const char *fn, nvmlDevice_t device, int *index)
{
    int rc = lw_enter(fn);
    return rc ? rc : index_of(device, index);
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount)
{
    int rc = enter_locked("nvmlDeviceGetCount_v2");
    if (rc)
        return rc;
    rc = refs == 0 ? NVML_ERROR_UNINITIALIZED : !deviceCount ? NVML_ERROR_INVALID_ARGUMENT : 0;
    if (!rc)
        *deviceCount = (unsigned)prof->ndev;
    pthread_mutex_unlock(&nl);
    return rc;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
    int rc = enter_locked("nvmlDeviceGetHandleByIndex_v2");
    if (rc)
        return rc;
    rc = refs == 0 ? NVML_ERROR_UNINITIALIZED
         : !device || index >= (unsigned)prof->ndev ? NVML_ERROR_INVALID_ARGUMENT : 0;
    if (!rc)
        *device = &handles[index];
    pthread_mutex_unlock(&nl);
    return rc;
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device)
{
    struct lw_pci want;
    int rc = enter_locked("nvmlDeviceGetHandleByPciBusId_v2");
    if (rc)
        return rc;
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
    int i, rc = enter_device("nvmlDeviceGetName", device, &i);
    if (rc)
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
    int i, rc = enter_device("nvmlDeviceGetPciInfo_v3", device, &i);
    if (rc)
        return rc;
    if (!pci)
        return NVML_ERROR_INVALID_ARGUMENT;
    pthread_mutex_lock(&nl);
    struct lw_pci a = prof->pci[i];
    pthread_mutex_unlock(&nl);
    /* Every simulated GPU answers as an H200 (device 0x2335, NVIDIA's vendor id
     * 0x10DE); the subsystem id, which varies by board, is not modeled (0). */
    fill_pci(pci, a, 0x233510DEu);
    return NVML_SUCCESS;
}

/* NVML's form, "GPU-" and a version-4 UUID; the sim's are fixed by the NVML index (which
 * CUDA_VISIBLE_DEVICES does not change), and spell "5111" (sim) in their first group so that no
 * one mistakes them for a real board's. */
nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length)
{
    int i, rc = enter_device("nvmlDeviceGetUUID", device, &i);
    if (rc)
        return rc;
    if (!uuid)
        return NVML_ERROR_INVALID_ARGUMENT;
    char text[48];
    int n = snprintf(text, sizeof text, "GPU-51110000-0000-4000-8000-%012x", (unsigned)i);
    if (n < 0 || (unsigned)n + 1 > length)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(uuid, text, (size_t)n + 1);
    return NVML_SUCCESS;
}

static void fill_pci(nvmlPciInfo_t *pci, struct lw_pci a, unsigned id)
{
    memset(pci, 0, sizeof *pci);
    /* nvml.h's two forms; NVML writes function 0 as ".0" whatever it is */
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", a.domain & 0xffff, a.bus,
             a.device);
    snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", a.domain, a.bus, a.device);
    pci->domain = a.domain;
    pci->bus = a.bus;
    pci->device = a.device;
    pci->pciDeviceId = id;
    pci->pciSubSystemId = 0;
}

nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t device1, nvmlDevice_t device2,
                                                 nvmlGpuTopologyLevel_t *pathInfo)
{
    int a, b, rc = enter_device("nvmlDeviceGetTopologyCommonAncestor", device1, &a);
    if (rc || (rc = index_of(device2, &b)))
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
    int a, b, rc = enter_device("nvmlDeviceGetP2PStatus", device1, &a);
    if (rc || (rc = index_of(device2, &b)))
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
    int dev, rc = enter_device("nvmlDeviceGetComputeRunningProcesses_v3", device, &dev);
    if (rc)
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
    int dev, rc = enter_device("nvmlDeviceGetUtilizationRates", device, &dev);
    if (rc)
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

/* ---- NVLink, field values, PCIe ----
 *
 * A GPU has the profile's `nvlinks COUNT [switch]` links (0 when absent).
 * With `switch` every link goes into an NVSwitch: link k into switch
 * k * 4 / COUNT, one of four (as on an HGX H100/H200 baseboard), each at a
 * fixed PCI address 00000000:F1:00.0 .. F4:00.0 (device 0x22A3, the HGX H100/H200
 * NVSwitch).  Without it link k goes to the device's (k mod n)-th NVLINK peer
 * in ascending order.  Counters are the host's (linkstate.c): link traffic in
 * bytes (reported in KiB), DL errors and PCIe replays as counts; the control
 * file's nvlink and pcie lines set states and rates. */

#define NVSWITCHES 4
#define PCIE_MAX_GEN 5
#define PCIE_MAX_WIDTH 16

/* The host index and NVLink count behind a handle and a link: 0, or the
 * NVML error (a GPU without NVLinks: not supported; a link past the count:
 * invalid argument). */
static int link_of(nvmlDevice_t device, unsigned link, int *dev, int *nlinks)
{
    int rc = index_of(device, dev);
    if (rc)
        return rc;
    pthread_mutex_lock(&nl);
    *nlinks = prof->nvlinks;
    pthread_mutex_unlock(&nl);
    return *nlinks == 0 ? NVML_ERROR_NOT_SUPPORTED : link >= (unsigned)*nlinks ? NVML_ERROR_INVALID_ARGUMENT : 0;
}

/* The header of a call on one NVLink: lw_enter, then link_of. */
static int enter_link(const char *fn, nvmlDevice_t device, unsigned link, int *dev, int *nlinks)
{
    int rc = lw_enter(fn);
    return rc ? rc : link_of(device, link, dev, nlinks);
}

nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, nvmlEnableState_t *isActive)
{
    int dev, n, rc = enter_link("nvmlDeviceGetNvLinkState", device, link, &dev, &n);
    if (rc)
        return rc;
    if (!isActive)
        return NVML_ERROR_INVALID_ARGUMENT;
    struct lw_devlinks st;
    lw_dev_links(dev, &st);
    *isActive = st.nv_down[link] ? NVML_FEATURE_DISABLED : NVML_FEATURE_ENABLED;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t device, unsigned int link,
                                                 nvmlIntNvLinkDeviceType_t *pNvLinkDeviceType)
{
    int dev, n, rc = enter_link("nvmlDeviceGetNvLinkRemoteDeviceType", device, link, &dev, &n);
    if (rc)
        return rc;
    if (!pNvLinkDeviceType)
        return NVML_ERROR_INVALID_ARGUMENT;
    bool none;
    pthread_mutex_lock(&nl);
    bool sw = prof->nvswitch;
    lw_nvlink_peer(prof, dev, (int)link, &none);
    pthread_mutex_unlock(&nl);
    *pNvLinkDeviceType = sw ? NVML_NVLINK_DEVICE_TYPE_SWITCH : none ? NVML_NVLINK_DEVICE_TYPE_UNKNOWN
                                                                    : NVML_NVLINK_DEVICE_TYPE_GPU;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device, unsigned int link, nvmlPciInfo_t *pci)
{
    int dev, n, rc = enter_link("nvmlDeviceGetNvLinkRemotePciInfo_v2", device, link, &dev, &n);
    if (rc)
        return rc;
    if (!pci)
        return NVML_ERROR_INVALID_ARGUMENT;
    bool none;
    pthread_mutex_lock(&nl);
    bool sw = prof->nvswitch;
    int peer = lw_nvlink_peer(prof, dev, (int)link, &none);
    struct lw_pci a = sw ? (struct lw_pci){ 0, 0xF1u + link * NVSWITCHES / (unsigned)n, 0, 0 }
                    : none ? (struct lw_pci){ 0, 0, 0, 0 } : prof->pci[peer];
    pthread_mutex_unlock(&nl);
    if (none)
        return NVML_ERROR_NOT_SUPPORTED;
    fill_pci(pci, a, sw ? 0x22A310DEu : 0x233510DEu);
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNvLinkErrorCounter(nvmlDevice_t device, unsigned int link,
                                             nvmlNvLinkErrorCounter_t counter, unsigned long long *counterValue)
{
    int dev, n, rc = enter_link("nvmlDeviceGetNvLinkErrorCounter", device, link, &dev, &n);
    if (rc)
        return rc;
    if (!counterValue || (int)counter < 0 || counter > NVML_NVLINK_ERROR_DL_ECC_DATA)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (counter == NVML_NVLINK_ERROR_DL_ECC_DATA)
        return NVML_ERROR_NOT_SUPPORTED;     /* not on the H200's NVLink 4 */
    static const int base[] = { LW_C_NV_REPLAY, LW_C_NV_RECOVERY, LW_C_NV_CRC_FLIT, LW_C_NV_CRC_DATA };
    uint64_t c[LW_C_N];
    lw_counters_read(dev, c);
    *counterValue = c[base[counter] + (int)link];
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount, nvmlFieldValue_t *values)
{
    int dev, rc = enter_device("nvmlDeviceGetFieldValues", device, &dev);
    if (rc)
        return rc;
    if (valuesCount < 0 || (valuesCount > 0 && !values))
        return NVML_ERROR_INVALID_ARGUMENT;
    pthread_mutex_lock(&nl);
    unsigned n = (unsigned)prof->nvlinks;
    pthread_mutex_unlock(&nl);
    uint64_t c[LW_C_N];
    struct lw_devlinks st;
    lw_counters_read(dev, c);
    lw_dev_links(dev, &st);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long long stamp = (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
    for (int i = 0; i < valuesCount; i++) {
        nvmlFieldValue_t *v = &values[i];
        unsigned link = v->scopeId;
        v->timestamp = stamp;
        v->latencyUsec = 0;
        v->value.ullVal = 0;
        v->valueType = NVML_VALUE_TYPE_UNSIGNED_LONG_LONG;
        v->nvmlReturn = NVML_SUCCESS;
        bool nvlink_field = v->fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX ||
                            v->fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX ||
                            v->fieldId == NVML_FI_DEV_NVLINK_ERROR_DL_REPLAY ||
                            v->fieldId == NVML_FI_DEV_NVLINK_ERROR_DL_RECOVERY ||
                            v->fieldId == NVML_FI_DEV_NVLINK_ERROR_DL_CRC || v->fieldId == NVML_FI_DEV_NVLINK_GET_STATE;
        bool sum = link == 0xFFFFFFFFu && (v->fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX ||
                                           v->fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX);
        if (nvlink_field && n == 0) {
            v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
            continue;
        }
        if (nvlink_field && !sum && link >= n) {
            v->nvmlReturn = NVML_ERROR_INVALID_ARGUMENT;
            continue;
        }
        switch (v->fieldId) {
        case NVML_FI_DEV_NVLINK_LINK_COUNT:
            v->valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
            v->value.uiVal = n;
            break;
        case NVML_FI_DEV_PCIE_REPLAY_COUNTER:
            v->value.ullVal = c[LW_C_PCIE_REPLAY];
            break;
        case NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX:
        case NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX: {
            int at = v->fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX ? LW_C_NV_TX : LW_C_NV_RX;
            uint64_t bytes = 0;
            for (unsigned l = sum ? 0 : link; l < (sum ? n : link + 1); l++)
                bytes += c[at + (int)l];
            v->value.ullVal = bytes / 1024;   /* KiB */
            break;
        }
        case NVML_FI_DEV_NVLINK_ERROR_DL_REPLAY:
            v->value.ullVal = c[LW_C_NV_REPLAY + (int)link];
            break;
        case NVML_FI_DEV_NVLINK_ERROR_DL_RECOVERY:
            v->value.ullVal = c[LW_C_NV_RECOVERY + (int)link];
            break;
        case NVML_FI_DEV_NVLINK_ERROR_DL_CRC:
            v->value.ullVal = c[LW_C_NV_CRC_FLIT + (int)link];
            break;
        case NVML_FI_DEV_NVLINK_GET_STATE:
            v->valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
            v->value.uiVal = st.nv_down[link] ? 0 : 1;
            break;
        default:
            v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
            break;
        }
    }
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t device, unsigned int *value)
{
    int dev, rc = enter_device("nvmlDeviceGetPcieReplayCounter", device, &dev);
    if (rc)
        return rc;
    if (!value)
        return NVML_ERROR_INVALID_ARGUMENT;
    uint64_t c[LW_C_N];
    lw_counters_read(dev, c);
    *value = (unsigned)c[LW_C_PCIE_REPLAY];
    return NVML_SUCCESS;
}

/* gen (or width) of a device's PCIe link: the maximum, or the current one a
 * `pcie DEVICE gen N width N` line lowers. */
static nvmlReturn_t pcie_link(const char *fn, nvmlDevice_t device, unsigned *out, bool gen, bool current)
{
    int dev, rc = enter_device(fn, device, &dev);
    if (rc)
        return rc;
    if (!out)
        return NVML_ERROR_INVALID_ARGUMENT;
    unsigned max = gen ? PCIE_MAX_GEN : PCIE_MAX_WIDTH;
    *out = max;
    if (current) {
        struct lw_devlinks st;
        lw_dev_links(dev, &st);
        unsigned low = (unsigned)(gen ? st.pcie_gen : st.pcie_width);
        if (low && low < max)
            *out = low;
    }
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned int *currLinkGen)
{
    return pcie_link("nvmlDeviceGetCurrPcieLinkGeneration", device, currLinkGen, true, true);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned int *currLinkWidth)
{
    return pcie_link("nvmlDeviceGetCurrPcieLinkWidth", device, currLinkWidth, false, true);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned int *maxLinkGen)
{
    return pcie_link("nvmlDeviceGetMaxPcieLinkGeneration", device, maxLinkGen, true, false);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned int *maxLinkWidth)
{
    return pcie_link("nvmlDeviceGetMaxPcieLinkWidth", device, maxLinkWidth, false, false);
}
