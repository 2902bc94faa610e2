/*
 * linkstate.c - passive link telemetry: the counters DCMI (HCCS, SIO) and NVML
 * (NVLink, PCIe replays) report, the link faults of the control file, and the
 * traffic copies and collectives put on the links.
 *
 * Real counters belong to the host, not to a process: the agent's watcher,
 * its probe workers and a test all load the sim separately and must see the
 * same figures.  So the counters live in a file mapped MAP_SHARED:
 * $LINKWATCH_SIM_COUNTERS, else "$LINKWATCH_SIM_CONTROL.counters", else
 * (neither set) process-private memory.  The file is created on first use
 * (zero = fresh) and carries a magic/version header: a file of another layout
 * is reset, not misread.  Increments are __atomic adds on the mapped u64s;
 * the rate advance runs under flock(2) on the file (a process that dies while
 * holding it releases it), and under `ml` between the threads of a process.
 *
 * Rates (crc, retry, replay, ... per second, and a busy job's traffic) come
 * from the control file and are applied lazily: every read brings all
 * counters of all devices up to now (CLOCK_REALTIME), adding rate x (now -
 * last advance), and stores now.  The rates in force are kept in the file
 * too: when a read finds that the rates changed and that the control file was
 * modified after the last advance, the old rates run up to the file's mtime
 * and the new ones from there, so a rate line that appears after a quiet hour
 * does not count the hour.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LS_MAGIC 0x4b4e4c57u     /* "WLNK" */
#define LS_VERSION 3u
#define LS_DEVS LW_MAX_DEVICES
#define LS_BASES 128             /* `base` lines remembered as applied */
#define LS_RULES 512             /* link rules looked at per read */
#define LS_USES 8                /* processes copying on one device at once, remembered */

/* An NPU RoCE port's speed when no `nic DEVICE speed` line lowers it: the
 * sim's choice (a 400GE port), not a figure of any product. */
#define NIC_DEFAULT_MBPS 400000
/* Receive power per lane when no `nic DEVICE optical rx_power` line sets it. */
#define NIC_DEFAULT_RX_MW 1.02
/* The packet size the sim counts a job's port traffic in. */
#define NIC_PACKET_BYTES 4096

const char *const lw_nic_error_kinds[LW_NIC_KINDS + 1] = {
    "mac_rx_bad_pkt", "mac_tx_bad_pkt", "mac_rx_fcs_err_pkt", "roce_rx_err_pkt", "roce_tx_err_pkt",
    "roce_unexpected_ack", "roce_out_of_order", "roce_verification_err", "roce_qp_status_err",
    "roce_new_pkt_rty", NULL
};

/* DRV tool_ops.c's net health table. */
const char *const lw_nic_health_names[LW_NIC_HEALTHS + 1] = {
    "Success", "Socket fail", "Receive timeout", "Unreachable", "Time exceeded", "Fault", "Init",
    "Thread error", "Detect ip set", "Unknown", NULL
};

/* DRV-SRC's HCCS_SINGLE_PACKETS_BYTES: the HCCS counters count 20-byte flits. */
#define HCCS_FLIT_BYTES 20

struct ls_dev {
    uint64_t c[LW_C_N];
    double rate[LW_C_N];         /* per second, as of the last advance */
    double frac[LW_C_N];         /* the part of a count not yet whole */
};

/* One process's copies on a device, until a wall time (paced copies). */
struct ls_use {
    int32_t pid, pad;
    double until;
};

struct ls_file {
    uint32_t magic, version;
    uint64_t size;
    uint32_t ndevs, ncounters;
    double last;                 /* CLOCK_REALTIME seconds of the last advance */
    uint64_t base_key[LS_BASES]; /* keys of the `base` lines applied; 0 = free */
    struct ls_dev dev[LS_DEVS];
    struct ls_use use[LS_DEVS][LS_USES];
};

static pthread_mutex_t ml = PTHREAD_MUTEX_INITIALIZER;   /* everything below */
static struct ls_file *map;
static int map_fd = -1;
static char map_path[4096];      /* "" for process-private memory */
static dev_t map_dev;
static ino_t map_ino;
static pid_t map_pid;
static struct lw_profile *topo[LW_FACES];   /* each face's whole host profile */
static double new_rate[LS_DEVS][LW_C_N];   /* scratch of advance() */
static struct lw_linkrule rules_buf[LS_RULES];

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void counters_path(char *buf, size_t len)
{
    const char *c = getenv("LINKWATCH_SIM_COUNTERS"), *ctl = getenv("LINKWATCH_SIM_CONTROL");
    if (c && *c)
        snprintf(buf, len, "%s", c);
    else if (ctl && *ctl)
        snprintf(buf, len, "%s.counters", ctl);
    else
        buf[0] = '\0';
}

static void init_header(struct ls_file *f)
{
    memset(f, 0, sizeof *f);
    f->magic = LS_MAGIC;
    f->version = LS_VERSION;
    f->size = sizeof *f;
    f->ndevs = LS_DEVS;
    f->ncounters = LW_C_N;
    f->last = wall_now();
}

static void unmap(void)
{
    if (map)
        munmap(map, sizeof *map);
    if (map_fd >= 0)
        close(map_fd);
    map = NULL;
    map_fd = -1;
    map_path[0] = '\0';
}

/* ml held.  The counters of this process's path, (re)mapped when the path,
 * the file behind it, or the process (after fork) changed. */
static struct ls_file *ensure_map(void)
{
    char path[sizeof map_path];
    counters_path(path, sizeof path);
    if (map && map_pid == getpid() && strcmp(path, map_path) == 0) {
        struct stat st;
        if (!path[0] || map_fd < 0 || (stat(path, &st) == 0 && st.st_dev == map_dev && st.st_ino == map_ino))
            return map;
    }
    unmap();
    map_pid = getpid();
    if (path[0]) {
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        struct stat st;
        if (fd >= 0 && flock(fd, LOCK_EX) == 0 && fstat(fd, &st) == 0) {
            bool ok = true;
            if (st.st_size != (off_t)sizeof *map)   /* new, or another layout: start from zero */
                ok = ftruncate(fd, 0) == 0 && ftruncate(fd, sizeof *map) == 0;
            void *m = ok ? mmap(NULL, sizeof *map, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
            if (m != MAP_FAILED) {
                struct ls_file *f = m;
                if (f->magic != LS_MAGIC || f->version != LS_VERSION || f->size != sizeof *f ||
                    f->ndevs != LS_DEVS || f->ncounters != LW_C_N)
                    init_header(f);
                flock(fd, LOCK_UN);
                map = f;
                map_fd = fd;
                map_dev = st.st_dev;
                map_ino = st.st_ino;
                snprintf(map_path, sizeof map_path, "%s", path);
                return map;
            }
        }
        fprintf(stderr, "linkwatch-sim: link counters file %s: %s; counting in this process only\n", path,
                strerror(errno));
        if (fd >= 0)
            close(fd);
    }
    void *m = mmap(NULL, sizeof *map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    map = m;
    init_header(map);
    snprintf(map_path, sizeof map_path, "%s", path);
    if (path[0]) {
        /* remember the failed path so it is not retried on every call */
        map_dev = 0;
        map_ino = 0;
    }
    return map;
}

void lw_links_topology(int face, const struct lw_profile *full)
{
    pthread_mutex_lock(&ml);
    if (!topo[face])
        topo[face] = malloc(sizeof *topo[face]);
    if (topo[face])
        *topo[face] = *full;
    pthread_mutex_unlock(&ml);
}

int lw_hccs_ports(const struct lw_profile *p, int dev, int peer[LW_HCCS_PORTS])
{
    int n = 0;
    for (int k = 0; k < LW_HCCS_PORTS; k++)
        peer[k] = -1;
    for (int q = 0; dev >= 0 && dev < p->ndev && q < p->ndev && n < LW_HCCS_PORTS - 1; q++) {
        int t = p->link[dev][q].type;
        if (q != dev && (t == LW_LINK_HCCS || t == LW_LINK_HCCS_SW))
            peer[++n] = q;
    }
    return n;
}

static int hccs_port_of(const struct lw_profile *p, int dev, int peer)
{
    int peers[LW_HCCS_PORTS];
    int n = lw_hccs_ports(p, dev, peers);
    for (int k = 1; k <= n; k++)
        if (peers[k] == peer)
            return k;
    return 0;
}

int lw_nvlink_peer(const struct lw_profile *p, int dev, int link, bool *none)
{
    *none = false;
    if (p->nvswitch)
        return -1;
    int peers[LW_MAX_DEVICES], n = 0;
    for (int q = 0; dev >= 0 && dev < p->ndev && q < p->ndev; q++)
        if (q != dev && p->link[dev][q].type == LW_LINK_NVLINK)
            peers[n++] = q;
    if (n == 0) {
        *none = true;
        return -1;
    }
    return peers[link % n];
}

/* The state rules[0..n) give host device dev's links. */
static void devlinks_of(const struct lw_linkrule *r, int n, int dev, struct lw_devlinks *out)
{
    memset(out, 0, sizeof *out);
    out->nic_rx_power = -1;
    for (int k = 0; k < LW_HCCS_PORTS; k++)
        out->hccs_lanes[k] = 4;
    for (int i = 0; i < n; i++) {
        if (r[i].dev != dev)
            continue;
        if (r[i].kind == LW_LR_HCCS) {
            out->hccs_down[r[i].port] |= r[i].down;
            if (r[i].lanes >= 0)
                out->hccs_lanes[r[i].port] = r[i].lanes;
        } else if (r[i].kind == LW_LR_NVLINK) {
            out->nv_down[r[i].port] |= r[i].down;
        } else if (r[i].kind == LW_LR_NIC) {
            out->nic_down |= r[i].down;
            if (r[i].nic_speed)
                out->nic_speed = r[i].nic_speed;
            if (r[i].nic_health >= 0)
                out->nic_health = r[i].nic_health;
            if (r[i].nic_rx_power >= 0)
                out->nic_rx_power = r[i].nic_rx_power;
        } else if (r[i].kind == LW_LR_PCIE) {
            if (r[i].gen && (!out->pcie_gen || r[i].gen < out->pcie_gen))
                out->pcie_gen = r[i].gen;
            if (r[i].width && (!out->pcie_width || r[i].width < out->pcie_width))
                out->pcie_width = r[i].width;
        }
    }
    for (int k = 0; k < LW_HCCS_PORTS; k++)
        if (out->hccs_down[k])
            out->hccs_lanes[k] = 0;
}

/* ml held: the current rules into rules_buf. */
static int rules_now(double *mtime)
{
    int n = lw_link_rules(rules_buf, LS_RULES, mtime);
    return n < LS_RULES ? n : LS_RULES;
}

void lw_dev_links(int dev, struct lw_devlinks *out)
{
    pthread_mutex_lock(&ml);
    double mtime;
    int n = rules_now(&mtime);
    devlinks_of(rules_buf, n, dev, out);
    pthread_mutex_unlock(&ml);
}

/* NVLinks of dev (under face topology p) that are up and reach `toward`
 * (any of the devices in toward[0..nt), or anything when nt < 0, or all when
 * the links go into NVSwitches) into links; returns how many. */
static int nv_links_toward(const struct lw_profile *p, int dev, const struct lw_devlinks *dl,
                           const int *toward, int nt, int *links)
{
    int m = 0;
    for (int l = 0; l < p->nvlinks && l < LW_NVLINKS; l++) {
        if (dl->nv_down[l])
            continue;
        bool none;
        int peer = lw_nvlink_peer(p, dev, l, &none);
        bool hit = !none && (p->nvswitch || nt < 0);
        for (int i = 0; !hit && !none && i < nt; i++)
            hit = toward[i] == peer;
        if (hit)
            links[m++] = l;
    }
    return m;
}

/* HCCS ports of dev that are up and carry one of toward[0..nt) (any when nt < 0). */
static int hccs_ports_toward(const struct lw_profile *p, int dev, const struct lw_devlinks *dl,
                             const int *toward, int nt, int *ports)
{
    int peers[LW_HCCS_PORTS], m = 0;
    int n = lw_hccs_ports(p, dev, peers);
    for (int k = 1; k <= n; k++) {
        if (dl->hccs_down[k] || dl->hccs_lanes[k] == 0)
            continue;
        bool hit = nt < 0;
        for (int i = 0; !hit && i < nt; i++)
            hit = toward[i] == peers[k];
        if (hit)
            ports[m++] = k;
    }
    return m;
}

/* ml held: the rates rules[0..n) ask for, into new_rate. */
static void compute_rates(const struct lw_linkrule *r, int n)
{
    memset(new_rate, 0, sizeof new_rate);
    for (int i = 0; i < n; i++) {
        int d = r[i].dev, k = r[i].port;
        if (d < 0 || d >= LS_DEVS)
            continue;
        double *nr = new_rate[d];
        switch (r[i].kind) {
        case LW_LR_HCCS:
            nr[LW_C_HCCS_CRC + k] += r[i].rate[0];
            nr[LW_C_HCCS_RETRY + k] += r[i].rate[1];
            break;
        case LW_LR_SIO:
            nr[LW_C_SIO_CRC_TX] += r[i].rate[0];
            nr[LW_C_SIO_CRC_RX] += r[i].rate[1];
            break;
        case LW_LR_NVLINK:
            nr[LW_C_NV_REPLAY + k] += r[i].rate[0];
            nr[LW_C_NV_RECOVERY + k] += r[i].rate[1];
            nr[LW_C_NV_CRC_FLIT + k] += r[i].rate[2];
            nr[LW_C_NV_CRC_DATA + k] += r[i].rate[3];
            break;
        case LW_LR_PCIE:
            nr[LW_C_PCIE_REPLAY] += r[i].rate[0];
            break;
        case LW_LR_NIC:
            if (r[i].nic_error >= 0)
                nr[LW_C_NIC_ERR + r[i].nic_error] += r[i].rate[0];
            break;
        case LW_LR_TRAFFIC: {
            /* a job's traffic, spread evenly over the device's up links, both ways */
            struct lw_devlinks dl;
            devlinks_of(r, n, d, &dl);
            int sel[LW_NVLINKS], m;
            if (topo[LW_FACE_ACL] && (m = hccs_ports_toward(topo[LW_FACE_ACL], d, &dl, NULL, -1, sel)) > 0)
                for (int j = 0; j < m; j++) {
                    nr[LW_C_HCCS_TX + sel[j]] += r[i].rate[0] / m / HCCS_FLIT_BYTES;
                    nr[LW_C_HCCS_RX + sel[j]] += r[i].rate[0] / m / HCCS_FLIT_BYTES;
                }
            if (topo[LW_FACE_CUDA] && (m = nv_links_toward(topo[LW_FACE_CUDA], d, &dl, NULL, -1, sel)) > 0)
                for (int j = 0; j < m; j++) {
                    nr[LW_C_NV_TX + sel[j]] += r[i].rate[0] / m;
                    nr[LW_C_NV_RX + sel[j]] += r[i].rate[0] / m;
                }
            /* and as much again through the NPU's port to other servers, while it is up */
            if (!dl.nic_down) {
                nr[LW_C_NIC_TX_OCT] += r[i].rate[0];
                nr[LW_C_NIC_RX_OCT] += r[i].rate[0];
                nr[LW_C_NIC_TX_PKT] += r[i].rate[0] / NIC_PACKET_BYTES;
                nr[LW_C_NIC_RX_PKT] += r[i].rate[0] / NIC_PACKET_BYTES;
            }
            break;
        }
        }
    }
}

/* ml and the file lock held: adds rate x dt to every counter with a rate. */
static void apply(struct ls_file *f, bool stored, double dt)
{
    if (!(dt > 0))
        return;
    for (int d = 0; d < LS_DEVS; d++) {
        struct ls_dev *v = &f->dev[d];
        for (int i = 0; i < LW_C_N; i++) {
            double rate = stored ? v->rate[i] : new_rate[d][i];
            if (rate <= 0)
                continue;
            double acc = v->frac[i] + rate * dt, whole = floor(acc);
            v->frac[i] = acc - whole;
            if (whole >= 1)
                __atomic_fetch_add(&v->c[i], whole >= 1.8e19 ? UINT64_MAX : (uint64_t)whole, __ATOMIC_RELAXED);
        }
    }
}

static void set_counter(struct ls_dev *v, int i, uint64_t value)
{
    __atomic_store_n(&v->c[i], value, __ATOMIC_RELAXED);
    v->frac[i] = 0;
}

/* ml and the file lock held: a `base` line seen for the first time sets its counters. */
static void apply_base(struct ls_file *f, const struct lw_linkrule *r)
{
    if (r->dev < 0 || r->dev >= LS_DEVS)
        return;
    struct ls_dev *v = &f->dev[r->dev];
    int k = r->port;
    switch (r->kind) {
    case LW_LR_HCCS:
        set_counter(v, LW_C_HCCS_TX + k, r->base);
        set_counter(v, LW_C_HCCS_RX + k, r->base);
        set_counter(v, LW_C_HCCS_CRC + k, r->base);
        set_counter(v, LW_C_HCCS_RETRY + k, r->base);
        break;
    case LW_LR_SIO:
        set_counter(v, LW_C_SIO_CRC_TX, r->base);
        set_counter(v, LW_C_SIO_CRC_RX, r->base);
        break;
    case LW_LR_NVLINK:
        set_counter(v, LW_C_NV_REPLAY + k, r->base);
        set_counter(v, LW_C_NV_RECOVERY + k, r->base);
        set_counter(v, LW_C_NV_CRC_FLIT + k, r->base);
        set_counter(v, LW_C_NV_CRC_DATA + k, r->base);
        break;
    default:
        break;
    }
}

/* ml and the file lock held: brings every counter up to now. */
static void advance(struct ls_file *f)
{
    double mtime, now = wall_now();
    int n = rules_now(&mtime);
    compute_rates(rules_buf, n);
    double last = f->last;
    if (!(last <= now))          /* the clock went back (or a torn value): restart from now */
        last = now;
    bool changed = false;
    for (int d = 0; d < LS_DEVS && !changed; d++)
        changed = memcmp(f->dev[d].rate, new_rate[d], sizeof new_rate[d]) != 0;
    if (changed && mtime > last && mtime < now) {
        apply(f, true, mtime - last);   /* the old rates ran until the control file changed */
        last = mtime;
    }
    apply(f, false, now - last);
    for (int d = 0; d < LS_DEVS; d++)
        memcpy(f->dev[d].rate, new_rate[d], sizeof new_rate[d]);
    f->last = now;

    /* an NPU port's link ups: one at the start, one more for each `nic N down`
     * line seen gone (a down and up between two reads is not seen) */
    for (int d = 0; d < LS_DEVS; d++) {
        struct lw_devlinks dl;
        devlinks_of(rules_buf, n, d, &dl);
        struct ls_dev *v = &f->dev[d];
        if (v->c[LW_C_NIC_LINK_UPS] == 0)
            set_counter(v, LW_C_NIC_LINK_UPS, 1);
        if (v->c[LW_C_NIC_WAS_DOWN] && !dl.nic_down)
            __atomic_fetch_add(&v->c[LW_C_NIC_LINK_UPS], 1, __ATOMIC_RELAXED);
        set_counter(v, LW_C_NIC_WAS_DOWN, dl.nic_down ? 1 : 0);
    }

    /* `base` lines: applied once, when first seen; forgotten once gone, so a
     * line written again applies again */
    for (int i = 0; i < n; i++) {
        if (!rules_buf[i].has_base)
            continue;
        bool seen = false;
        for (int j = 0; j < LS_BASES && !seen; j++)
            seen = f->base_key[j] == rules_buf[i].key;
        if (seen)
            continue;
        apply_base(f, &rules_buf[i]);
        int j = 0;
        while (j < LS_BASES && f->base_key[j])
            j++;
        if (j == LS_BASES) {      /* full: forget the oldest */
            memmove(f->base_key, f->base_key + 1, (LS_BASES - 1) * sizeof f->base_key[0]);
            j = LS_BASES - 1;
        }
        f->base_key[j] = rules_buf[i].key;
    }
    for (int j = 0; j < LS_BASES; j++) {
        bool present = false;
        for (int i = 0; i < n && !present && f->base_key[j]; i++)
            present = rules_buf[i].has_base && rules_buf[i].key == f->base_key[j];
        if (!present)
            f->base_key[j] = 0;
    }
}

int lw_counters_read(int dev, uint64_t out[LW_C_N])
{
    if (dev < 0 || dev >= LS_DEVS)
        return -1;
    pthread_mutex_lock(&ml);
    struct ls_file *f = ensure_map();
    if (!f) {
        pthread_mutex_unlock(&ml);
        memset(out, 0, LW_C_N * sizeof out[0]);
        return 0;
    }
    if (map_fd >= 0)
        flock(map_fd, LOCK_EX);
    advance(f);
    if (map_fd >= 0)
        flock(map_fd, LOCK_UN);
    for (int i = 0; i < LW_C_N; i++)
        out[i] = __atomic_load_n(&f->dev[dev].c[i], __ATOMIC_RELAXED);
    pthread_mutex_unlock(&ml);
    return 0;
}

/* ml held. */
static void add(struct ls_file *f, int dev, int i, uint64_t v)
{
    if (f && dev >= 0 && dev < LS_DEVS && v)
        __atomic_fetch_add(&f->dev[dev].c[i], v, __ATOMIC_RELAXED);
}

static uint64_t flits(double bytes)
{
    return (uint64_t)ceil(bytes / HCCS_FLIT_BYTES);
}

/* ml held: the face's topology, when registered and holding both devices. */
static const struct lw_profile *topo_of(int face, int a, int b)
{
    const struct lw_profile *p = topo[face];
    return p && a >= 0 && b >= 0 && a < p->ndev && b < p->ndev && a < LS_DEVS && b < LS_DEVS ? p : NULL;
}

void lw_links_copy_traffic(int face, int src, int dst, uint64_t bytes)
{
    pthread_mutex_lock(&ml);
    const struct lw_profile *p = topo_of(face, src, dst);
    int type = p ? p->link[src][dst].type : LW_LINK_NONE;
    if (src == dst || !bytes || !(face == LW_FACE_ACL ? type == LW_LINK_HCCS || type == LW_LINK_HCCS_SW
                                                      : type == LW_LINK_NVLINK && p->nvlinks > 0)) {
        pthread_mutex_unlock(&ml);
        return;
    }
    struct ls_file *f = ensure_map();
    double mtime;
    int n = rules_now(&mtime);
    struct lw_devlinks ds, dd;
    devlinks_of(rules_buf, n, src, &ds);
    devlinks_of(rules_buf, n, dst, &dd);
    if (face == LW_FACE_ACL) {
        /* the port of each end that carries the pair; a down one carries nothing */
        int ps = hccs_port_of(p, src, dst), pd = hccs_port_of(p, dst, src);
        if (ps && ds.hccs_lanes[ps] > 0)
            add(f, src, LW_C_HCCS_TX + ps, flits((double)bytes));
        if (pd && dd.hccs_lanes[pd] > 0)
            add(f, dst, LW_C_HCCS_RX + pd, flits((double)bytes));
    } else {
        int sel[LW_NVLINKS], m = nv_links_toward(p, src, &ds, &dst, 1, sel);
        for (int j = 0; j < m; j++)
            add(f, src, LW_C_NV_TX + sel[j], bytes / (uint64_t)m + ((uint64_t)j < bytes % (uint64_t)m));
        m = nv_links_toward(p, dst, &dd, &src, 1, sel);
        for (int j = 0; j < m; j++)
            add(f, dst, LW_C_NV_RX + sel[j], bytes / (uint64_t)m + ((uint64_t)j < bytes % (uint64_t)m));
    }
    pthread_mutex_unlock(&ml);
}

void lw_links_collective_traffic(int face, const int *devs, int n, double bytes)
{
    if (n < 2 || !(bytes > 0))
        return;
    pthread_mutex_lock(&ml);
    const struct lw_profile *p = topo[face];
    struct ls_file *f = p ? ensure_map() : NULL;
    double mtime;
    int nr = p ? rules_now(&mtime) : 0;
    for (int r = 0; p && r < n; r++) {
        int d = devs[r], others[LW_MAX_DEVICES], no = 0, sel[LW_NVLINKS], m;
        if (d < 0 || d >= p->ndev || d >= LS_DEVS)
            continue;
        for (int q = 0; q < n; q++)
            if (q != r)
                others[no++] = devs[q];
        struct lw_devlinks dl;
        devlinks_of(rules_buf, nr, d, &dl);
        if (face == LW_FACE_ACL) {
            m = hccs_ports_toward(p, d, &dl, others, no, sel);
            for (int j = 0; j < m; j++) {
                add(f, d, LW_C_HCCS_TX + sel[j], flits(bytes / m));
                add(f, d, LW_C_HCCS_RX + sel[j], flits(bytes / m));
            }
        } else if (p->nvlinks > 0) {
            m = nv_links_toward(p, d, &dl, others, no, sel);
            for (int j = 0; j < m; j++) {
                add(f, d, LW_C_NV_TX + sel[j], (uint64_t)llround(bytes / m));
                add(f, d, LW_C_NV_RX + sel[j], (uint64_t)llround(bytes / m));
            }
        }
    }
    pthread_mutex_unlock(&ml);
}

void lw_links_nic_traffic(int dev, double tx, double rx)
{
    if (dev < 0 || dev >= LS_DEVS || !(tx > 0 || rx > 0))
        return;
    pthread_mutex_lock(&ml);
    struct ls_file *f = ensure_map();
    double mtime;
    int n = rules_now(&mtime);
    struct lw_devlinks dl;
    devlinks_of(rules_buf, n, dev, &dl);
    if (!dl.nic_down) {
        add(f, dev, LW_C_NIC_TX_OCT, (uint64_t)llround(tx));
        add(f, dev, LW_C_NIC_RX_OCT, (uint64_t)llround(rx));
        add(f, dev, LW_C_NIC_TX_PKT, (uint64_t)ceil(tx / NIC_PACKET_BYTES));
        add(f, dev, LW_C_NIC_RX_PKT, (uint64_t)ceil(rx / NIC_PACKET_BYTES));
    }
    pthread_mutex_unlock(&ml);
}

static bool alive(pid_t pid)
{
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

void lw_links_occupy(int a, int b, double seconds)
{
    int devs[2] = { a, b };
    pid_t me = getpid();
    pthread_mutex_lock(&ml);
    struct ls_file *f = ensure_map();
    double now = wall_now();
    for (int k = 0; f && k < 2; k++) {
        int d = devs[k];
        if (d < 0 || d >= LS_DEVS || (k == 1 && d == a))
            continue;
        struct ls_use *mine = NULL, *free_slot = NULL;
        for (int j = 0; j < LS_USES; j++) {
            struct ls_use *u = &f->use[d][j];
            if (u->pid == me)
                mine = u;
            else if (!free_slot && (u->until < now || !alive(u->pid)))
                free_slot = u;
        }
        struct ls_use *u = mine ? mine : free_slot;
        if (u == mine && u->until > now + seconds)
            continue;   /* an earlier copy of ours holds it longer */
        if (u) {
            u->pid = me;
            u->until = now + seconds;
        }
    }
    pthread_mutex_unlock(&ml);
}

double lw_links_shared_factor(int a, int b)
{
    int devs[2] = { a, b };
    pid_t me = getpid();
    double fac = 1.0;
    pthread_mutex_lock(&ml);
    struct ls_file *f = ensure_map();
    double now = wall_now();
    for (int k = 0; f && k < 2; k++) {
        int d = devs[k];
        if (d < 0 || d >= LS_DEVS)
            continue;
        for (int j = 0; j < LS_USES; j++) {
            const struct ls_use *u = &f->use[d][j];
            if (u->pid != me && u->pid > 0 && u->until > now && alive(u->pid))
                fac = 0.5;
        }
    }
    pthread_mutex_unlock(&ml);
    return fac;
}

/* ml held: the share of its NVLinks a device has up (1/16 with none: the
 * traffic detours). */
static double nv_share(const struct lw_profile *p, const struct lw_devlinks *dl)
{
    int up = 0;
    for (int l = 0; l < p->nvlinks && l < LW_NVLINKS; l++)
        up += !dl->nv_down[l];
    return up == 0 ? 1.0 / 16 : (double)up / p->nvlinks;
}

double lw_links_copy_factor(int face, int src, int dst)
{
    pthread_mutex_lock(&ml);
    const struct lw_profile *p = topo_of(face, src, dst);
    int type = p ? p->link[src][dst].type : LW_LINK_NONE;
    double fac = 1.0;
    if (src != dst && (face == LW_FACE_ACL ? type == LW_LINK_HCCS || type == LW_LINK_HCCS_SW
                                           : type == LW_LINK_NVLINK && p->nvlinks > 0)) {
        double mtime;
        int n = rules_now(&mtime);
        struct lw_devlinks ds, dd;
        devlinks_of(rules_buf, n, src, &ds);
        devlinks_of(rules_buf, n, dst, &dd);
        if (face == LW_FACE_ACL) {
            /* the lanes of the port at each end; a port down (or at 0 lanes): 1/16, detouring */
            int ends[2][2] = { { hccs_port_of(p, src, dst), 0 }, { hccs_port_of(p, dst, src), 1 } };
            for (int e = 0; e < 2; e++) {
                int k = ends[e][0];
                const struct lw_devlinks *dl = e == 0 ? &ds : &dd;
                if (!k)
                    continue;
                double f = dl->hccs_lanes[k] == 0 ? 1.0 / 16 : dl->hccs_lanes[k] / 4.0;
                fac = f < fac ? f : fac;
            }
        } else {
            double a = nv_share(p, &ds), b = nv_share(p, &dd);
            fac = a < b ? a : b;
        }
    }
    pthread_mutex_unlock(&ml);
    return fac;
}

int32_t linkwatch_sim_nic(int32_t device, struct linkwatch_sim_nic *out)
{
    uint64_t c[LW_C_N];
    if (device < 0 || device >= LS_DEVS || !out || lw_counters_read(device, c) != 0)
        return -1;
    struct lw_devlinks dl;
    lw_dev_links(device, &dl);
    memset(out, 0, sizeof *out);
    out->up = dl.nic_down ? 0 : 1;
    out->speed_mbps = dl.nic_down ? 0 : (uint32_t)(dl.nic_speed ? dl.nic_speed : NIC_DEFAULT_MBPS);
    out->health = dl.nic_health;
    out->rx_power_mw = dl.nic_rx_power >= 0 ? dl.nic_rx_power : dl.nic_down ? 0 : NIC_DEFAULT_RX_MW;
    out->tx_octets = c[LW_C_NIC_TX_OCT];
    out->rx_octets = c[LW_C_NIC_RX_OCT];
    out->tx_packets = c[LW_C_NIC_TX_PKT];
    out->rx_packets = c[LW_C_NIC_RX_PKT];
    out->link_ups = c[LW_C_NIC_LINK_UPS] ? c[LW_C_NIC_LINK_UPS] : 1;
    for (int i = 0; i < LW_NIC_KINDS && i < LINKWATCH_SIM_NIC_KINDS; i++)
        out->errors[i] = c[LW_C_NIC_ERR + i];
    return 0;
}

const char *linkwatch_sim_nic_error_kind(int32_t i)
{
    return i >= 0 && i < LW_NIC_KINDS ? lw_nic_error_kinds[i] : NULL;
}

const char *linkwatch_sim_nic_health_name(int32_t code)
{
    return code >= 0 && code < LW_NIC_HEALTHS ? lw_nic_health_names[code] : NULL;
}
