/*
 * profile.c - parses the line-based machine profile (devices, links, rates).
 *
 * The grammar is documented in native/README.md.  Every error names the file,
 * the line and the reason, because a silently misread profile would produce
 * plausible but wrong figures - the worst failure for a measurement tool.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "default_profile.h"        /* generated from profiles/atlas-800t-a3.profile */
#include "default_profile_cuda.h"   /* generated from profiles/hgx-h200.profile */

#define MAXTOK 16

static const char *const link_names[] = { "NONE", "HCCS", "PIX", "PHB", "SYS", "SIO", "HCCS_SW",
                                           "NVLINK", "PXB", "NODE" };
/* NVLINK, PXB and NODE have no aclrtGetDevicesTopo bit: 0. */
static const uint64_t link_bits[] = { 0, ACL_RT_DEVS_TOPOLOGY_HCCS, ACL_RT_DEVS_TOPOLOGY_PIX,
                                      ACL_RT_DEVS_TOPOLOGY_PHB, ACL_RT_DEVS_TOPOLOGY_SYS,
                                      ACL_RT_DEVS_TOPOLOGY_SIO, ACL_RT_DEVS_TOPOLOGY_HCCS_SW, 0, 0, 0 };

const char *lw_link_type_name(int type)
{
    return (type > 0 && type <= LW_LINK_LAST) ? link_names[type] : NULL;
}

uint64_t lw_link_type_topo_bit(int type)
{
    return (type > 0 && type <= LW_LINK_LAST) ? link_bits[type] : 0;
}

/* The PCIe path a link line of this type stands for (its `pcie` attribute
 * when NVLINK): the type itself for the PCIe kinds, SYS for the others. */
static int default_pcie(int type)
{
    return type == LW_LINK_PIX || type == LW_LINK_PXB || type == LW_LINK_PHB || type == LW_LINK_NODE
               ? type : LW_LINK_SYS;
}

/* Splits "<number><unit>" and looks the unit up in a table; the number must
 * be finite and >= 0.  Returns 0 on success. */
struct unit { const char *name; double scale; };

static int parse_with_units(const char *tok, const struct unit *units, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(tok, &end);
    if (end == tok || errno != 0 || !isfinite(v) || v < 0)
        return -1;
    for (const struct unit *u = units; u->name; u++) {
        if (strcmp(end, u->name) == 0) {
            *out = v * u->scale;
            return 0;
        }
    }
    return -1;
}

static const struct unit size_units[] = {
    { "", 1 }, { "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
    { "TiB", 1099511627776.0 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 }, { "TB", 1e12 },
    { NULL, 0 }
};
static const struct unit bw_units[] = { { "GB/s", 1e9 }, { "MB/s", 1e6 }, { NULL, 0 } };
static const struct unit time_units[] = {
    { "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1.0 }, { NULL, 0 }
};

int lw_parse_bandwidth(const char *tok, double *out)
{
    return parse_with_units(tok, bw_units, out);
}

static int parse_int(const char *tok, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (end == tok || *end || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static void set_defaults(struct lw_profile *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->soc, sizeof p->soc, "Ascend-sim");
    for (int i = 0; i < LW_MAX_DEVICES; i++) {
        p->phy[i] = i;
        /* devices without a `pci` attribute get distinct bus numbers, so that
         * a caller matching CUDA and NVML devices by bus id still can */
        p->pci[i] = (struct lw_pci){ 0, (unsigned)i + 1, 0, 0 };
    }
    /* Fallbacks for profiles that leave a line out: the A3 figures. */
    p->local = (struct lw_path){ 621e9, 10e-6 };
    p->pinned_h2d = 58e9;
    p->pinned_d2h = 41e9;
    p->pinned_latency = 20e-6;
    p->pageable_h2d = 18e9;
    p->pageable_d2h = 20e9;
    p->pageable_latency = 50e-6;
    p->allreduce = (struct lw_path){ 108e9, 270e-6 };
    /* No allgather figure is published for the A3: assumed the allreduce's
     * latency and, as there is nothing to reduce, ~80 % of the SIO p2p rate. */
    p->allgather = (struct lw_path){ 150e9, 270e-6 };
    /* Host to host, assumed: one 200 Gb/s RoCE port per NPU, as on the A3. */
    p->peer_link = (struct lw_path){ 25e9, 10e-6 };
    p->hccl_timeout = 120;
    p->noise = 0.01;
    p->busy_share = 0.5;
}

/* Context for one parse so helpers can report "name:line: reason". */
struct ctx {
    const char *name;
    int line;
    char *err;
    size_t errlen;
    struct lw_profile *p;
    bool declared[LW_MAX_DEVICES];
};

#define FAIL(c, ...) do { bad((c), __VA_ARGS__); return -1; } while (0)

__attribute__((format(printf, 2, 3)))
static void bad(struct ctx *c, const char *fmt, ...)
{
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errlen, "%s:%d: %s", c->name, c->line, reason);
}

static int need_dev(struct ctx *c, const char *tok, int *out)
{
    if (parse_int(tok, 0, LW_MAX_DEVICES - 1, out) != 0)
        FAIL(c, "bad device id '%s'", tok);
    if (!c->declared[*out])
        FAIL(c, "device %d is not declared (declare devices before using them)", *out);
    return 0;
}

static int need(struct ctx *c, const struct unit *u, const char *what, const char *tok, double *out)
{
    if (parse_with_units(tok, u, out) != 0)
        FAIL(c, "bad %s '%s'", what, tok);
    return 0;
}

static int need_bw(struct ctx *c, const char *tok, double *out)
{
    if (need(c, bw_units, "bandwidth (want e.g. 190GB/s or 500MB/s)", tok, out) != 0)
        return -1;
    if (*out <= 0)
        FAIL(c, "bandwidth must be > 0");
    return 0;
}

static int need_time(struct ctx *c, const char *tok, double *out)
{
    return need(c, time_units, "time (want e.g. 0.21ms, 270us, 120s)", tok, out);
}

/* Checks that tokens at the given positions are the expected keywords. */
static int keywords(struct ctx *c, char **t, int n, int want_n, const char *usage,
                    const int *pos, const char *const *kw, int nkw)
{
    if (n != want_n)
        FAIL(c, "expected '%s'", usage);
    for (int i = 0; i < nkw; i++)
        if (strcmp(t[pos[i]], kw[i]) != 0)
            FAIL(c, "expected '%s' (found '%s')", usage, t[pos[i]]);
    return 0;
}

/* "DDDD:BB:DD.F" in hex, either case: a domain of 1..8 digits (CUDA prints
 * four, NVML eight), two-digit bus and device (device < 32), function 0..7. */
int lw_parse_pci(const char *tok, struct lw_pci *out)
{
    static const char hex[] = "0123456789abcdefABCDEF";
    size_t dl = strspn(tok, hex);
    if (dl < 1 || dl > 8 || tok[dl] != ':' || strspn(tok + dl + 1, hex) != 2 || tok[dl + 3] != ':' ||
        strspn(tok + dl + 4, hex) != 2 || tok[dl + 6] != '.' || tok[dl + 7] < '0' || tok[dl + 7] > '7' ||
        tok[dl + 8] != '\0')
        return -1;
    unsigned dom = (unsigned)strtoul(tok, NULL, 16);
    unsigned bus = (unsigned)strtoul(tok + dl + 1, NULL, 16);
    unsigned dev = (unsigned)strtoul(tok + dl + 4, NULL, 16);
    if (dev > 31)
        return -1;
    *out = (struct lw_pci){ dom, bus, dev, (unsigned)(tok[dl + 7] - '0') };
    return 0;
}

static int parse_line(struct ctx *c, char **t, int n)
{
    struct lw_profile *p = c->p;
    const char *k = t[0];

    if (strcmp(k, "soc") == 0) {
        /* the rest of the line, single-spaced: "soc NVIDIA H200" names "NVIDIA H200" */
        char name[sizeof p->soc] = "";
        if (n < 2)
            FAIL(c, "expected 'soc NAME'");
        for (int i = 1; i < n; i++) {
            size_t l = strlen(name), tl = strlen(t[i]), sep = i > 1;
            if (l + sep + tl >= sizeof name)
                FAIL(c, "soc name too long");
            if (sep)
                name[l] = ' ';
            memcpy(name + l + sep, t[i], tl + 1);
        }
        memcpy(p->soc, name, sizeof name);
    } else if (strcmp(k, "device") == 0) {
        static const char *u = "device ID memory SIZE [phy PHYID] [pci DDDD:BB:DD.F]";
        int id;
        double mem;
        bool has_phy = false, has_pci = false;
        if (n < 4 || n % 2 != 0 || strcmp(t[2], "memory") != 0)
            FAIL(c, "expected '%s'", u);
        for (int i = 4; i < n; i += 2) {
            bool phy = strcmp(t[i], "phy") == 0, pci = strcmp(t[i], "pci") == 0;
            if ((!phy && !pci) || (phy && has_phy) || (pci && has_pci))
                FAIL(c, "expected '%s'", u);
            has_phy |= phy;
            has_pci |= pci;
        }
        if (parse_int(t[1], 0, LW_MAX_DEVICES - 1, &id) != 0)
            FAIL(c, "bad device id '%s' (0..%d)", t[1], LW_MAX_DEVICES - 1);
        if (c->declared[id])
            FAIL(c, "device %d declared twice", id);
        if (need(c, size_units, "size (want e.g. 64GiB)", t[3], &mem) != 0)
            return -1;
        if (mem < 1)
            FAIL(c, "device memory must be > 0");
        c->declared[id] = true;
        p->memory[id] = (uint64_t)mem;
        for (int i = 4; i < n; i += 2) {
            if (strcmp(t[i], "phy") == 0 && parse_int(t[i + 1], 0, 1 << 20, &p->phy[id]) != 0)
                FAIL(c, "bad phy id '%s'", t[i + 1]);
            if (strcmp(t[i], "pci") == 0 && lw_parse_pci(t[i + 1], &p->pci[id]) != 0)
                FAIL(c, "bad pci address '%s' (want DDDD:BB:DD.F, hex)", t[i + 1]);
        }
        if (id + 1 > p->ndev)
            p->ndev = id + 1;
    } else if (strcmp(k, "link") == 0) {
        static const char *u = "link SRC DST TYPE bandwidth BW latency T [oneway] [pcie PATH]";
        static const int pos[] = { 4, 6 };
        static const char *const kw[] = { "bandwidth", "latency" };
        /* the optional words after the latency, in either order */
        bool oneway = false;
        const char *pcie = NULL;
        for (int i = 8; i < n; i++) {
            if (strcmp(t[i], "oneway") == 0 && !oneway)
                oneway = true;
            else if (strcmp(t[i], "pcie") == 0 && !pcie && i + 1 < n)
                pcie = t[++i];
            else
                FAIL(c, "expected '%s'", u);
        }
        int s, d, type = LW_LINK_NONE, path_type = LW_LINK_NONE;
        struct lw_path path;
        if (keywords(c, t, n < 8 ? n : 8, 8, u, pos, kw, 2) != 0)
            return -1;
        if (need_dev(c, t[1], &s) || need_dev(c, t[2], &d))
            return -1;
        if (s == d)
            FAIL(c, "a link needs two different devices (use 'local' for same-device copies)");
        for (int i = 1; i <= LW_LINK_LAST; i++)
            if (strcmp(t[3], link_names[i]) == 0)
                type = i;
        if (type == LW_LINK_NONE)
            FAIL(c, "unknown link type '%s' (HCCS PIX PHB SYS SIO HCCS_SW NVLINK PXB NODE)", t[3]);
        if (pcie) {
            if (type != LW_LINK_NVLINK)
                FAIL(c, "'pcie' is for NVLINK links (a %s link is its own PCIe path)", t[3]);
            for (int i = 1; i <= LW_LINK_LAST; i++)
                if (strcmp(pcie, link_names[i]) == 0 && default_pcie(i) == i)
                    path_type = i;
            if (path_type == LW_LINK_NONE)
                FAIL(c, "bad pcie path '%s' (PIX PXB PHB NODE SYS)", pcie);
        } else {
            path_type = default_pcie(type);
        }
        if (need_bw(c, t[5], &path.bandwidth) || need_time(c, t[7], &path.latency))
            return -1;
        p->link[s][d] = (struct lw_link){ type, path, LW_DEFAULT_BIDIRECTIONAL, path_type };
        if (!oneway)
            p->link[d][s] = (struct lw_link){ type, path, LW_DEFAULT_BIDIRECTIONAL, path_type };
    } else if (strcmp(k, "bidirectional") == 0) {
        int s, d;
        char *end;
        if (n != 4)
            FAIL(c, "expected 'bidirectional SRC DST RATIO'");
        if (need_dev(c, t[1], &s) || need_dev(c, t[2], &d))
            return -1;
        if (p->link[s][d].type == LW_LINK_NONE || p->link[d][s].type == LW_LINK_NONE)
            FAIL(c, "bidirectional %d %d: give both directions' link lines first", s, d);
        double v = strtod(t[3], &end);
        if (end == t[3] || *end || !(v >= 1 && v <= 2))
            FAIL(c, "bad bidirectional ratio '%s' (from 1: one direction at a time, to 2: full duplex)", t[3]);
        p->link[s][d].bidirectional = v;
        p->link[d][s].bidirectional = v;
    } else if (strcmp(k, "local") == 0) {
        static const int pos[] = { 1, 3 };
        static const char *const kw[] = { "bandwidth", "latency" };
        if (keywords(c, t, n, 5, "local bandwidth BW latency T", pos, kw, 2) ||
            need_bw(c, t[2], &p->local.bandwidth) || need_time(c, t[4], &p->local.latency))
            return -1;
    } else if (strcmp(k, "pinned") == 0) {
        static const int pos[] = { 1, 3, 5 };
        static const char *const kw[] = { "h2d", "d2h", "latency" };
        if (keywords(c, t, n, 7, "pinned h2d BW d2h BW latency T", pos, kw, 3) ||
            need_bw(c, t[2], &p->pinned_h2d) || need_bw(c, t[4], &p->pinned_d2h) ||
            need_time(c, t[6], &p->pinned_latency))
            return -1;
    } else if (strcmp(k, "pageable") == 0 && n >= 2 && strcmp(t[1], "default") == 0) {
        static const int pos[] = { 2, 4, 6 };
        static const char *const kw[] = { "h2d", "d2h", "latency" };
        if (keywords(c, t, n, 8, "pageable default h2d BW d2h BW latency T", pos, kw, 3) ||
            need_bw(c, t[3], &p->pageable_h2d) || need_bw(c, t[5], &p->pageable_d2h) ||
            need_time(c, t[7], &p->pageable_latency))
            return -1;
    } else if (strcmp(k, "pageable") == 0) {
        static const int pos[] = { 1, 3, 5, 7 };
        static const char *const kw[] = { "cpu", "mem", "h2d", "d2h" };
        struct lw_pageable pg;
        if (keywords(c, t, n, 9, "pageable cpu NODE mem NODE h2d BW d2h BW", pos, kw, 4) != 0)
            return -1;
        if (parse_int(t[2], 0, 1023, &pg.cpu_node) || parse_int(t[4], 0, 1023, &pg.mem_node))
            FAIL(c, "bad NUMA node number");
        if (need_bw(c, t[6], &pg.h2d) || need_bw(c, t[8], &pg.d2h))
            return -1;
        for (int i = 0; i < p->npageable; i++)
            if (p->pageable[i].cpu_node == pg.cpu_node && p->pageable[i].mem_node == pg.mem_node)
                FAIL(c, "pageable pair cpu %d mem %d given twice", pg.cpu_node, pg.mem_node);
        if (p->npageable == LW_MAX_PAGEABLE)
            FAIL(c, "too many pageable lines (max %d)", LW_MAX_PAGEABLE);
        p->pageable[p->npageable++] = pg;
    } else if (strcmp(k, "allreduce") == 0) {
        static const int pos[] = { 1, 3 };
        static const char *const kw[] = { "latency", "busbw" };
        if (keywords(c, t, n, 5, "allreduce latency T busbw BW", pos, kw, 2) ||
            need_time(c, t[2], &p->allreduce.latency) || need_bw(c, t[4], &p->allreduce.bandwidth))
            return -1;
    } else if (strcmp(k, "allgather") == 0) {
        static const int pos[] = { 1, 3 };
        static const char *const kw[] = { "latency", "busbw" };
        if (keywords(c, t, n, 5, "allgather latency T busbw BW", pos, kw, 2) ||
            need_time(c, t[2], &p->allgather.latency) || need_bw(c, t[4], &p->allgather.bandwidth))
            return -1;
    } else if (strcmp(k, "peer_link") == 0) {
        static const int pos[] = { 1, 3 };
        static const char *const kw[] = { "bandwidth", "latency" };
        if (keywords(c, t, n, 5, "peer_link bandwidth BW latency T", pos, kw, 2) ||
            need_bw(c, t[2], &p->peer_link.bandwidth) || need_time(c, t[4], &p->peer_link.latency))
            return -1;
    } else if (strcmp(k, "hccl") == 0) {
        static const int pos[] = { 1 };
        static const char *const kw[] = { "timeout" };
        if (keywords(c, t, n, 3, "hccl timeout T", pos, kw, 1) || need_time(c, t[2], &p->hccl_timeout))
            return -1;
    } else if (strcmp(k, "timing") == 0) {
        if (n != 2 || (strcmp(t[1], "model") != 0 && strcmp(t[1], "passthrough") != 0))
            FAIL(c, "expected 'timing model|passthrough'");
        p->passthrough = strcmp(t[1], "passthrough") == 0;
    } else if (strcmp(k, "noise") == 0) {
        char *end;
        if (n != 2)
            FAIL(c, "expected 'noise FRACTION'");
        double v = strtod(t[1], &end);
        if (end == t[1] || *end || !(v >= 0 && v < 1))
            FAIL(c, "bad noise '%s' (a fraction in [0, 1))", t[1]);
        p->noise = v;
    } else if (strcmp(k, "busy") == 0) {
        char *end;
        if (n != 3 || strcmp(t[1], "share") != 0)
            FAIL(c, "expected 'busy share FRACTION'");
        double v = strtod(t[2], &end);
        if (end == t[2] || *end || !(v > 0 && v <= 1))
            FAIL(c, "bad busy share '%s' (a fraction in (0, 1])", t[2]);
        p->busy_share = v;
    } else if (strcmp(k, "nvlinks") == 0) {
        /* NVLinks per GPU; `switch`: every one goes into an NVSwitch */
        if ((n != 2 && n != 3) || (n == 3 && strcmp(t[2], "switch") != 0))
            FAIL(c, "expected 'nvlinks COUNT [switch]'");
        if (parse_int(t[1], 0, LW_NVLINKS, &p->nvlinks) != 0)
            FAIL(c, "bad NVLink count '%s' (0..%d)", t[1], LW_NVLINKS);
        p->nvswitch = n == 3;
    } else if (strcmp(k, "affinity") == 0) {
        int d;
        if (n != 3)
            FAIL(c, "expected 'affinity DEVICE CPULIST'");
        if (need_dev(c, t[1], &d) != 0)
            return -1;
        if (strspn(t[2], "0123456789,-") != strlen(t[2]) || strlen(t[2]) >= sizeof p->affinity[0])
            FAIL(c, "bad CPU list '%s' (e.g. 0-63,128-191)", t[2]);
        snprintf(p->affinity[d], sizeof p->affinity[d], "%s", t[2]);
    } else {
        FAIL(c, "unknown keyword '%s'", k);
    }
    return 0;
}

int lw_profile_parse(const char *text, const char *name, struct lw_profile *p,
                     char *err, size_t errlen)
{
    struct ctx c = { .name = name, .line = 0, .err = err, .errlen = errlen, .p = p };
    set_defaults(p);
    const char *s = text;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char buf[1024];
        c.line++;
        if (len >= sizeof buf) {
            bad(&c, "line too long");
            return -1;
        }
        memcpy(buf, s, len);
        buf[len] = '\0';
        s += len + (nl ? 1 : 0);

        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *t[MAXTOK + 1];
        int n = 0;
        for (char *save, *tok = strtok_r(buf, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
            if (n == MAXTOK) {
                bad(&c, "too many tokens");
                return -1;
            }
            t[n++] = tok;
        }
        if (n == 0)
            continue;
        if (parse_line(&c, t, n) != 0)
            return -1;
    }
    c.line = 0;
    if (p->ndev == 0) {
        snprintf(err, errlen, "%s: no 'device' line", name);
        return -1;
    }
    for (int i = 0; i < p->ndev; i++)
        if (!c.declared[i]) {
            snprintf(err, errlen, "%s: devices must be 0..%d, device %d is missing", name,
                     p->ndev - 1, i);
            return -1;
        }
    /* A bus id names one device: callers match CUDA's devices to NVML's by it. */
    for (int i = 0; i < p->ndev; i++)
        for (int j = 0; j < i; j++)
            if (memcmp(&p->pci[i], &p->pci[j], sizeof p->pci[i]) == 0) {
                snprintf(err, errlen, "%s: devices %d and %d have the same pci address", name, j, i);
                return -1;
            }
    return 0;
}

/* The profile's text, or NULL with the reason in err. */
static char *read_file(const char *path, char *err, size_t errlen)
{
    char *text = lw_read_text_file(path);
    if (!text)
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    return text;
}

int lw_profile_load(int face, struct lw_profile *p, char *err, size_t errlen)
{
    const char *path = getenv("LINKWATCH_SIM_PROFILE");
    int rc;
    if (path && *path) {
        char *text = read_file(path, err, errlen);
        if (!text)
            return -1;
        rc = lw_profile_parse(text, path, p, err, errlen);
        free(text);
    } else if (face == LW_FACE_CUDA) {
        rc = lw_profile_parse(lw_default_profile_cuda, "<built-in hgx-h200.profile>", p, err, errlen);
    } else {
        rc = lw_profile_parse(lw_default_profile, "<built-in atlas-800t-a3.profile>", p, err, errlen);
    }
    if (rc != 0)
        return rc;
    const char *timing = getenv("LINKWATCH_SIM_TIMING");
    if (timing && strcmp(timing, "passthrough") == 0)
        p->passthrough = true;
    else if (timing && strcmp(timing, "model") == 0)
        p->passthrough = false;
    return 0;
}
