/*
 * control.c - run-time faults read from $LINKWATCH_SIM_CONTROL.
 *
 * Tests (and the no-hardware demo) break the "device" mid-run by editing this
 * file, so it is re-checked on every intercepted call.  stat() alone can miss
 * two same-size writes inside one coarse mtime tick, so while the file is
 * young (mtime within 2 s) its content is also compared.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum rule_kind { R_FAIL, R_HANG, R_CRASH, R_LINK, R_CORRUPT, R_BUSY, R_LINKSTATE, R_PACE };

struct rule {
    int kind;
    char fn[64];            /* FUNCTION, or FUNCTION:MAIN:SUB (dcmi_get_device_info) */
    int code;
    long after, calls;      /* fail ... after N: calls seen since the line appeared */
    int src, dst;
    double scale;
    int busy_dev;           /* busy DEVICE [pid PID] [util PCT] [memory BYTES] */
    struct lw_workload load;
    struct lw_linkrule link;    /* hccs, sio, nvlink, pcie lines */
    char text[256];         /* normalised line, to carry `calls` across re-parses */
};

static const char *const known_fns[] = {
    "aclInit", "aclFinalize", "aclrtSetDevice", "aclrtResetDevice", "aclrtGetDeviceCount",
    "aclrtGetDevice", "aclrtCreateStream", "aclrtDestroyStream", "aclrtSynchronizeStream",
    "aclrtSynchronizeStreamWithTimeout", "aclrtSynchronizeDevice", "aclrtCreateEvent",
    "aclrtCreateEventWithFlag", "aclrtRecordEvent", "aclrtStreamWaitEvent", "aclrtSynchronizeEvent",
    "aclrtEventElapsedTime", "aclrtDestroyEvent", "aclrtMalloc", "aclrtMallocWithCfg", "aclrtFree",
    "aclrtMallocHost",
    "aclrtFreeHost", "aclrtMemcpy", "aclrtMemcpyAsync", "aclrtDeviceCanAccessPeer",
    "aclrtDeviceEnablePeerAccess", "aclrtDeviceDisablePeerAccess", "aclrtGetMemInfo",
    "aclrtGetSocName", "aclGetRecentErrMsg", "aclrtGetDevicesTopo", "aclrtGetPhyDevIdByLogicDevId",
    "aclrtHostRegisterV2", "aclrtHostUnregister", "HcclCommInitAll", "HcclAllReduce", "HcclAllGather",
    "HcclCommDestroy", "HcclGetErrorString", "HcclGetRootInfo", "HcclCommInitRootInfo",
    "HcclSend", "HcclRecv", "HcclBatchSendRecv", "dcmi_init", "dcmi_get_card_id_device_id_from_logicid",
    "dcmi_get_device_resource_info", "dcmi_get_device_utilization_rate", "dcmi_get_device_info",
    "dcmi_get_device_pcie_info_v2", "dcmi_get_device_network_health", "dcmi_get_netdev_pkt_stats_info",
    "dcmi_get_device_ip",
    /* the CUDA face: driver API, NVML, NCCL */
    "cuInit", "cuDriverGetVersion", "cuDeviceGetCount", "cuDeviceGet", "cuDeviceGetName",
    "cuDeviceTotalMem_v2", "cuDeviceGetPCIBusId", "cuDeviceCanAccessPeer", "cuDevicePrimaryCtxRetain",
    "cuDevicePrimaryCtxRelease_v2", "cuCtxSetCurrent", "cuCtxGetDevice", "cuCtxEnablePeerAccess",
    "cuMemGetInfo_v2", "cuMemAlloc_v2", "cuMemFree_v2", "cuMemHostAlloc", "cuMemFreeHost",
    "cuMemHostRegister_v2", "cuMemHostUnregister", "cuStreamCreate", "cuStreamDestroy_v2",
    "cuStreamSynchronize", "cuStreamWaitEvent", "cuEventCreate", "cuEventRecord", "cuEventSynchronize",
    "cuEventElapsedTime", "cuEventDestroy_v2", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemcpyDtoD_v2",
    "cuMemcpyHtoDAsync_v2", "cuMemcpyDtoHAsync_v2", "cuMemcpyDtoDAsync_v2", "cuMemcpyPeerAsync",
    "cuMemcpyPeer", "cuGetErrorString", "cuGetErrorName",
    "nvmlInit_v2", "nvmlShutdown", "nvmlErrorString", "nvmlDeviceGetCount_v2",
    "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetName",
    "nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetUUID", "nvmlDeviceGetTopologyCommonAncestor",
    "nvmlDeviceGetP2PStatus",
    "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetUtilizationRates",
    "nvmlDeviceGetNvLinkState", "nvmlDeviceGetNvLinkRemotePciInfo_v2", "nvmlDeviceGetNvLinkRemoteDeviceType",
    "nvmlDeviceGetNvLinkErrorCounter", "nvmlDeviceGetFieldValues", "nvmlDeviceGetPcieReplayCounter",
    "nvmlDeviceGetCurrPcieLinkGeneration", "nvmlDeviceGetCurrPcieLinkWidth",
    "nvmlDeviceGetMaxPcieLinkGeneration", "nvmlDeviceGetMaxPcieLinkWidth",
    "ncclGetVersion", "ncclCommInitAll", "ncclCommDestroy", "ncclGetUniqueId", "ncclCommInitRank", "ncclAllReduce", "ncclAllGather",
    "ncclSend", "ncclRecv", "ncclGroupStart", "ncclGroupEnd", "ncclGetErrorString", NULL
};

#define MAXTOK 32                /* tokens on one line */

static pthread_mutex_t cl = PTHREAD_MUTEX_INITIALIZER;  /* never held while taking lw.lock */
static struct rule *rules;
static int nrules;
static char *content;            /* last parsed text, NULL when no file */
static char cur_path[4096];
static struct stat last_st;

/* The hccn_tool options the stand-in answers; `fail|hang|crash hccn_tool:OPTION` names one. */
static const char *const hccn_options[] = {
    "-link", "-speed", "-link_stat", "-stat", "-optical", "-lldp", "-net_health", "-ip", "-ping", NULL
};

static bool known_fn(const char *fn)
{
    static const char tool[] = "hccn_tool:";
    if (strncmp(fn, tool, sizeof tool - 1) == 0) {
        for (int i = 0; hccn_options[i]; i++)
            if (strcmp(fn + sizeof tool - 1, hccn_options[i]) == 0)
                return true;
        return false;
    }
    /* dcmi_get_device_info:MAIN:SUB names one sub-command of the generic getter */
    static const char sub_fn[] = "dcmi_get_device_info:";
    if (strncmp(fn, sub_fn, sizeof sub_fn - 1) == 0) {
        const char *p = fn + sizeof sub_fn - 1;
        size_t a = strspn(p, "0123456789");
        if (a == 0 || a > 5 || p[a] != ':')
            return false;
        size_t b = strspn(p + a + 1, "0123456789");
        return b > 0 && b <= 5 && p[a + 1 + b] == '\0' && strlen(fn) < sizeof ((struct rule *)0)->fn;
    }
    for (int i = 0; known_fns[i]; i++)
        if (strcmp(known_fns[i], fn) == 0)
            return true;
    return false;
}

/* A rate per second: a finite decimal >= 0 (fractions allowed). */
static int parse_rate(const char *tok, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(tok, &end);
    if (end == tok || *end || errno || !(v >= 0) || v > 1e18)
        return -1;
    *out = v;
    return 0;
}

static int parse_long(const char *tok, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (end == tok || *end || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* hccs DEVICE PORT ..., sio DEVICE ..., nvlink DEVICE LINK ..., pcie DEVICE ...:
 * after the fixed words, key/value pairs (and `down`), several to a line. */
static int parse_linkstate(char **t, int n, struct rule *r)
{
    struct lw_linkrule *l = &r->link;
    static const char *const keys[][5] = {
        [LW_LR_HCCS] = { "crc", "retry", NULL },
        [LW_LR_SIO] = { "crc-tx", "crc-rx", NULL },
        [LW_LR_NVLINK] = { "replay", "recovery", "crc-flit", "crc-data", NULL },
        [LW_LR_PCIE] = { "replay", NULL },
    };
    r->kind = R_LINKSTATE;
    l->kind = strcmp(t[0], "hccs") == 0 ? LW_LR_HCCS : strcmp(t[0], "sio") == 0 ? LW_LR_SIO
            : strcmp(t[0], "nvlink") == 0 ? LW_LR_NVLINK : LW_LR_PCIE;
    l->port = -1;
    l->lanes = -1;
    bool has_port = l->kind == LW_LR_HCCS || l->kind == LW_LR_NVLINK;
    int i = has_port ? 3 : 2;
    if (n <= i || parse_long(t[1], 0, LW_MAX_DEVICES - 1, &l->dev) != 0)
        return -1;
    if (l->kind == LW_LR_HCCS && parse_long(t[2], 1, LW_HCCS_PORTS - 1, &l->port) != 0)
        return -1;
    if (l->kind == LW_LR_NVLINK && parse_long(t[2], 0, LW_NVLINKS - 1, &l->port) != 0)
        return -1;
    while (i < n) {
        const char *k = t[i];
        if (strcmp(k, "down") == 0 && has_port) {
            l->down = true;
            i++;
            continue;
        }
        if (i + 1 >= n)
            return -1;
        const char *v = t[i + 1];
        int slot = -1;
        for (int j = 0; keys[l->kind][j]; j++)
            if (strcmp(k, keys[l->kind][j]) == 0)
                slot = j;
        if (slot >= 0) {
            if (parse_rate(v, &l->rate[slot]) != 0)
                return -1;
        } else if (strcmp(k, "lanes") == 0 && l->kind == LW_LR_HCCS) {
            if (parse_long(v, 0, 4, &l->lanes) != 0 || l->lanes == 3)
                return -1;
        } else if (strcmp(k, "base") == 0 && l->kind != LW_LR_PCIE) {
            char *end;
            errno = 0;
            l->base = strtoull(v, &end, 10);
            if (end == v || *end || errno || v[0] == '-')
                return -1;
            l->has_base = true;
        } else if (strcmp(k, "gen") == 0 && l->kind == LW_LR_PCIE) {
            if (parse_long(v, 1, 6, &l->gen) != 0)
                return -1;
        } else if (strcmp(k, "width") == 0 && l->kind == LW_LR_PCIE) {
            if (parse_long(v, 1, 32, &l->width) != 0)
                return -1;
        } else {
            return -1;
        }
        i += 2;
    }
    return 0;
}

/* busy DEVICE [pid PID] [util PCT] [memory BYTES] [traffic BW]: a workload on
 * DEVICE.  A reading the line does not give stays empty (no process, 0 %, 0
 * bytes, no link traffic). */
static int parse_busy(char **t, int n, struct rule *r)
{
    char *end;
    r->kind = R_BUSY;
    r->busy_dev = (int)strtol(t[1], &end, 10);
    if (*end || end == t[1] || r->busy_dev < 0 || r->busy_dev >= LW_MAX_DEVICES || n % 2 != 0)
        return -1;
    r->load.pid = -1;
    for (int i = 2; i + 1 < n; i += 2) {
        if (strcmp(t[i], "pid") == 0) {
            long v = strtol(t[i + 1], &end, 10);
            if (*end || end == t[i + 1] || v <= 0 || v > 0x7fffffff)
                return -1;
            r->load.pid = (int)v;
        } else if (strcmp(t[i], "util") == 0) {
            long v = strtol(t[i + 1], &end, 10);
            if (*end || end == t[i + 1] || v < 0 || v > 100)
                return -1;
            r->load.util = (unsigned)v;
        } else if (strcmp(t[i], "memory") == 0) {
            unsigned long long v = strtoull(t[i + 1], &end, 10);
            if (*end || end == t[i + 1] || t[i + 1][0] == '-')
                return -1;
            r->load.memory = v;
        } else if (strcmp(t[i], "traffic") == 0) {
            if (lw_parse_bandwidth(t[i + 1], &r->load.traffic) != 0)
                return -1;
        } else {
            return -1;
        }
    }
    return 0;
}

/* nic DEVICE down | speed MBPS | errors KIND RATE | optical rx_power MW | health STATE:
 * an NPU's own RoCE port, as the hccn_tool stand-in reports it.  STATE is the
 * driver's name (`Socket fail`), or the same with underscores (`socket_fail`). */
static int parse_nic(char **t, int n, struct rule *r)
{
    struct lw_linkrule *l = &r->link;
    r->kind = R_LINKSTATE;
    l->kind = LW_LR_NIC;
    l->port = -1;
    l->lanes = -1;
    l->nic_error = -1;
    l->nic_health = -1;
    l->nic_rx_power = -1;
    if (parse_long(t[1], 0, LW_MAX_DEVICES - 1, &l->dev) != 0)
        return -1;
    if (n == 3 && strcmp(t[2], "down") == 0) {
        l->down = true;
        return 0;
    }
    if (n == 4 && strcmp(t[2], "speed") == 0)
        return parse_long(t[3], 1, 10000000, &l->nic_speed);
    if (n == 5 && strcmp(t[2], "errors") == 0) {
        for (int i = 0; lw_nic_error_kinds[i]; i++)
            if (strcmp(t[3], lw_nic_error_kinds[i]) == 0)
                l->nic_error = i;
        return l->nic_error < 0 ? -1 : parse_rate(t[4], &l->rate[0]);
    }
    if (n == 5 && strcmp(t[2], "optical") == 0 && strcmp(t[3], "rx_power") == 0) {
        char *end;
        errno = 0;
        l->nic_rx_power = strtod(t[4], &end);
        return end == t[4] || *end || errno || !(l->nic_rx_power >= 0 && l->nic_rx_power < 100) ? -1 : 0;
    }
    if (n >= 4 && strcmp(t[2], "health") == 0) {
        char state[64] = "";
        for (int i = 3; i < n; i++) {
            size_t len = strlen(state);
            snprintf(state + len, sizeof state - len, "%s%s", i > 3 ? " " : "", t[i]);
        }
        for (char *c = state; *c; c++)
            if (*c == '_')
                *c = ' ';
        for (int i = 0; lw_nic_health_names[i]; i++)
            if (strcasecmp(state, lw_nic_health_names[i]) == 0)
                l->nic_health = i;
        return l->nic_health < 0 ? -1 : 0;
    }
    return -1;
}

static int parse_rule(char **t, int n, struct rule *r)
{
    char *end;
    memset(r, 0, sizeof *r);
    r->scale = 1.0;
    if (n >= 2 && strcmp(t[0], "busy") == 0)
        return parse_busy(t, n, r);
    /* pace FACTOR: every device copy also takes FACTOR x its modeled time of wall time */
    if (n == 2 && strcmp(t[0], "pace") == 0) {
        r->kind = R_PACE;
        r->scale = strtod(t[1], &end);
        return *end || end == t[1] || !(r->scale >= 0 && r->scale <= 10000) ? -1 : 0;
    }
    if (n >= 3 && (strcmp(t[0], "hccs") == 0 || strcmp(t[0], "sio") == 0 || strcmp(t[0], "nvlink") == 0 ||
                   strcmp(t[0], "pcie") == 0))
        return parse_linkstate(t, n, r);
    if (n >= 3 && strcmp(t[0], "nic") == 0)
        return parse_nic(t, n, r);
    if (n >= 2 && strcmp(t[0], "link") != 0 && !known_fn(t[1]))
        return -1;
    if (strcmp(t[0], "fail") == 0 && (n == 3 || (n == 5 && strcmp(t[3], "after") == 0))) {
        r->kind = R_FAIL;
        r->code = (int)strtol(t[2], &end, 10);
        if (*end || end == t[2] || r->code == 0)
            return -1;
        if (n == 5) {
            r->after = strtol(t[4], &end, 10);
            if (*end || end == t[4] || r->after < 0)
                return -1;
        }
    } else if (strcmp(t[0], "hang") == 0 && n == 2) {
        r->kind = R_HANG;
    } else if (strcmp(t[0], "crash") == 0 && n == 2) {
        r->kind = R_CRASH;
    } else if (strcmp(t[0], "corrupt") == 0 && n == 2) {
        r->kind = R_CORRUPT;
    } else if (strcmp(t[0], "link") == 0 && n == 5 && strcmp(t[3], "scale") == 0) {
        r->kind = R_LINK;
        char *e1, *e2;
        r->src = (int)strtol(t[1], &e1, 10);
        r->dst = (int)strtol(t[2], &e2, 10);
        r->scale = strtod(t[4], &end);
        if (*e1 || *e2 || *end || end == t[4] || r->scale < 0)
            return -1;
        return 0;
    } else {
        return -1;
    }
    snprintf(r->fn, sizeof r->fn, "%s", t[1]);
    return 0;
}

/* FNV-1a of a normalised line: the identity of a `base` line in the counters file. */
static uint64_t text_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h ? h : 1;
}

static void parse_control(const char *text)
{
    struct rule *old = rules;
    int nold = nrules;
    rules = NULL;
    nrules = 0;
    int cap = 0, unknown = 0, first_bad = 0;
    int line = 0;
    for (const char *s = text; s && *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char buf[512], norm[256] = "";
        line++;
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), s);
        s += len + (nl ? 1 : 0);
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *t[MAXTOK];
        int n = 0;
        for (char *save, *tok = strtok_r(buf, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
            if (n < MAXTOK)
                t[n] = tok;
            n++;
            size_t l = strlen(norm);
            snprintf(norm + l, sizeof norm - l, "%s%s", l ? " " : "", tok);
        }
        if (n == 0)
            continue;
        struct rule r;
        if (n > MAXTOK || parse_rule(t, n, &r) != 0) {
            if (!unknown++)
                first_bad = line;
            continue;
        }
        snprintf(r.text, sizeof r.text, "%s", norm);
        r.link.key = text_hash(norm);
        /* Same line as before: keep its call count (so `after N` counts from
         * when the line appeared, not from the latest edit of the file). */
        for (int i = 0; i < nold; i++)
            if (old[i].kind != -1 && strcmp(old[i].text, r.text) == 0) {
                r.calls = old[i].calls;
                old[i].kind = -1;
                break;
            }
        if (nrules == cap) {
            cap = cap ? cap * 2 : 16;
            struct rule *nr = realloc(rules, (size_t)cap * sizeof *nr);
            if (!nr)
                break;
            rules = nr;
        }
        rules[nrules++] = r;
    }
    free(old);
    if (unknown)
        fprintf(stderr, "linkwatch-sim: control file %s: ignored %d unknown line(s), first at line %d\n",
                cur_path, unknown, first_bad);
}

/* cl held.  Brings `rules` up to date with the control file. */
static void refresh(void)
{
    const char *path = getenv("LINKWATCH_SIM_CONTROL");
    if (!path || !*path) {
        if (content || nrules) {
            free(content);
            content = NULL;
            free(rules);
            rules = NULL;
            nrules = 0;
        }
        cur_path[0] = '\0';
        return;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0;
    bool same_path = strcmp(path, cur_path) == 0;
    if (!exists) {
        if (content || !same_path) {
            free(content);
            content = NULL;
            parse_control("");
        }
        snprintf(cur_path, sizeof cur_path, "%s", path);
        return;
    }
    bool changed = !same_path || !content || st.st_ino != last_st.st_ino || st.st_size != last_st.st_size ||
                   st.st_mtim.tv_sec != last_st.st_mtim.tv_sec || st.st_mtim.tv_nsec != last_st.st_mtim.tv_nsec;
    bool young = time(NULL) - st.st_mtim.tv_sec < 2;
    if (!changed && !young)
        return;
    char *text = lw_read_text_file(path);
    if (!text)
        return;
    last_st = st;
    snprintf(cur_path, sizeof cur_path, "%s", path);
    if (content && strcmp(text, content) == 0) {
        free(text);
        return;
    }
    free(content);
    content = text;
    parse_control(text);
}

/* Whether a fail/hang/crash rule names this call: the function, or (sub) the
 * function with the call's :MAIN:SUB. */
static bool names(const struct rule *r, const char *fn, const char *sub)
{
    return strcmp(r->fn, fn) == 0 || (sub && strcmp(r->fn, sub) == 0);
}

/* The face a function belongs to, from its name: the CUDA driver API, NVML and
 * NCCL names start with cu, nvml and nccl; no AscendCL, HCCL or DCMI name does. */
static int face_of(const char *fn)
{
    return strncmp(fn, "cu", 2) == 0 || strncmp(fn, "nvml", 4) == 0 || strncmp(fn, "nccl", 4) == 0
               ? LW_FACE_CUDA : LW_FACE_ACL;
}

int lw_enter(const char *fn)
{
    return lw_enter_sub(fn, NULL);
}

int lw_enter_sub(const char *fn, const char *sub)
{
    lw_face = face_of(fn);
    bool announced = false;
    for (;;) {
        pthread_mutex_lock(&cl);
        refresh();
        int code = 0;
        bool hang = false;
        for (int i = 0; i < nrules; i++) {
            struct rule *r = &rules[i];
            if (r->kind == R_LINK || r->kind == R_BUSY || r->kind == R_LINKSTATE || !names(r, fn, sub))
                continue;
            if (r->kind == R_CRASH) {
                pthread_mutex_unlock(&cl);
                fprintf(stderr, "linkwatch-sim: injected crash in %s\n", fn);
                fflush(stderr);
                abort();
            }
            if (r->kind == R_HANG)
                hang = true;
        }
        if (!hang) {
            for (int i = 0; i < nrules && !code; i++) {
                struct rule *r = &rules[i];
                if (r->kind != R_FAIL || !names(r, fn, sub))
                    continue;
                if (r->calls < r->after)
                    r->calls++;
                else
                    code = r->code;
            }
        }
        pthread_mutex_unlock(&cl);
        if (hang) {
            /* Blocks like a wedged driver call until the line is removed.  Said
             * once on stderr, so a test can act while the call is stuck. */
            if (!announced) {
                fprintf(stderr, "linkwatch-sim: %s hangs until its control line is removed\n", fn);
                fflush(stderr);
                announced = true;
            }
            struct timespec ts = { 0, 50 * 1000 * 1000 };
            nanosleep(&ts, NULL);
            continue;
        }
        /* DCMI has no recent-error text: a DCMI fault must not sit in AscendCL's unread messages
         * (the CUDA face's are dropped by lw_err). */
        if (code && strncmp(fn, "dcmi_", 5) != 0)
            lw_err("injected fault: %s returned %d", fn, code);
        return code;
    }
}

int32_t linkwatch_sim_tool_call(const char *name)
{
    return known_fn(name) ? lw_enter(name) : -1;
}

bool lw_fault_corrupt(const char *fn)
{
    pthread_mutex_lock(&cl);
    refresh();
    bool hit = false;
    for (int i = 0; i < nrules; i++)
        if (rules[i].kind == R_CORRUPT && strcmp(rules[i].fn, fn) == 0)
            hit = true;
    pthread_mutex_unlock(&cl);
    return hit;
}

double lw_fault_link_scale(int src, int dst)
{
    pthread_mutex_lock(&cl);
    refresh();
    double f = 1.0;
    for (int i = 0; i < nrules; i++)
        if (rules[i].kind == R_LINK && rules[i].src == src && rules[i].dst == dst)
            f *= rules[i].scale;
    pthread_mutex_unlock(&cl);
    return f;
}

double lw_fault_pace(void)
{
    pthread_mutex_lock(&cl);
    refresh();
    double f = 0;
    for (int i = 0; i < nrules; i++)
        if (rules[i].kind == R_PACE)
            f = rules[i].scale;
    pthread_mutex_unlock(&cl);
    return f;
}

int lw_link_rules(struct lw_linkrule *out, int max, double *mtime)
{
    pthread_mutex_lock(&cl);
    refresh();
    int n = 0;
    for (int i = 0; i < nrules; i++) {
        struct lw_linkrule l;
        if (rules[i].kind == R_LINKSTATE) {
            l = rules[i].link;
        } else if (rules[i].kind == R_BUSY && rules[i].load.traffic > 0) {
            l = (struct lw_linkrule){ .kind = LW_LR_TRAFFIC, .dev = rules[i].busy_dev, .port = -1, .lanes = -1,
                                      .rate = { rules[i].load.traffic } };
        } else {
            continue;
        }
        if (n < max)
            out[n] = l;
        n++;
    }
    *mtime = content ? (double)last_st.st_mtim.tv_sec + (double)last_st.st_mtim.tv_nsec * 1e-9 : 0;
    pthread_mutex_unlock(&cl);
    return n;
}

int lw_workloads(int dev, struct lw_workload *out, int max)
{
    pthread_mutex_lock(&cl);
    refresh();
    int n = 0;
    for (int i = 0; i < nrules; i++)
        if (rules[i].kind == R_BUSY && rules[i].busy_dev == dev) {
            if (n < max)
                out[n] = rules[i].load;
            n++;
        }
    pthread_mutex_unlock(&cl);
    return n;
}

/* Flips bytes spread over the buffer (first, last, one per 64 KiB) so that
 * any sampled checksum of the destination notices. */
void lw_corrupt_bytes(void *p, size_t n)
{
    unsigned char *b = p;
    if (n == 0)
        return;
    for (size_t off = 0; off < n; off += 65536)
        b[off] ^= 0xA5;
    if ((n - 1) % 65536 != 0)
        b[n - 1] ^= 0xA5;
}
