/*
 * hccl_net.c - ranks of one communicator in several processes, and so in
 * several network namespaces or on several hosts: HcclGetRootInfo /
 * HcclCommInitRootInfo, ncclGetUniqueId / ncclCommInitRank, and the rounds of
 * the collectives of such a communicator.
 *
 * The in-process path (hccl.c) meets ranks in memory; these ranks can only
 * meet over the network, so every round here moves the real bytes over TCP,
 * in a star through rank 0: each rank sends a header and its send buffer,
 * rank 0 checks that the headers agree, reduces (or gathers) and sends each
 * rank the result.  Ranks of one process go through their sockets too, so one
 * path serves every layout and a test on one host exercises what two hosts do.
 *
 * Failures are made to name who was lost and where, because a cross-host run
 * that dies with a bare code is what an operator cannot diagnose: a peer that
 * closes or dies mid-round gives HCCL_E_TCP_TRANSFER naming the rank and its
 * address, a round that does not complete in the collective timeout
 * HCCL_E_TIMEOUT naming the missing ranks.  Either leaves the ranks out of
 * step, so the comm stays failed (later calls give the same code) until it is
 * destroyed; a round whose ranks disagree (HCCL_E_PARA) is drained to its end
 * and leaves the comm usable, as the in-process path does.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "reduce.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <math.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* More would need more descriptors than a default process may open. */
#define MAX_RANKS 1024

/* ---- the root info blob ----
 * 0 "LWRI", 4 format version (u16 LE), 6 face (0 HCCL, 1 NCCL), 8 IPv4
 * address and 12 port (network order), 16 session id (u64 LE), zeros after:
 * written byte by byte, so hosts of either byte order read it alike. */
static const unsigned char BLOB_MAGIC[4] = { 'L', 'W', 'R', 'I' };
#define BLOB_VERSION 1
#define BLOB_USED 24

/* ---- messages: fixed sizes, little-endian ---- */
#define WIRE_MAGIC 0x314e574cu          /* "LWN1" */
enum { M_HELLO = 1, M_REPLY = 2, M_ROUND = 3, M_VERDICT = 4, M_P2P = 5, M_P2P_ACK = 6 };
#define TEXT_LEN 256
#define HELLO_LEN 40    /* magic kind face rank session(8) nranks device pid pad */
#define REPLY_LEN (16 + TEXT_LEN)       /* magic kind status pad text */
#define ROUND_LEN 48    /* magic kind round(8) count(8) coll type op rank port pad */
#define VERDICT_LEN (32 + TEXT_LEN)     /* magic kind round(8) bytes(8) status port text */
#define P2P_LEN (40 + TEXT_LEN)         /* magic kind seq(8) count(8) type status port pad text */

static void put32(unsigned char *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *b)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static uint64_t get64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static void put_text(unsigned char *b, const char *text)
{
    memset(b, 0, TEXT_LEN);
    size_t n = strlen(text);
    memcpy(b, text, n < TEXT_LEN - 1 ? n : TEXT_LEN - 1);
}

static void get_text(const unsigned char *b, char *out)
{
    memcpy(out, b, TEXT_LEN);
    out[TEXT_LEN - 1] = '\0';
}

static const char *face_api(int face)
{
    return face == LW_FACE_CUDA ? "ncclGetUniqueId" : "HcclGetRootInfo";
}

static const char *init_api(int face)
{
    return face == LW_FACE_CUDA ? "ncclCommInitRank" : "HcclCommInitRootInfo";
}

static void addr_text(const struct sockaddr_in *a, char *out, size_t n)
{
    char ip[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip);
    snprintf(out, n, "%s:%u", ip, (unsigned)ntohs(a->sin_port));
}

/* ---- rank 0's listeners, one per root info this process handed out ---- */
struct root {
    uint64_t session;
    int fd;             /* -1 once rank 0's init has used it */
    int face;
    pid_t pid;          /* a forked child holds a copy of the table, not the listener */
    struct sockaddr_in addr;
};
static struct root *roots;
static int nroots, caproots;
static pthread_mutex_t roots_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* fork holds the table still, so the child gets a consistent copy. */
static void roots_before_fork(void)
{
    pthread_mutex_lock(&roots_m);
}

static void roots_after_fork(void)
{
    pthread_mutex_unlock(&roots_m);
}

/* A forked child must not keep rank 0's port open: a rank connecting there
 * would wait on a backlog nobody accepts from. */
static void roots_in_child(void)
{
    for (int i = 0; i < nroots; i++)
        if (roots[i].fd >= 0)
            close(roots[i].fd);
    nroots = 0;
    pthread_mutex_unlock(&roots_m);
}

static void register_atfork(void)
{
    pthread_atfork(roots_before_fork, roots_after_fork, roots_in_child);
}

/* Takes the listener of a session for rank 0's init: 0 and *out filled (the
 * caller owns the fd now), 1 when it was used already, -1 when this process
 * never made it. */
static int take_root(uint64_t session, int face, struct root *out)
{
    int rc = -1;
    pthread_mutex_lock(&roots_m);
    for (int i = 0; i < nroots; i++)
        if (roots[i].session == session && roots[i].face == face && roots[i].pid == getpid()) {
            if (roots[i].fd < 0) {
                rc = 1;
            } else {
                *out = roots[i];
                roots[i].fd = -1;
                rc = 0;
            }
            break;
        }
    pthread_mutex_unlock(&roots_m);
    return rc;
}

/* ---- the address rank 0 listens on ---- */
struct iface {
    char name[IF_NAMESIZE + 1];
    struct in_addr addr;
    int order;          /* getifaddrs' order, for equal names */
};

static int iface_cmp(const void *a, const void *b)
{
    const struct iface *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->order - y->order;
}

/* Whether an interface name passes NCCL_SOCKET_IFNAME: comma-separated
 * prefixes; a leading '^' excludes them instead, a leading '=' wants exact
 * names (NCCL's rules). */
static bool name_matches(const char *name, const char *spec)
{
    bool exclude = false, exact = false;
    if (*spec == '^') {
        exclude = true;
        spec++;
    }
    if (*spec == '=') {
        exact = true;
        spec++;
    }
    bool hit = false;
    while (*spec && !hit) {
        size_t len = strcspn(spec, ",");
        if (len > 0)
            hit = exact ? strlen(name) == len && strncmp(name, spec, len) == 0
                        : strncmp(name, spec, len) == 0;
        spec += len + (spec[len] == ',');
    }
    return exclude ? !hit : hit;
}

/* The UP IPv4 interfaces, sorted by name (as HCCL picks one: the first in
 * lexicographic order); spec NULL: all but loopback, else those passing the
 * NCCL_SOCKET_IFNAME spec (loopback included when it names it).  -1 when
 * getifaddrs fails. */
static int list_ifaces(const char *spec, struct iface *out, int max)
{
    struct ifaddrs *all;
    if (getifaddrs(&all) != 0)
        return -1;
    int n = 0;
    for (struct ifaddrs *i = all; i && n < max; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP))
            continue;
        if (spec ? !name_matches(i->ifa_name, spec) : (i->ifa_flags & IFF_LOOPBACK) != 0)
            continue;
        snprintf(out[n].name, sizeof out[n].name, "%s", i->ifa_name);
        out[n].addr = ((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr;
        out[n].order = n;
        n++;
    }
    freeifaddrs(all);
    qsort(out, (size_t)n, sizeof *out, iface_cmp);
    return n;
}

/* HCCL_IF_IP (HCCL) or NCCL_SOCKET_IFNAME (NCCL) when set, else the first UP
 * non-loopback IPv4 address by interface name, else 127.0.0.1.  *chosen says
 * whether the caller's variable picked it (a bind failure is then theirs). */
static HcclResult pick_address(const char *fn, struct in_addr *out, const char **chosen)
{
    struct iface ifs[64];
    *chosen = NULL;
    const char *ip = lw_face == LW_FACE_ACL ? getenv("HCCL_IF_IP") : NULL;
    const char *spec = lw_face == LW_FACE_CUDA ? getenv("NCCL_SOCKET_IFNAME") : NULL;
    if (ip && *ip) {
        if (inet_pton(AF_INET, ip, out) != 1) {
            lw_err("%s: HCCL_IF_IP '%s' is not an IPv4 address", fn, ip);
            return HCCL_E_PARA;
        }
        *chosen = "HCCL_IF_IP";
        return HCCL_SUCCESS;
    }
    if (spec && *spec) {
        int n = list_ifaces(spec, ifs, 64);
        if (n <= 0) {
            lw_err("%s: no UP IPv4 interface matches NCCL_SOCKET_IFNAME '%s'", fn, spec);
            return HCCL_E_PARA;
        }
        *out = ifs[0].addr;
        *chosen = "NCCL_SOCKET_IFNAME";
        return HCCL_SUCCESS;
    }
    int n = list_ifaces(NULL, ifs, 64);
    if (n > 0)
        *out = ifs[0].addr;
    else
        out->s_addr = htonl(INADDR_LOOPBACK);
    return HCCL_SUCCESS;
}

static uint64_t new_session(void)
{
    uint64_t v = 0;
    if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (read(fd, &v, sizeof v) != (ssize_t)sizeof v)
                v = 0;
            close(fd);
        }
        if (v == 0)   /* no entropy to be had: still distinct per process and call */
            v = ((uint64_t)getpid() << 32) ^ (uint64_t)(lw_now() * 1e9);
    }
    return v ? v : 1;
}

HcclResult lw_net_root_info(const char *fn, void *blob, size_t len)
{
    pthread_once(&atfork_once, register_atfork);
    struct sockaddr_in a = { .sin_family = AF_INET };
    const char *chosen;
    HcclResult hr = pick_address(fn, &a.sin_addr, &chosen);
    if (hr)
        return hr;
    char ip[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        lw_err("%s: socket: %s", fn, strerror(errno));
        return HCCL_E_SYSCALL;
    }
    socklen_t al = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        int e = errno;
        close(fd);
        if (chosen && e == EADDRNOTAVAIL) {
            lw_err("%s: %s %s is not an address of this host", fn, chosen, ip);
            return HCCL_E_PARA;
        }
        lw_err("%s: cannot bind %s%s%s: %s", fn, ip, chosen ? " from " : "", chosen ? chosen : "",
               strerror(e));
        return chosen ? HCCL_E_PARA : HCCL_E_SYSCALL;
    }
    if (listen(fd, SOMAXCONN) != 0 || getsockname(fd, (struct sockaddr *)&a, &al) != 0) {
        lw_err("%s: cannot listen on %s: %s", fn, ip, strerror(errno));
        close(fd);
        return HCCL_E_SYSCALL;
    }
    struct root r = { new_session(), fd, lw_face, getpid(), a };
    pthread_mutex_lock(&roots_m);
    if (nroots == caproots) {
        int nc = caproots ? caproots * 2 : 8;
        struct root *nr = realloc(roots, (size_t)nc * sizeof *nr);
        if (!nr) {
            pthread_mutex_unlock(&roots_m);
            close(fd);
            lw_err("%s: out of memory", fn);
            return HCCL_E_MEMORY;
        }
        roots = nr;
        caproots = nc;
    }
    roots[nroots++] = r;
    pthread_mutex_unlock(&roots_m);

    unsigned char *b = blob;
    memset(b, 0, len);
    memcpy(b, BLOB_MAGIC, 4);
    b[4] = BLOB_VERSION;
    b[6] = (unsigned char)lw_face;
    memcpy(b + 8, &a.sin_addr, 4);
    memcpy(b + 12, &a.sin_port, 2);
    put64(b + 16, r.session);
    return HCCL_SUCCESS;
}

/* ---- moving bytes ---- */

/* One transfer over a non-blocking socket: len bytes out of or into buf
 * (NULL: received and thrown away). */
struct xfer {
    int fd;
    bool out;
    void *buf;
    size_t len, done;
    bool watch_in;      /* a send that stops as soon as the peer says something */
};
enum { XF_DONE, XF_FAIL, XF_TIMEOUT, XF_INBOUND };
/* Per call, so one busy socket cannot starve the others in a round. */
#define CHUNK (4u << 20)

/* Runs transfers on distinct sockets side by side until all are done.  Gives
 * up at `fixed` (an lw_now() time; INFINITY: never) or after `idle` seconds
 * without a byte moving.  XF_FAIL: *which failed with *err (0: closed by the
 * peer); XF_TIMEOUT: *which is one not done; XF_INBOUND: a watch_in send's peer
 * has something to say. */
static int run_xfers(struct xfer *x, int n, double fixed, double idle, int *which, int *err)
{
    struct pollfd pf[64], *p = n <= 64 ? pf : malloc((size_t)n * sizeof *p);
    int map_s[64], *map = n <= 64 ? map_s : malloc((size_t)n * sizeof *map);
    static _Thread_local char scratch[64 * 1024];
    int rc = XF_DONE;
    *err = 0;
    *which = 0;
    if (!p || !map) {
        *err = ENOMEM;
        rc = XF_FAIL;
        goto out;
    }
    double last = lw_now();
    for (;;) {
        int np = 0;
        for (int i = 0; i < n; i++)
            if (x[i].done < x[i].len) {
                p[np] = (struct pollfd){ x[i].fd, (short)(x[i].out ? POLLOUT | (x[i].watch_in ? POLLIN : 0)
                                                                   : POLLIN), 0 };
                map[np++] = i;
            }
        if (np == 0)
            goto out;
        double now = lw_now(), end = fmin(fixed, last + idle);
        if (now >= end) {
            *which = map[0];
            rc = XF_TIMEOUT;
            goto out;
        }
        double wait_ms = ceil((end - now) * 1e3);
        int r = poll(p, (nfds_t)np, wait_ms > 60000 ? 60000 : (int)wait_ms);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            *which = map[0];
            *err = errno;
            rc = XF_FAIL;
            goto out;
        }
        for (int j = 0; j < np; j++) {
            if (!p[j].revents)
                continue;
            struct xfer *t = &x[map[j]];
            if (p[j].revents & POLLNVAL) {
                *which = map[j];
                *err = EBADF;
                rc = XF_FAIL;
                goto out;
            }
            if (t->out && t->watch_in && (p[j].revents & (POLLIN | POLLHUP))) {
                *which = map[j];
                rc = XF_INBOUND;
                goto out;
            }
            size_t want = t->len - t->done;
            ssize_t k;
            if (t->out) {
                k = send(t->fd, (char *)t->buf + t->done, want < CHUNK ? want : CHUNK,
                         MSG_NOSIGNAL | MSG_DONTWAIT);
            } else if (t->buf) {
                k = recv(t->fd, (char *)t->buf + t->done, want < CHUNK ? want : CHUNK, MSG_DONTWAIT);
            } else {
                k = recv(t->fd, scratch, want < sizeof scratch ? want : sizeof scratch, MSG_DONTWAIT);
            }
            if (k > 0) {
                t->done += (size_t)k;
                last = lw_now();
            } else if (k == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                *which = map[j];
                *err = k == 0 ? 0 : errno;
                rc = XF_FAIL;
                goto out;
            }
        }
    }
out:
    if (p != pf)
        free(p);
    if (map != map_s)
        free(map);
    return rc;
}

static int run_one(int fd, bool out, void *buf, size_t len, double fixed, double idle, bool watch_in, int *err)
{
    struct xfer x = { fd, out, buf, len, 0, watch_in };
    int which;
    return run_xfers(&x, 1, fixed, idle, &which, err);
}

static const char *err_text(int err)
{
    return err ? strerror(err) : "connection closed by peer";
}

/* ---- communicators ---- */
struct lw_net {
    int face, rank, n;
    int *fd;                    /* rank 0: fd[k] to rank k; other ranks: fd[0] to rank 0 */
    struct sockaddr_in *addr;   /* the far end of fd[k] */
    uint64_t round;             /* rounds completed */
    uint64_t *pseq;             /* point-to-point calls completed with the far end of fd[k] */
    int device;                 /* the rank's host device: whose NPU port its bytes cross */
    HcclResult broken;          /* the failure that put the ranks out of step; 0 while sound */
    char why[512];
    atomic_flag busy;
};

static struct lw_net *net_new(int n, int rank)
{
    struct lw_net *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    net->fd = malloc((size_t)n * sizeof *net->fd);
    net->addr = calloc((size_t)n, sizeof *net->addr);
    net->pseq = calloc((size_t)n, sizeof *net->pseq);
    if (!net->fd || !net->addr || !net->pseq) {
        free(net->fd);
        free(net->addr);
        free(net->pseq);
        free(net);
        return NULL;
    }
    for (int k = 0; k < n; k++)
        net->fd[k] = -1;
    net->face = lw_face;
    net->n = n;
    net->rank = rank;
    atomic_flag_clear(&net->busy);
    return net;
}

/* The NPU port of host device dev as the control file has it (`nic DEVICE
 * down`, `nic DEVICE speed MBPS`): its speed in Mb/s, NIC_MBPS unless lowered. */
#define NIC_MBPS 400000u
static uint32_t port_mbps(int dev, bool *down)
{
    struct lw_devlinks dl;
    lw_dev_links(dev, &dl);
    *down = dl.nic_down;
    return dl.nic_speed > 0 ? (uint32_t)dl.nic_speed : NIC_MBPS;
}

/* The host link's model over ports of at most mbps: the slower of the two. */
static struct lw_path over_ports(uint32_t mbps)
{
    struct lw_path p = lw.prof.peer_link;
    double port = mbps * 1e6 / 8;
    if (port < p.bandwidth)
        p.bandwidth = port;
    return p;
}

void lw_net_close(struct lw_net *net)
{
    if (!net)
        return;
    for (int k = 0; k < net->n; k++)
        if (net->fd[k] >= 0)
            close(net->fd[k]);
    free(net->fd);
    free(net->addr);
    free(net->pseq);
    free(net);
}

static void set_nodelay(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);   /* headers are small */
}

static void send_reply(int fd, HcclResult status, const char *text)
{
    unsigned char m[REPLY_LEN] = { 0 };
    put32(m, WIRE_MAGIC);
    put32(m + 4, M_REPLY);
    put32(m + 8, (uint32_t)status);
    put_text(m + 16, text);
    /* a fresh connection's send buffer is empty: this goes out whole or the peer is gone */
    if (send(fd, m, sizeof m, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
        (void)0;
}

/* "2, 3, 5" for the ranks k (1..n-1) with missing(k), at most a line of them. */
static void rank_list(char *out, size_t len, int n, const bool *missing)
{
    size_t used = 0;
    int listed = 0;
    out[0] = '\0';
    for (int k = 0; k < n && used + 16 < len; k++)
        if (missing[k]) {
            used += (size_t)snprintf(out + used, len - used, "%s%d", listed ? ", " : "", k);
            listed++;
        }
    if (used + 16 >= len)
        snprintf(out + used, len - used, ", ...");
}

/* Rank 0's init: takes the listener, accepts n-1 ranks, answers each once
 * all are there. */
static HcclResult root_gather(const char *fn, struct lw_net *net, uint64_t session, double timeout)
{
    struct root r;
    int got = take_root(session, net->face, &r);
    if (got != 0) {
        if (got > 0)
            lw_err("%s: this rootInfo was already used by rank 0's %s; call %s again for a new one",
                   fn, init_api(net->face), face_api(net->face));
        else
            lw_err("%s: rank 0 must call %s from the process that called %s for this rootInfo "
                   "(this process has no listener for it)", fn, init_api(net->face), face_api(net->face));
        return HCCL_E_PARA;
    }
    int n = net->n;
    char where[64];
    addr_text(&r.addr, where, sizeof where);
    struct pend {
        int fd;
        struct sockaddr_in a;
        unsigned char buf[HELLO_LEN];
        size_t got;
    } *pend = calloc((size_t)n + 16, sizeof *pend);
    struct pollfd *p = calloc((size_t)n + 17, sizeof *p);
    bool *missing = calloc((size_t)n, sizeof *missing);
    HcclResult hr = HCCL_SUCCESS;
    int npend = 0, joined = 0, maxpend = n + 16;
    if (!pend || !p || !missing) {
        lw_err("%s: out of memory", fn);
        hr = HCCL_E_MEMORY;
        goto done;
    }
    double deadline = lw_now() + timeout;
    while (joined < n - 1) {
        double now = lw_now();
        if (now >= deadline)
            break;
        p[0] = (struct pollfd){ r.fd, POLLIN, 0 };
        for (int i = 0; i < npend; i++)
            p[1 + i] = (struct pollfd){ pend[i].fd, POLLIN, 0 };
        double wait_ms = ceil((deadline - now) * 1e3);
        int pr = poll(p, (nfds_t)npend + 1, wait_ms > 60000 ? 60000 : (int)wait_ms);
        if (pr < 0 && errno != EINTR) {
            lw_err("%s: poll: %s", fn, strerror(errno));
            hr = HCCL_E_SYSCALL;
            goto done;
        }
        if (pr <= 0)
            continue;
        /* hellos first: accepting may reorder the pending list */
        for (int i = npend - 1; i >= 0; i--) {
            if (!p[1 + i].revents)
                continue;
            struct pend *q = &pend[i];
            ssize_t k = recv(q->fd, q->buf + q->got, HELLO_LEN - q->got, MSG_DONTWAIT);
            if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
                continue;
            bool drop = k <= 0;
            if (k > 0 && (q->got += (size_t)k) == HELLO_LEN) {
                drop = true;
                uint32_t rank = get32(q->buf + 12), nranks = get32(q->buf + 24);
                char text[TEXT_LEN];
                text[0] = '\0';
                if (get32(q->buf) != WIRE_MAGIC || get32(q->buf + 4) != M_HELLO) {
                    /* not one of ours: just hang up */
                } else if ((int)get32(q->buf + 8) != net->face)
                    snprintf(text, sizeof text, "rank %u joins with %s's id but rank 0 is a %s comm", rank,
                             face_api((int)get32(q->buf + 8)), face_api(net->face));
                else if (get64(q->buf + 16) != session)
                    snprintf(text, sizeof text, "rank %u brought session %016llx but rank 0 at %s serves "
                             "%016llx (a rootInfo from an earlier %s?)", rank,
                             (unsigned long long)get64(q->buf + 16), where, (unsigned long long)session,
                             face_api(net->face));
                else if (nranks != (uint32_t)n)
                    snprintf(text, sizeof text, "rank %u was given nRanks %u but rank 0 was given %d", rank,
                             nranks, n);
                else if (rank == 0 || rank >= (uint32_t)n)
                    snprintf(text, sizeof text, "rank %u is out of range 1..%d", rank, n - 1);
                else if (net->fd[rank] >= 0)
                    snprintf(text, sizeof text, "rank %u has already joined", rank);
                else {
                    net->fd[rank] = q->fd;
                    net->addr[rank] = q->a;
                    joined++;
                    drop = false;
                    *q = pend[--npend];
                    continue;
                }
                if (text[0])
                    send_reply(q->fd, HCCL_E_PARA, text);
            }
            if (drop) {
                close(q->fd);
                *q = pend[--npend];
            }
        }
        if (p[0].revents) {
            for (;;) {
                struct sockaddr_in a;
                socklen_t al = sizeof a;
                int fd = accept4(r.fd, (struct sockaddr *)&a, &al, SOCK_CLOEXEC | SOCK_NONBLOCK);
                if (fd < 0)
                    break;
                if (npend == maxpend) {   /* someone is flooding the port: drop the oldest */
                    close(pend[0].fd);
                    pend[0] = pend[--npend];
                }
                set_nodelay(fd);
                pend[npend++] = (struct pend){ .fd = fd, .a = a };
            }
        }
    }
    if (joined < n - 1) {
        for (int k = 1; k < n; k++)
            missing[k] = net->fd[k] < 0;
        char list[96], text[TEXT_LEN + 160];
        rank_list(list, sizeof list, n, missing);
        snprintf(text, sizeof text, "rank 0 at %s timed out after %g s waiting for %d of %d ranks to connect: %s",
                 where, timeout, n - 1 - joined, n, list);
        for (int k = 1; k < n; k++)
            if (net->fd[k] >= 0)
                send_reply(net->fd[k], HCCL_E_TIMEOUT, text);
        lw_err("%s: %s", fn, text);
        hr = HCCL_E_TIMEOUT;
        goto done;
    }
    /* everyone is here: only now does any rank's init return */
    for (int k = 1; k < n; k++) {
        unsigned char m[REPLY_LEN] = { 0 };
        int err;
        put32(m, WIRE_MAGIC);
        put32(m + 4, M_REPLY);
        if (run_one(net->fd[k], true, m, sizeof m, lw_now() + timeout, INFINITY, false, &err) != XF_DONE) {
            char a[64];
            addr_text(&net->addr[k], a, sizeof a);
            lw_err("%s: rank 0 lost rank %d (%s) before the communicator was formed: %s", fn, k, a,
                   err_text(err));
            hr = HCCL_E_TCP_CONNECT;
            goto done;
        }
    }
done:
    for (int i = 0; i < npend; i++)
        close(pend[i].fd);
    close(r.fd);   /* the root info is spent either way */
    free(pend);
    free(p);
    free(missing);
    return hr;
}

/* A rank other than 0 joins: connects to rank 0 (again every 50 ms until the
 * timeout), says hello, and waits for rank 0's answer. */
static HcclResult leaf_join(const char *fn, struct lw_net *net, const struct sockaddr_in *root,
                            uint64_t session, int device, double timeout)
{
    char where[64];
    addr_text(root, where, sizeof where);
    double deadline = lw_now() + timeout;
    int fd = -1, last_err = 0;
    for (;;) {
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0) {
            lw_err("%s: socket: %s", fn, strerror(errno));
            return HCCL_E_SYSCALL;
        }
        if (connect(fd, (const struct sockaddr *)root, sizeof *root) == 0) {
            break;
        } else if (errno == EINPROGRESS || errno == EINTR) {
            struct pollfd p = { fd, POLLOUT, 0 };
            double left = deadline - lw_now();
            int pr = left > 0 ? poll(&p, 1, (int)ceil(fmin(left, 60) * 1e3)) : 0;
            int so = 0;
            socklen_t sl = sizeof so;
            if (pr > 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &sl) == 0 && so == 0)
                break;
            if (pr != 0)
                last_err = pr > 0 ? so : errno;
            else if (!last_err)   /* our own deadline: a refusal before says more */
                last_err = ETIMEDOUT;
        } else {
            last_err = errno;
        }
        close(fd);
        fd = -1;
        double left = deadline - lw_now();
        if (left <= 0)
            break;
        struct timespec ts = { 0, (long)(fmin(left, 0.05) * 1e9) };
        nanosleep(&ts, NULL);
    }
    if (fd < 0) {
        lw_err("%s: rank %d could not connect to rank 0 at %s within %g s: %s", fn, net->rank, where,
               timeout, strerror(last_err ? last_err : ETIMEDOUT));
        return HCCL_E_TCP_CONNECT;
    }
    set_nodelay(fd);
    net->fd[0] = fd;
    net->addr[0] = *root;
    unsigned char h[HELLO_LEN] = { 0 }, rep[REPLY_LEN];
    put32(h, WIRE_MAGIC);
    put32(h + 4, M_HELLO);
    put32(h + 8, (uint32_t)net->face);
    put32(h + 12, (uint32_t)net->rank);
    put64(h + 16, session);
    put32(h + 24, (uint32_t)net->n);
    put32(h + 28, (uint32_t)device);
    put32(h + 32, (uint32_t)getpid());
    int err, x = run_one(fd, true, h, sizeof h, deadline, INFINITY, false, &err);
    /* rank 0 gives up at about the same time and then says which ranks are
     * missing: allow it a moment to say so */
    if (x == XF_DONE)
        x = run_one(fd, false, rep, sizeof rep, deadline + fmin(1.0, timeout * 0.5), INFINITY, false, &err);
    if (x == XF_TIMEOUT) {
        lw_err("%s: rank %d timed out after %g s: it reached rank 0 at %s, but the communicator was not "
               "formed (rank 0 has not called %s, or other ranks are missing)", fn, net->rank, timeout,
               where, init_api(net->face));
        return HCCL_E_TIMEOUT;
    }
    if (x != XF_DONE) {
        lw_err("%s: rank %d: rank 0 at %s dropped the connection before the communicator was formed: %s",
               fn, net->rank, where, err_text(err));
        return HCCL_E_TCP_CONNECT;
    }
    if (get32(rep) != WIRE_MAGIC || get32(rep + 4) != M_REPLY) {
        lw_err("%s: rank %d: %s does not speak the sim's protocol", fn, net->rank, where);
        return HCCL_E_TCP_CONNECT;
    }
    HcclResult status = (HcclResult)get32(rep + 8);
    if (status != HCCL_SUCCESS) {
        char text[TEXT_LEN];
        get_text(rep + 16, text);
        lw_err("%s: rank %d was refused by rank 0 at %s: %s", fn, net->rank, where, text);
        return status;
    }
    return HCCL_SUCCESS;
}

/* Seconds (HCCL_CONNECT_TIMEOUT, real HCCL's default 120). */
static double connect_timeout(void)
{
    const char *env = getenv("HCCL_CONNECT_TIMEOUT");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (end != env && !*end && v > 0)
            return v;
    }
    return 120;
}

HcclResult lw_net_init(const char *fn, const void *blob, size_t len, uint32_t n, uint32_t rank, void **out)
{
    int face = lw_face;
    lw_lock();
    if (face == LW_FACE_ACL && !lw.initialized) {
        lw_unlock();
        lw_err("%s: aclInit has not been called", fn);
        return HCCL_E_RUNTIME;
    }
    int dev = lw_cur_dev;
    /* the CUDA face's current context must also be retained (cuda.c's need_current) */
    if (!lw_dev_valid(dev) || (face == LW_FACE_CUDA && lw.refcount[dev] == 0)) {
        lw_unlock();
        lw_err("%s: no current device on this thread (call aclrtSetDevice first)", fn);
        return HCCL_E_PARA;
    }
    /* NCCL has no connect timeout of its own to honour: its collective one serves */
    double timeout = face == LW_FACE_ACL ? connect_timeout() : lw_exec_timeout();
    lw_unlock();
    if (n == 0 || n > MAX_RANKS || rank >= n) {
        lw_err("%s: rank %u of nRanks %u: want 1 <= nRanks <= %d and rank < nRanks", fn, rank, n, MAX_RANKS);
        return HCCL_E_PARA;
    }
    const unsigned char *b = blob;
    if (len < BLOB_USED || memcmp(b, BLOB_MAGIC, 4) != 0) {
        lw_err("%s: rootInfo is not from %s", fn, face_api(face));
        return HCCL_E_PARA;
    }
    if (b[4] != BLOB_VERSION || b[5] != 0) {
        lw_err("%s: rootInfo has format version %u; this library reads %d", fn, b[4] | b[5] << 8, BLOB_VERSION);
        return HCCL_E_PARA;
    }
    if (b[6] != face) {
        lw_err("%s: rootInfo is from %s, not %s", fn, face_api(b[6] == LW_FACE_CUDA), face_api(face));
        return HCCL_E_PARA;
    }
    struct sockaddr_in root = { .sin_family = AF_INET };
    memcpy(&root.sin_addr, b + 8, 4);
    memcpy(&root.sin_port, b + 12, 2);
    uint64_t session = get64(b + 16);
    int host_dev = lw_physical(dev);
    bool port_down;
    port_mbps(host_dev, &port_down);
    if (port_down) {
        /* nothing leaves this device for other servers: its peers time out waiting for it */
        lw_err("%s: rank %u's RoCE port (device %d) is down", fn, rank, host_dev);
        return HCCL_E_TCP_CONNECT;
    }
    struct lw_net *net = net_new((int)n, (int)rank);
    if (!net) {
        lw_err("%s: out of memory", fn);
        return HCCL_E_MEMORY;
    }
    net->device = host_dev;
    HcclResult hr = rank == 0 ? root_gather(fn, net, session, timeout)
                              : leaf_join(fn, net, &root, session, dev, timeout);
    if (hr == HCCL_SUCCESS && lw_comm_add_net(net, (int)rank, (int)n, dev, out) != 0) {
        lw_err("%s: out of memory", fn);
        hr = HCCL_E_MEMORY;
    }
    if (hr != HCCL_SUCCESS)
        lw_net_close(net);
    return hr;
}

/* ---- rounds ---- */

static const char *coll_name(int face, int coll)
{
    if (face == LW_FACE_CUDA)
        return coll == LW_ALLGATHER ? "ncclAllGather" : "ncclAllReduce";
    return coll == LW_ALLGATHER ? "HcclAllGather" : "HcclAllReduce";
}

/* The ranks are out of step from here: later rounds fail at once with code.
 * Rank 0 tells every rank it has sent nothing to in this round (tell), so a
 * rank blocked in its round learns why; a rank hangs up on rank 0. */
static void net_break(struct lw_net *net, HcclResult code, const char *why, bool tell)
{
    net->broken = code;
    snprintf(net->why, sizeof net->why, "%s", why);
    if (net->rank != 0) {
        if (net->fd[0] >= 0)
            close(net->fd[0]);
        net->fd[0] = -1;
        return;
    }
    for (int k = 1; k < net->n; k++) {
        if (net->fd[k] < 0)
            continue;
        if (tell) {
            unsigned char v[VERDICT_LEN] = { 0 };
            put32(v, WIRE_MAGIC);
            put32(v + 4, M_VERDICT);
            put64(v + 8, net->round);
            put32(v + 24, (uint32_t)code);
            put_text(v + 32, why);
            if (send(net->fd[k], v, sizeof v, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
                (void)0;   /* best effort: that rank may be gone too */
        }
        /* no more from rank 0, but the socket stays open until destroy: closing
         * it over unread data would reset the connection and lose the verdict */
        shutdown(net->fd[k], SHUT_WR);
    }
}

/* This rank's NPU port is down (the control file's `nic DEVICE down`): its
 * call fails and the comm with it; the other ranks lose their connection to
 * it, as they would when its link drops. */
static HcclResult port_down(const char *fn, struct lw_net *net)
{
    char why[128];
    snprintf(why, sizeof why, "rank %d's RoCE port (device %d) is down", net->rank, net->device);
    lw_err("%s: %s", fn, why);
    net_break(net, HCCL_E_TCP_TRANSFER, why, false);
    return HCCL_E_TCP_TRANSFER;
}

/* The lw_err of a failure, and why later rounds fail. */
#define FAIL_BREAK(code, tell, ...) do {                                          \
        char why_[512];                                                            \
        snprintf(why_, sizeof why_, __VA_ARGS__);                                 \
        lw_err("%s: %s", fn, why_);                                               \
        net_break(net, (code), why_, (tell));                                     \
        hr = (code);                                                              \
        goto done;                                                                \
    } while (0)

/* port: this rank's NPU port in Mb/s; path: the slowest port of the round's
 * ranks, which rank 0 learns from the headers and tells the others. */
struct round_args {
    int coll;
    void *send, *recv;
    uint64_t count;
    int type, op;
    size_t bytes, recv_bytes;
    double timeout, t0;
    uint32_t port, path;
};

static HcclResult leaf_round(const char *fn, struct lw_net *net, struct round_args *a)
{
    HcclResult hr = HCCL_SUCCESS;
    char where[64];
    addr_text(&net->addr[0], where, sizeof where);
    int fd = net->fd[0], err;
    unsigned char h[ROUND_LEN] = { 0 }, v[VERDICT_LEN];
    put32(h, WIRE_MAGIC);
    put32(h + 4, M_ROUND);
    put64(h + 8, net->round);
    put64(h + 16, a->count);
    put32(h + 24, (uint32_t)a->coll);
    put32(h + 28, (uint32_t)a->type);
    put32(h + 32, (uint32_t)a->op);
    put32(h + 36, (uint32_t)net->rank);
    put32(h + 40, a->port);
    int x = run_one(fd, true, h, sizeof h, INFINITY, a->timeout, true, &err);
    if (x == XF_DONE)
        x = run_one(fd, true, a->send, a->bytes, INFINITY, a->timeout, true, &err);
    bool cut_short = x == XF_INBOUND;   /* rank 0 spoke before taking all our data */
    if (x == XF_FAIL)
        FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d lost its connection to rank 0 (%s): %s", net->rank,
                   where, err_text(err));
    if (x == XF_TIMEOUT)
        FAIL_BREAK(HCCL_E_TIMEOUT, false, "rank %d timed out after %g s: rank 0 (%s) did not take its data "
                   "(rank 0 has not called %s)", net->rank, a->timeout, where, coll_name(net->face, a->coll));
    /* Rank 0 answers once every rank has sent; it times out first when it waits
     * for another rank, so allow it a moment to say which. */
    double grace = fmin(1.0, a->timeout * 0.5);
    x = run_one(fd, false, v, sizeof v, lw_now() + a->timeout + grace, INFINITY, false, &err);
    if (x == XF_FAIL)
        FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d lost its connection to rank 0 (%s): %s", net->rank,
                   where, err_text(err));
    if (x == XF_TIMEOUT)
        FAIL_BREAK(HCCL_E_TIMEOUT, false, "rank %d timed out after %g s waiting for rank 0 (%s) to complete "
                   "the round (rank 0, or a rank it waits for, has not called %s)", net->rank, a->timeout,
                   where, coll_name(net->face, a->coll));
    if (get32(v) != WIRE_MAGIC || get32(v + 4) != M_VERDICT || get64(v + 8) != net->round)
        FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d is out of step with rank 0 (%s) (round %llu)",
                   net->rank, where, (unsigned long long)net->round);
    HcclResult status = (HcclResult)get32(v + 24);
    if (status != HCCL_SUCCESS) {
        char text[TEXT_LEN];
        get_text(v + 32, text);
        bool keeps_step = !cut_short && (status == HCCL_E_PARA || status == HCCL_E_MEMORY);
        if (keeps_step) {
            lw_err("%s: rank %d: %s", fn, net->rank, text);
            net->round++;
            return status;
        }
        FAIL_BREAK(status, false, "rank %d: %s", net->rank, text);
    }
    a->path = get32(v + 28) ? get32(v + 28) : a->port;
    if (cut_short || get64(v + 16) != a->recv_bytes)
        FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d is out of step with rank 0 (%s): %llu result bytes, "
                   "want %zu", net->rank, where, (unsigned long long)get64(v + 16), a->recv_bytes);
    lw_lock();
    lw_device_written();   /* the receive buffer changes from here */
    lw_unlock();
    x = run_one(fd, false, a->recv, a->recv_bytes, INFINITY, a->timeout, false, &err);
    if (x == XF_FAIL)
        FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d lost its connection to rank 0 (%s): %s", net->rank,
                   where, err_text(err));
    if (x == XF_TIMEOUT)
        FAIL_BREAK(HCCL_E_TIMEOUT, false, "rank %d timed out after %g s receiving the result from rank 0 (%s)",
                   net->rank, a->timeout, where);
    net->round++;
done:
    return hr;
}

static HcclResult root_round(const char *fn, struct lw_net *net, struct round_args *a)
{
    HcclResult hr = HCCL_SUCCESS;
    int n = net->n, m = n - 1, which = 0, err = 0;
    struct xfer *x = calloc((size_t)(m > 0 ? m : 1), sizeof *x);
    unsigned char *hdr = calloc((size_t)(m > 0 ? m : 1), ROUND_LEN);
    void **stage = calloc((size_t)n, sizeof *stage);
    void **sends = calloc((size_t)n, sizeof *sends), **recvs = calloc((size_t)n, sizeof *recvs);
    bool *missing = calloc((size_t)n, sizeof *missing);
    char where[64] = "", text[TEXT_LEN] = "";
    HcclResult verdict = HCCL_SUCCESS;
    if (!x || !hdr || !stage || !sends || !recvs || !missing) {
        /* nothing read yet: the others' data is still coming, so out of step */
        FAIL_BREAK(HCCL_E_MEMORY, true, "rank 0 is out of memory");
    }
#define WHERE(k) (addr_text(&net->addr[k], where, sizeof where), where)

    /* every rank's header, within the timeout of this call */
    for (int k = 1; k < n; k++)
        x[k - 1] = (struct xfer){ net->fd[k], false, hdr + (size_t)(k - 1) * ROUND_LEN, ROUND_LEN, 0, false };
    int r = run_xfers(x, m, a->t0 + a->timeout, INFINITY, &which, &err);
    if (r == XF_FAIL)
        FAIL_BREAK(HCCL_E_TCP_TRANSFER, true, "rank 0 lost its connection to rank %d (%s): %s", which + 1,
                   WHERE(which + 1), err_text(err));
    if (r == XF_TIMEOUT) {
        int late = 0;
        for (int k = 1; k < n; k++)
            late += missing[k] = x[k - 1].done < ROUND_LEN;
        char list[96];
        rank_list(list, sizeof list, n, missing);
        FAIL_BREAK(HCCL_E_TIMEOUT, true, "rank 0 timed out after %g s waiting for %d of %d ranks to call %s: %s",
                   a->timeout, late, n, coll_name(net->face, a->coll), list);
    }

    /* do they agree with rank 0?  Each rank's data is read to its end whatever
     * the answer, so the ranks stay in step for the next round. */
    a->path = a->port;
    for (int k = 1; k < n; k++) {
        const unsigned char *h = hdr + (size_t)(k - 1) * ROUND_LEN;
        uint32_t port = get32(h + 40);
        if (port && port < a->path)
            a->path = port;
        uint64_t count = get64(h + 16);
        int coll = (int)get32(h + 24), type = (int)get32(h + 28), op = (int)get32(h + 32);
        size_t es = lw_dtype_size(type);
        if (get32(h) != WIRE_MAGIC || get32(h + 4) != M_ROUND || get64(h + 8) != net->round ||
            get32(h + 36) != (uint32_t)k || es == 0 || count > SIZE_MAX / es)
            FAIL_BREAK(HCCL_E_TCP_TRANSFER, true, "rank %d (%s) is out of step with rank 0 (round %llu)", k,
                       WHERE(k), (unsigned long long)net->round);
        if (!verdict && (coll != a->coll || count != a->count || type != a->type || op != a->op)) {
            snprintf(text, sizeof text, "rank %d called %s with count %llu type %d op %d but rank 0 called %s "
                     "with count %llu type %d op %d", k, coll_name(net->face, coll), (unsigned long long)count,
                     type, op, coll_name(net->face, a->coll), (unsigned long long)a->count, a->type, a->op);
            verdict = HCCL_E_PARA;
        }
        x[k - 1] = (struct xfer){ net->fd[k], false, NULL, (size_t)count * es, 0, false };
    }
    if (!verdict && a->coll == LW_ALLREDUCE) {
        for (int k = 1; k < n && !verdict; k++)
            if (!(stage[k] = malloc(a->bytes ? a->bytes : 1))) {
                snprintf(text, sizeof text, "rank 0 is out of memory for rank %d's %zu bytes", k, a->bytes);
                verdict = HCCL_E_MEMORY;
            }
    }
    if (!verdict) {
        lw_lock();
        lw_device_written();   /* the receive buffer changes from here */
        lw_unlock();
        if (a->coll == LW_ALLGATHER) {
            /* own block first: in place, the send buffer may lie where other blocks land */
            memmove(a->recv, a->send, a->bytes);
            for (int k = 1; k < n; k++)
                x[k - 1].buf = (char *)a->recv + (size_t)k * a->bytes;
        } else {
            for (int k = 1; k < n; k++)
                x[k - 1].buf = stage[k];
        }
    }
    r = run_xfers(x, m, INFINITY, a->timeout, &which, &err);
    if (r == XF_FAIL)
        FAIL_BREAK(HCCL_E_TCP_TRANSFER, true, "rank 0 lost its connection to rank %d (%s): %s", which + 1,
                   WHERE(which + 1), err_text(err));
    if (r == XF_TIMEOUT)
        FAIL_BREAK(HCCL_E_TIMEOUT, true, "rank 0 timed out after %g s receiving rank %d's data (%s)",
                   a->timeout, which + 1, WHERE(which + 1));

    if (!verdict && a->coll == LW_ALLREDUCE) {
        sends[0] = a->send;
        for (int k = 0; k < n; k++) {
            if (k)
                sends[k] = stage[k];
            recvs[k] = a->recv;   /* one output: the same buffer for every rank is allowed */
        }
        lw_reduce(sends, recvs, n, a->count, a->type, a->op);
    }

    /* the verdict, then (when it is good) the result, to every rank at once */
    unsigned char *v = calloc((size_t)(m > 0 ? m : 1), VERDICT_LEN);
    if (!v)
        FAIL_BREAK(HCCL_E_MEMORY, true, "rank 0 is out of memory");
    for (int k = 1; k < n; k++) {
        unsigned char *vk = v + (size_t)(k - 1) * VERDICT_LEN;
        put32(vk, WIRE_MAGIC);
        put32(vk + 4, M_VERDICT);
        put64(vk + 8, net->round);
        put64(vk + 16, verdict ? 0 : a->recv_bytes);
        put32(vk + 24, (uint32_t)verdict);
        put32(vk + 28, a->path);
        put_text(vk + 32, text);
        x[k - 1] = (struct xfer){ net->fd[k], true, vk, VERDICT_LEN, 0, false };
    }
    r = run_xfers(x, m, INFINITY, a->timeout, &which, &err);
    free(v);
    if (r == XF_DONE && !verdict) {
        for (int k = 1; k < n; k++)
            x[k - 1] = (struct xfer){ net->fd[k], true, a->recv, a->recv_bytes, 0, false };
        r = run_xfers(x, m, INFINITY, a->timeout, &which, &err);
    }
    if (r == XF_FAIL)
        FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank 0 lost its connection to rank %d (%s): %s", which + 1,
                   WHERE(which + 1), err_text(err));
    if (r == XF_TIMEOUT)
        FAIL_BREAK(HCCL_E_TIMEOUT, false, "rank 0 timed out after %g s sending the result to rank %d (%s)",
                   a->timeout, which + 1, WHERE(which + 1));
    net->round++;
    if (verdict) {
        lw_err("%s: %s", fn, text);
        hr = verdict;
    }
#undef WHERE
done:
    for (int k = 0; stage && k < n; k++)
        free(stage[k]);
    free(stage);
    free(sends);
    free(recvs);
    free(missing);
    free(hdr);
    free(x);
    return hr;
}

HcclResult lw_net_collective(const char *fn, int coll, struct lw_net *net, void *send, void *recv,
                             uint64_t count, int type, int op, struct lw_stream *s, double timeout, double t0)
{
    if (atomic_flag_test_and_set(&net->busy)) {
        lw_err("%s: rank %d is already inside a collective", fn, net->rank);
        return HCCL_E_PARA;
    }
    HcclResult hr;
    if (net->broken) {
        lw_err("%s: rank %d: the communicator failed in an earlier call and its ranks are out of step; "
               "destroy it (%s)", fn, net->rank, net->why);
        hr = net->broken;
        goto out;
    }
    bool down;
    uint32_t port = port_mbps(net->device, &down);
    if (down) {
        hr = port_down(fn, net);
        goto out;
    }
    lw_lock();
    double clock0 = s->clock;
    lw_unlock();
    size_t bytes = (size_t)count * lw_dtype_size(type);
    struct round_args a = { coll, send, recv, count, type, op, bytes,
                            coll == LW_ALLGATHER ? bytes * (size_t)net->n : bytes, timeout, t0, port, port };
    hr = net->rank == 0 ? root_round(fn, net, &a) : leaf_round(fn, net, &a);
    if (hr != HCCL_SUCCESS)
        goto out;
    /* This process's control file speaks for the bytes this process received,
     * so a corrupt rule on one host spoils only that host's results. */
    if (lw_fault_corrupt(fn))
        lw_corrupt_bytes(recv, a.recv_bytes);
    /* What a ring moves per rank, each way: allreduce 2(n-1)/n of the
     * message, allgather (n-1)/n of the gathered total; through this rank's
     * NPU port, so its counters show it. */
    int n = net->n;
    double moved = n < 2 ? 0
                 : coll == LW_ALLREDUCE ? (double)bytes * 2.0 * (n - 1) / n
                                        : (double)a.recv_bytes * (n - 1) / n;
    lw_links_nic_traffic(net->device, moved, moved);
    lw_lock();
    lw_device_written();   /* and a copy that started meanwhile is not a repeat */
    if (!lw.prof.passthrough && lw.initialized) {
        /* The wall time is real (the network, a tc rate limit, the other
         * ranks' lateness); the model bounds it from below: the host link,
         * or the slowest NPU port of the round's ranks where that is slower. */
        double model = lw_path_seconds(over_ports(a.path), moved);
        s->clock = clock0 + fmax(lw_now() - t0, model);
    }
    lw_unlock();
out:
    atomic_flag_clear(&net->busy);
    return hr;
}

/* ---- point to point ----
 * Over the socket between the two ranks: the sender announces (count, type)
 * and sends its bytes; the receiver reads the announcement, the bytes, and
 * acknowledges, so a send returns once the data has arrived, as HcclSend
 * does.  A call with both a send and a receive moves both directions at once.
 * A receiver whose count or type differs drains the bytes and both sides get
 * HCCL_E_PARA, in step; anything else leaves the comm failed. */

static const char *p2p_name(int face, bool send)
{
    if (face == LW_FACE_CUDA)
        return send ? "ncclSend" : "ncclRecv";
    return send ? "HcclSend" : "HcclRecv";
}

static void p2p_message(unsigned char *m, uint32_t kind, uint64_t seq, uint64_t count, int type,
                        HcclResult status, uint32_t port, const char *text)
{
    memset(m, 0, P2P_LEN);
    put32(m, WIRE_MAGIC);
    put32(m + 4, kind);
    put64(m + 8, seq);
    put64(m + 16, count);
    put32(m + 24, (uint32_t)type);
    put32(m + 28, (uint32_t)status);
    put32(m + 32, port);
    put_text(m + 40, text);
}

HcclResult lw_net_p2p(const char *fn, struct lw_net *net, const struct lw_p2p_item *items, int n,
                      struct lw_stream *s, double timeout, double t0)
{
    if (atomic_flag_test_and_set(&net->busy)) {
        lw_err("%s: rank %d is already inside a call of its communicator", fn, net->rank);
        return HCCL_E_PARA;
    }
    HcclResult hr = HCCL_SUCCESS;
    if (net->broken) {
        lw_err("%s: rank %d: the communicator failed in an earlier call and its ranks are out of step; "
               "destroy it (%s)", fn, net->rank, net->why);
        hr = net->broken;
        goto out;
    }
    int peer = items[0].peer;
    const struct lw_p2p_item *snd = NULL, *rcv = NULL;
    for (int i = 0; i < n; i++) {
        if (items[i].peer != peer) {
            lw_err("%s: the simulator runs one peer's send and receive per call (ranks %d and %d)", fn, peer,
                   items[i].peer);
            hr = HCCL_E_NOT_SUPPORT;
            goto out;
        }
        if (items[i].send)
            snd = &items[i];
        else
            rcv = &items[i];
    }
    if (net->rank != 0 && peer != 0) {
        lw_err("%s: rank %d cannot reach rank %d: the simulator's ranks in several processes meet through "
               "rank 0, so its point-to-point calls go to or from rank 0", fn, net->rank, peer);
        hr = HCCL_E_NOT_SUPPORT;
        goto out;
    }
    bool down;
    uint32_t port = port_mbps(net->device, &down), path = port;
    if (down) {
        hr = port_down(fn, net);
        goto out;
    }
    int slot = net->rank == 0 ? peer : 0, fd = net->fd[slot], err = 0, which = 0, x;
    char where[64], text[TEXT_LEN] = "";
    addr_text(&net->addr[slot], where, sizeof where);
    uint64_t seq = net->pseq[slot];
    size_t sbytes = snd ? (size_t)snd->count * lw_dtype_size(snd->type) : 0, rbytes = 0;
    HcclResult verdict = HCCL_SUCCESS;
    unsigned char m[P2P_LEN];
    lw_lock();
    double clock0 = s->clock;
    lw_unlock();

    if (snd) {
        p2p_message(m, M_P2P, seq, snd->count, snd->type, HCCL_SUCCESS, port, "");
        x = run_one(fd, true, m, sizeof m, INFINITY, timeout, false, &err);
        if (x == XF_FAIL)
            FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d lost its connection to rank %d (%s): %s", net->rank,
                       peer, where, err_text(err));
        if (x == XF_TIMEOUT)
            FAIL_BREAK(HCCL_E_TIMEOUT, false, "rank %d timed out after %g s: rank %d (%s) takes nothing",
                       net->rank, timeout, peer, where);
    }
    if (rcv) {
        x = run_one(fd, false, m, sizeof m, t0 + timeout, INFINITY, false, &err);
        if (x == XF_FAIL)
            FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d lost its connection to rank %d (%s): %s", net->rank,
                       peer, where, err_text(err));
        if (x == XF_TIMEOUT)
            FAIL_BREAK(HCCL_E_TIMEOUT, false, "rank %d timed out after %g s waiting for rank %d (%s) to call %s",
                       net->rank, timeout, peer, where, p2p_name(net->face, true));
        uint64_t count = get64(m + 16);
        int type = (int)get32(m + 24);
        size_t es = lw_dtype_size(type);
        if (get32(m) != WIRE_MAGIC || get32(m + 4) != M_P2P || get64(m + 8) != seq || es == 0 ||
            count > SIZE_MAX / es)
            FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d is out of step with rank %d (%s) (%s %llu)",
                       net->rank, peer, where, fn, (unsigned long long)seq);
        rbytes = (size_t)count * es;
        if (get32(m + 32) && get32(m + 32) < path)
            path = get32(m + 32);
        if (count != rcv->count || type != rcv->type) {
            snprintf(text, sizeof text, "rank %d sent count %llu type %d but rank %d receives count %llu type %d",
                     peer, (unsigned long long)count, type, net->rank, (unsigned long long)rcv->count,
                     rcv->type);
            verdict = HCCL_E_PARA;
        } else {
            lw_lock();
            lw_device_written();   /* the receive buffer changes from here */
            lw_unlock();
        }
    }

    /* the bytes, both directions side by side */
    struct xfer xs[2];
    int nx = 0;
    if (snd)
        xs[nx++] = (struct xfer){ fd, true, snd->buf, sbytes, 0, false };
    if (rcv)
        xs[nx++] = (struct xfer){ fd, false, verdict ? NULL : rcv->buf, rbytes, 0, false };
    x = run_xfers(xs, nx, INFINITY, timeout, &which, &err);
    if (x == XF_FAIL)
        FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d lost its connection to rank %d (%s): %s", net->rank,
                   peer, where, err_text(err));
    if (x == XF_TIMEOUT) {
        if (xs[which].out)
            FAIL_BREAK(HCCL_E_TIMEOUT, false, "rank %d timed out after %g s sending to rank %d (%s): it took "
                       "%zu of %zu bytes (has it called %s?)", net->rank, timeout, peer, where, xs[which].done,
                       xs[which].len, p2p_name(net->face, false));
        FAIL_BREAK(HCCL_E_TIMEOUT, false, "rank %d timed out after %g s receiving from rank %d (%s): %zu of %zu "
                   "bytes came", net->rank, timeout, peer, where, xs[which].done, xs[which].len);
    }

    if (rcv) {
        p2p_message(m, M_P2P_ACK, seq, rcv->count, rcv->type, verdict, port, text);
        x = run_one(fd, true, m, sizeof m, INFINITY, timeout, false, &err);
        if (x != XF_DONE)
            FAIL_BREAK(x == XF_TIMEOUT ? HCCL_E_TIMEOUT : HCCL_E_TCP_TRANSFER, false,
                       "rank %d could not tell rank %d (%s) its data arrived: %s", net->rank, peer, where,
                       x == XF_TIMEOUT ? "timed out" : err_text(err));
    }
    if (snd) {
        double grace = fmin(1.0, timeout * 0.5);
        x = run_one(fd, false, m, sizeof m, lw_now() + timeout + grace, INFINITY, false, &err);
        if (x == XF_FAIL)
            FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d lost its connection to rank %d (%s): %s", net->rank,
                       peer, where, err_text(err));
        if (x == XF_TIMEOUT)
            FAIL_BREAK(HCCL_E_TIMEOUT, false, "rank %d timed out after %g s waiting for rank %d (%s) to receive "
                       "its data (has it called %s?)", net->rank, timeout, peer, where,
                       p2p_name(net->face, false));
        if (get32(m) == WIRE_MAGIC && get32(m + 4) == M_P2P && get64(m + 8) == seq)
            FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d and rank %d (%s) both called %s: pair each %s with "
                       "a %s", net->rank, peer, where, p2p_name(net->face, true), p2p_name(net->face, true),
                       p2p_name(net->face, false));
        if (get32(m) != WIRE_MAGIC || get32(m + 4) != M_P2P_ACK || get64(m + 8) != seq)
            FAIL_BREAK(HCCL_E_TCP_TRANSFER, false, "rank %d is out of step with rank %d (%s) (%s %llu)",
                       net->rank, peer, where, fn, (unsigned long long)seq);
        HcclResult status = (HcclResult)get32(m + 28);
        if (get32(m + 32) && get32(m + 32) < path)
            path = get32(m + 32);
        if (status != HCCL_SUCCESS && verdict == HCCL_SUCCESS) {
            get_text(m + 40, text);
            verdict = status;
        }
    }
    net->pseq[slot]++;
    if (verdict != HCCL_SUCCESS) {
        lw_err("%s: %s", fn, text);
        hr = verdict;
        goto done;
    }
    /* as in a round: this process's control file speaks for the bytes it received
     * (a corrupt rule on the receive, HcclRecv or ncclRecv, covers a batch's too) */
    if (rcv && (lw_fault_corrupt(fn) || lw_fault_corrupt(p2p_name(net->face, false))))
        lw_corrupt_bytes(rcv->buf, rbytes);
    lw_links_nic_traffic(net->device, (double)sbytes, (double)rbytes);
    lw_lock();
    lw_device_written();
    if (!lw.prof.passthrough && lw.initialized) {
        /* the wire's time, bounded below by the model's (the host link, or the
         * slower of the two NPU ports): each direction moves its own bytes */
        double model = lw_path_seconds(over_ports(path), (double)(sbytes > rbytes ? sbytes : rbytes));
        s->clock = clock0 + fmax(lw_now() - t0, model);
    }
    lw_unlock();
done:
out:
    atomic_flag_clear(&net->busy);
    return hr;
}

/* ---- the HCCL exports (NCCL's are in nccl.c) ---- */

HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo)
{
    int rc = lw_enter("HcclGetRootInfo");
    if (rc)
        return (HcclResult)rc;
    if (!rootInfo) {
        lw_err("HcclGetRootInfo: rootInfo is NULL");
        return HCCL_E_PTR;
    }
    return lw_net_root_info("HcclGetRootInfo", rootInfo->internal, sizeof rootInfo->internal);
}

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank, HcclComm *comm)
{
    int rc = lw_enter("HcclCommInitRootInfo");
    if (rc)
        return (HcclResult)rc;
    if (!rootInfo || !comm) {
        lw_err("HcclCommInitRootInfo: %s is NULL", !rootInfo ? "rootInfo" : "comm");
        return HCCL_E_PTR;
    }
    return lw_net_init("HcclCommInitRootInfo", rootInfo->internal, sizeof rootInfo->internal, nRanks, rank,
                       comm);
}
