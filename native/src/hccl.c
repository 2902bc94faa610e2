/*
 * hccl.c - HcclCommInitAll / HcclAllReduce / HcclAllGather / HcclCommDestroy.
 *
 * As with real HCCL, each rank calls the collective from its own thread and
 * the ranks meet inside the call.  The last one to arrive moves the data
 * (allreduce: reduces every rank's send buffer into every recv buffer;
 * allgather: copies rank k's send buffer to block k of every recv buffer) and
 * sets all ranks' stream clocks to max(arrival clocks) + the modeled
 * duration, which is what events around a real collective would show (the
 * slowest rank gates everyone).  NCCL's collectives (nccl.c) run through the
 * same lw_comm_create / lw_collective, in the CUDA face's state.
 *
 * Comms made one rank at a time (HcclCommInitRootInfo, ncclCommInitRank)
 * have no group here: their ranks may be in other processes, so lw_collective
 * hands their rounds to hccl_net.c, which carries them over TCP.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "reduce.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COMM_MAGIC 0x48434f4du

struct slot {
    bool present;
    void *send, *recv;
    struct lw_stream *stream;
};

struct lw_group {
    const char *fn;        /* the exported call of this round (fault rules, messages) */
    pthread_mutex_t m;
    pthread_cond_t cv;     /* CLOCK_MONOTONIC, so wall-clock jumps don't fire timeouts */
    int n;
    int live;              /* comms not yet destroyed; the group dies with the last */
    uint64_t round;        /* completed collective rounds */
    int arrived;
    int coll;              /* what the ranks of this round called: enum lw_coll */
    uint64_t count;        /* per rank: allreduce's count, allgather's sendCount */
    int type, op;
    struct slot *slots;
};

struct lw_comm {
    uint32_t magic;
    struct lw_group *g;    /* ranks in this process (InitAll); NULL for a networked comm */
    struct lw_net *net;    /* ranks over TCP (hccl_net.c); NULL for an InitAll comm */
    int rank, device;
    int n;                 /* ranks in the comm */
    int face;              /* HCCL's comms and NCCL's never mix */
};

enum { ALLREDUCE = LW_ALLREDUCE, ALLGATHER = LW_ALLGATHER };

static struct lw_comm **comms;   /* live comms; lw.lock */
static size_t ncomms, capcomms;

static bool comm_live(const void *c)
{
    for (size_t i = 0; i < ncomms; i++)
        if (comms[i] == c)
            return comms[i]->face == lw_face;
    return false;
}

HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *out)
{
    int rc = lw_enter("HcclCommInitAll");
    if (rc)
        return (HcclResult)rc;
    if (!devices || !out) {
        lw_err("HcclCommInitAll: %s is NULL", !devices ? "devices" : "comms");
        return HCCL_E_PTR;
    }
    lw_lock();
    if (lw_check_init("HcclCommInitAll")) {
        lw_unlock();
        return HCCL_E_RUNTIME;
    }
    if (ndev == 0 || ndev > (uint32_t)lw.prof.ndev) {
        lw_err("HcclCommInitAll: ndev %u out of range 1..%d", ndev, lw.prof.ndev);
        lw_unlock();
        return HCCL_E_PARA;
    }
    for (uint32_t i = 0; i < ndev; i++) {
        if (!lw_dev_valid(devices[i])) {
            lw_err("HcclCommInitAll: devices[%u] = %d is not a device", i, devices[i]);
            lw_unlock();
            return HCCL_E_PARA;
        }
        for (uint32_t j = 0; j < i; j++)
            if (devices[j] == devices[i]) {
                lw_err("HcclCommInitAll: device %d listed twice", devices[i]);
                lw_unlock();
                return HCCL_E_PARA;
            }
    }
    lw_unlock();
    int n = (int)ndev, devs[LW_MAX_DEVICES];
    for (int i = 0; i < n; i++)
        devs[i] = devices[i];
    if (lw_comm_create(n, devs, out) != 0) {
        lw_err("HcclCommInitAll: out of memory");
        return HCCL_E_MEMORY;
    }
    return HCCL_SUCCESS;
}

int lw_comm_create(int ndev, const int *devices, void **out)
{
    lw_lock();
    struct lw_group *g = calloc(1, sizeof *g);
    struct slot *slots = calloc((size_t)ndev, sizeof *slots);
    struct lw_comm **made = calloc((size_t)ndev, sizeof *made);
    bool ok = g && slots && made;
    for (int i = 0; ok && i < ndev; i++)
        ok = (made[i] = calloc(1, sizeof **made)) != NULL;
    if (ok && ncomms + (size_t)ndev > capcomms) {
        size_t nc = (ncomms + (size_t)ndev) * 2;
        struct lw_comm **nlist = realloc(comms, nc * sizeof *nlist);
        ok = nlist != NULL;
        if (ok) {
            comms = nlist;
            capcomms = nc;
        }
    }
    if (!ok) {
        for (int i = 0; made && i < ndev; i++)
            free(made[i]);
        free(made);
        free(slots);
        free(g);
        lw_unlock();
        return -1;
    }
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&g->cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&g->m, NULL);
    g->n = ndev;
    g->live = ndev;
    g->slots = slots;
    for (int i = 0; i < ndev; i++) {
        *made[i] = (struct lw_comm){ COMM_MAGIC, g, NULL, i, devices[i], ndev, lw_face };
        comms[ncomms++] = made[i];
        out[i] = made[i];
        lw_count(LW_CNT_COMM, 1);
    }
    free(made);
    lw_unlock();
    return 0;
}

int lw_comm_add_net(struct lw_net *net, int rank, int n, int device, void **out)
{
    struct lw_comm *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    *c = (struct lw_comm){ COMM_MAGIC, NULL, net, rank, device, n, lw_face };
    lw_lock();
    if (ncomms == capcomms) {
        size_t nc = capcomms ? capcomms * 2 : 16;
        struct lw_comm **nlist = realloc(comms, nc * sizeof *nlist);
        if (!nlist) {
            lw_unlock();
            free(c);
            return -1;
        }
        comms = nlist;
        capcomms = nc;
    }
    comms[ncomms++] = c;
    lw_count(LW_CNT_COMM, 1);
    lw_unlock();
    *out = c;
    return 0;
}

HcclResult HcclCommDestroy(HcclComm comm)
{
    int rc = lw_enter("HcclCommDestroy");
    if (rc)
        return (HcclResult)rc;
    if (lw_comm_destroy(comm) != 0) {
        lw_err("HcclCommDestroy: %p is not a live communicator", comm);
        return HCCL_E_PARA;
    }
    return HCCL_SUCCESS;
}

int lw_comm_destroy(void *comm)
{
    lw_lock();
    if (!comm || !comm_live(comm)) {
        lw_unlock();
        return -1;
    }
    for (size_t i = 0; i < ncomms; i++)
        if (comms[i] == comm) {
            comms[i] = comms[--ncomms];
            break;
        }
    lw_count(LW_CNT_COMM, -1);
    lw_unlock();
    struct lw_comm *c = comm;
    struct lw_group *g = c->g;
    if (c->net) {
        lw_net_close(c->net);
        c->magic = 0;
        free(c);
        return 0;
    }
    pthread_mutex_lock(&g->m);
    bool last = --g->live == 0;
    pthread_mutex_unlock(&g->m);
    if (last) {
        pthread_cond_destroy(&g->cv);
        pthread_mutex_destroy(&g->m);
        free(g->slots);
        free(g);
    }
    c->magic = 0;
    free(c);
    return 0;
}

/* Timeout in seconds: HCCL_EXEC_TIMEOUT wins over the profile. */
double lw_exec_timeout(void)
{
    const char *env = getenv("HCCL_EXEC_TIMEOUT");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (end != env && !*end && v > 0)
            return v;
    }
    return lw.prof.hccl_timeout;
}

/* Argument checks; lw.lock held.  The recv buffer holds count elements for
 * an allreduce, n * count for an allgather; op is checked for allreduce. */
static HcclResult check_args(const char *fn, int k, void *send, void *recv, uint64_t count, int type, int op,
                             struct lw_comm *c, aclrtStream stream, struct lw_stream **sp)
{
    if (!c || !comm_live(c)) {
        lw_err("%s: comm %p is not a live communicator", fn, (void *)c);
        return HCCL_E_PARA;
    }
    if (!send || !recv) {
        lw_err("%s: %s is NULL", fn, !send ? "sendBuf" : "recvBuf");
        return HCCL_E_PTR;
    }
    if (count == 0) {
        lw_err("%s: count is 0", fn);
        return HCCL_E_PARA;
    }
    if (k == ALLREDUCE && (op < HCCL_REDUCE_SUM || op > HCCL_REDUCE_MIN)) {
        lw_err("%s: reduce op %d not supported", fn, op);
        return HCCL_E_PARA;
    }
    size_t es = lw_dtype_size(type);
    if (es == 0) {
        lw_err("%s: data type %d not supported by the simulator", fn, type);
        return HCCL_E_NOT_SUPPORT;
    }
    size_t ranks = k == ALLGATHER ? (size_t)c->n : 1;
    if (count > SIZE_MAX / es / ranks) {
        lw_err("%s: count %llu too large", fn, (unsigned long long)count);
        return HCCL_E_PARA;
    }
    size_t bytes[2] = { (size_t)count * es, (size_t)count * es * ranks };
    void *bufs[2] = { send, recv };
    const char *names[2] = { "sendBuf", "recvBuf" };
    for (int i = 0; i < 2; i++) {
        struct lw_alloc a;
        if (!lw_find(bufs[i], LW_MEM_DEVICE, &a) || a.device != c->device ||
            bytes[i] > a.size - (size_t)((char *)bufs[i] - a.base)) {
            lw_err("%s: %s %p is not %zu bytes of device memory on device %d (rank %d)",
                   fn, names[i], bufs[i], bytes[i], c->device, c->rank);
            return HCCL_E_PTR;
        }
    }
    if (!stream) {
        *sp = lw.default_stream[c->device];
    } else {
        *sp = lw_stream_resolve(stream, fn);
        if (!*sp)
            return HCCL_E_PARA;
        if ((*sp)->device != c->device) {
            lw_err("%s: stream is on device %d but the comm's rank %d is device %d",
                   fn, (*sp)->device, c->rank, c->device);
            return HCCL_E_PARA;
        }
    }
    return HCCL_SUCCESS;
}

/* Last rank in: move the data, model the time, release the others.  g->m held. */
static void complete_round(struct lw_group *g)
{
    void *send[LW_MAX_DEVICES], *recv[LW_MAX_DEVICES];
    for (int r = 0; r < g->n; r++) {
        send[r] = g->slots[r].send;
        recv[r] = g->slots[r].recv;
    }
    size_t bytes = (size_t)g->count * lw_dtype_size(g->type);
    size_t recv_bytes = g->coll == ALLGATHER ? bytes * (size_t)g->n : bytes;
    lw_lock();
    lw_device_written();   /* the receive buffers change from here */
    lw_unlock();
    if (g->coll == ALLREDUCE) {
        lw_reduce(send, recv, g->n, g->count, g->type, g->op);
    } else {
        for (int r = 0; r < g->n; r++)
            for (int k = 0; k < g->n; k++)
                memmove((char *)recv[r] + (size_t)k * bytes, send[k], bytes);
    }
    if (lw_fault_corrupt(g->fn))
        for (int r = 0; r < g->n; r++)
            lw_corrupt_bytes(recv[r], recv_bytes);

    lw_lock();
    lw_device_written();   /* and a copy that started meanwhile is not a repeat */
    if (!lw.prof.passthrough && lw.initialized) {
        double start = 0;
        for (int r = 0; r < g->n; r++)
            start = fmax(start, g->slots[r].stream->clock);
        /* bus traffic, as nccl-tests count it: a ring allreduce moves 2(n-1)/n
         * of the message, an allgather (n-1)/n of the gathered total */
        double moved = g->n < 2 ? 0
                     : g->coll == ALLREDUCE ? (double)bytes * 2.0 * (g->n - 1) / g->n
                                            : (double)recv_bytes * (g->n - 1) / g->n;
        struct lw_path model = g->coll == ALLREDUCE ? lw.prof.allreduce : lw.prof.allgather;
        struct lw_path path = model;
        for (int r = 0; r < g->n; r++)
            if (lw_contention(g->slots[r].stream->device, -1) < 1.0)
                path.bandwidth = model.bandwidth * lw.prof.busy_share;
        double end = start + lw_path_seconds(path, moved);
        for (int r = 0; r < g->n; r++)
            g->slots[r].stream->clock = end;
    }
    /* each rank's bytes on the wire, for the link counters */
    double wire = g->n < 2 ? 0
                : g->coll == ALLREDUCE ? (double)bytes * 2.0 * (g->n - 1) / g->n
                                       : (double)recv_bytes * (g->n - 1) / g->n;
    int hosts[LW_MAX_DEVICES];
    for (int r = 0; r < g->n; r++)
        hosts[r] = lw_physical(g->slots[r].stream->device);
    lw_unlock();
    lw_links_collective_traffic(lw_face, hosts, g->n, wire);
    for (int r = 0; r < g->n; r++)
        g->slots[r].present = false;
    g->arrived = 0;
    g->round++;
    pthread_cond_broadcast(&g->cv);
}

/* One rank's call of either collective: check, meet the others, and let the
 * last one in complete the round. */
static HcclResult collective(const char *fn, int k, void *sendBuf, void *recvBuf, uint64_t count,
                             HcclDataType dataType, int op, HcclComm comm, aclrtStream stream)
{
    int rc = lw_enter(fn);
    if (rc)
        return (HcclResult)rc;
    return lw_collective(fn, k, sendBuf, recvBuf, count, (int)dataType, op, comm, stream);
}

HcclResult lw_collective(const char *fn, int k, void *sendBuf, void *recvBuf, uint64_t count,
                         int dataType, int op, void *comm, void *stream)
{
    double t0 = lw_now();   /* a networked round's time runs from here */
    struct lw_comm *c = comm;
    struct lw_stream *s = NULL;
    lw_lock();
    HcclResult hr = lw.initialized
                        ? check_args(fn, k, sendBuf, recvBuf, count, (int)dataType, op, c, stream, &s)
                        : HCCL_E_RUNTIME;
    if (!lw.initialized)
        lw_err("%s: aclInit has not been called", fn);
    double timeout = lw_exec_timeout();
    lw_unlock();
    if (hr != HCCL_SUCCESS)
        return hr;
    if (c->net)
        return lw_net_collective(fn, k, c->net, sendBuf, recvBuf, count, dataType, op, s, timeout, t0);

    struct lw_group *g = c->g;
    pthread_mutex_lock(&g->m);
    if (g->arrived > 0 && (g->coll != k || g->count != count || g->type != (int)dataType ||
                           g->op != op)) {
        lw_err("%s: rank %d passed count %llu type %d op %d but the other ranks called %s with "
               "count %llu type %d op %d", fn, c->rank, (unsigned long long)count, (int)dataType, op,
               g->fn, (unsigned long long)g->count, g->type, g->op);
        pthread_mutex_unlock(&g->m);
        return HCCL_E_PARA;
    }
    if (g->slots[c->rank].present) {
        lw_err("%s: rank %d is already inside a collective", fn, c->rank);
        pthread_mutex_unlock(&g->m);
        return HCCL_E_PARA;
    }
    g->coll = k;
    g->fn = fn;
    g->count = count;
    g->type = (int)dataType;
    g->op = op;
    g->slots[c->rank] = (struct slot){ true, sendBuf, recvBuf, s };
    uint64_t my_round = g->round;
    if (++g->arrived == g->n) {
        complete_round(g);
        pthread_mutex_unlock(&g->m);
        return HCCL_SUCCESS;
    }
    struct timespec dl;
    clock_gettime(CLOCK_MONOTONIC, &dl);
    double whole = floor(timeout);
    dl.tv_sec += (time_t)whole;
    dl.tv_nsec += (long)((timeout - whole) * 1e9);
    if (dl.tv_nsec >= 1000000000L) {
        dl.tv_sec++;
        dl.tv_nsec -= 1000000000L;
    }
    while (g->round == my_round) {
        if (pthread_cond_timedwait(&g->cv, &g->m, &dl) == ETIMEDOUT && g->round == my_round) {
            /* Leave the group as if this call never happened, so it can be
             * retried or destroyed. */
            int missing = g->n - g->arrived, n = g->n;
            g->slots[c->rank].present = false;
            g->arrived--;
            pthread_mutex_unlock(&g->m);
            lw_err("%s: rank %d (device %d) timed out after %.3g s waiting for %d of %d ranks",
                   fn, c->rank, c->device, timeout, missing, n);
            return HCCL_E_TIMEOUT;
        }
    }
    pthread_mutex_unlock(&g->m);
    return HCCL_SUCCESS;
}

HcclResult lw_p2p(const char *fn, const struct lw_p2p_item *items, int n, void *comm, void *stream)
{
    double t0 = lw_now();
    struct lw_comm *c = comm;
    struct lw_stream *s = NULL;
    HcclResult hr = HCCL_SUCCESS;
    lw_lock();
    if (!lw.initialized) {
        lw_err("%s: aclInit has not been called", fn);
        hr = HCCL_E_RUNTIME;
        goto checked;
    }
    if (!c || !comm_live(c)) {
        lw_err("%s: comm %p is not a live communicator", fn, (void *)c);
        hr = HCCL_E_PARA;
        goto checked;
    }
    if (n < 1 || !items) {
        lw_err("%s: no send or receive to run", fn);
        hr = HCCL_E_PARA;
        goto checked;
    }
    for (int i = 0; i < n && hr == HCCL_SUCCESS; i++) {
        const struct lw_p2p_item *it = &items[i];
        const char *what = it->send ? "send" : "receive";
        size_t es = lw_dtype_size(it->type);
        struct lw_alloc a;
        if (it->peer < 0 || it->peer >= c->n || it->peer == c->rank) {
            lw_err("%s: rank %d cannot %s %s rank %d of a comm of %d ranks", fn, c->rank, what,
                   it->send ? "to" : "from", it->peer, c->n);
            hr = HCCL_E_PARA;
        } else if (!it->buf) {
            lw_err("%s: the %s buffer is NULL", fn, what);
            hr = HCCL_E_PTR;
        } else if (it->count == 0) {
            lw_err("%s: count is 0", fn);
            hr = HCCL_E_PARA;
        } else if (es == 0) {
            lw_err("%s: data type %d not supported by the simulator", fn, it->type);
            hr = HCCL_E_NOT_SUPPORT;
        } else if (it->count > SIZE_MAX / es) {
            lw_err("%s: count %llu too large", fn, (unsigned long long)it->count);
            hr = HCCL_E_PARA;
        } else if (!lw_find(it->buf, LW_MEM_DEVICE, &a) || a.device != c->device ||
                   (size_t)it->count * es > a.size - (size_t)((char *)it->buf - a.base)) {
            lw_err("%s: the %s buffer %p is not %zu bytes of device memory on device %d (rank %d)", fn,
                   what, it->buf, (size_t)it->count * es, c->device, c->rank);
            hr = HCCL_E_PTR;
        }
        for (int j = 0; j < i && hr == HCCL_SUCCESS; j++)
            if (items[j].send == it->send && items[j].peer == it->peer) {
                /* HCCL's own rule for a batch: one block each way per pair of ranks */
                lw_err("%s: two %ss %s rank %d in one call", fn, what, it->send ? "to" : "from", it->peer);
                hr = HCCL_E_PARA;
            }
    }
    if (hr != HCCL_SUCCESS)
        goto checked;
    if (!stream) {
        s = lw.default_stream[c->device];
    } else if (!(s = lw_stream_resolve(stream, fn))) {
        hr = HCCL_E_PARA;
    } else if (s->device != c->device) {
        lw_err("%s: stream is on device %d but the comm's rank %d is device %d", fn, s->device, c->rank,
               c->device);
        hr = HCCL_E_PARA;
    }
checked:;
    double timeout = lw_exec_timeout();
    lw_unlock();
    if (hr != HCCL_SUCCESS)
        return hr;
    if (!c->net) {
        lw_err("%s: the simulator carries point-to-point calls only on a communicator of "
               "HcclCommInitRootInfo or ncclCommInitRank", fn);
        return HCCL_E_NOT_SUPPORT;
    }
    return lw_net_p2p(fn, c->net, items, n, s, timeout, t0);
}

static HcclResult p2p_one(const char *fn, bool send, void *buf, uint64_t count, HcclDataType type,
                          uint32_t peer, HcclComm comm, aclrtStream stream)
{
    int rc = lw_enter(fn);
    if (rc)
        return (HcclResult)rc;
    struct lw_p2p_item it = { send, buf, count, (int)type, peer > INT32_MAX ? -1 : (int)peer };
    return lw_p2p(fn, &it, 1, comm, stream);
}

HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                    aclrtStream stream)
{
    return p2p_one("HcclSend", true, sendBuf, count, dataType, destRank, comm, stream);
}

HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                    aclrtStream stream)
{
    return p2p_one("HcclRecv", false, recvBuf, count, dataType, srcRank, comm, stream);
}

HcclResult HcclBatchSendRecv(HcclSendRecvItem *sendRecvInfo, uint32_t itemNum, HcclComm comm,
                             aclrtStream stream)
{
    int rc = lw_enter("HcclBatchSendRecv");
    if (rc)
        return (HcclResult)rc;
    if (!sendRecvInfo || itemNum == 0 || itemNum > 64) {
        lw_err("HcclBatchSendRecv: %s", !sendRecvInfo ? "sendRecvInfo is NULL"
                                                      : "itemNum must be 1 to 64 in the simulator");
        return !sendRecvInfo ? HCCL_E_PTR : HCCL_E_PARA;
    }
    struct lw_p2p_item items[64];
    for (uint32_t i = 0; i < itemNum; i++) {
        HcclSendRecvItem *it = &sendRecvInfo[i];
        if (it->sendRecvType != HCCL_SEND && it->sendRecvType != HCCL_RECV) {
            lw_err("HcclBatchSendRecv: item %u has type %d, neither HCCL_SEND nor HCCL_RECV", i,
                   (int)it->sendRecvType);
            return HCCL_E_PARA;
        }
        items[i] = (struct lw_p2p_item){ it->sendRecvType == HCCL_SEND, it->buf, it->count, (int)it->dataType,
                                         it->remoteRank > INT32_MAX ? -1 : (int)it->remoteRank };
    }
    return lw_p2p("HcclBatchSendRecv", items, (int)itemNum, comm, stream);
}

HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
                         HcclReduceOp op, HcclComm comm, aclrtStream stream)
{
    return collective("HcclAllReduce", ALLREDUCE, sendBuf, recvBuf, count, dataType, (int)op, comm, stream);
}

/* recvBuf holds sendCount elements from every rank, rank k's at block k. */
HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType,
                         HcclComm comm, aclrtStream stream)
{
    return collective("HcclAllGather", ALLGATHER, sendBuf, recvBuf, sendCount, dataType, -1, comm, stream);
}
