/* test_peer.c - ranks of one communicator in several processes: HcclGetRootInfo /
 * HcclCommInitRootInfo and ncclGetUniqueId / ncclCommInitRank, collectives over
 * TCP, lost peers, timeouts, per-process faults, the time model, descriptors.
 *
 * The runner is one process; the other "hosts" are forks of it.  Every process
 * checks its own ranks and a child's failures reach the runner as its exit
 * status.  The root info travels from rank 0's process to the others through
 * pipes, as a launcher would carry it. */
#define _GNU_SOURCE
#include "check.h"
#include "linkwatch_sim_cuda.h"
#include <arpa/inet.h>
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MiB (1024UL * 1024UL)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Small whole numbers as fp16 (exact up to 2048). */
static uint16_t half_of(int v)
{
    if (v == 0)
        return 0;
    int e = 0;
    while ((v >> (e + 1)) != 0)
        e++;
    return (uint16_t)(((e + 15) << 10) | (((v << 10) >> e) & 0x3ff));
}

static void put_val(void *buf, size_t i, int type, int v)
{
    if (type == HCCL_DATA_TYPE_FP16)
        ((uint16_t *)buf)[i] = half_of(v);
    else if (type == HCCL_DATA_TYPE_FP32)
        ((float *)buf)[i] = (float)v;
    else
        ((int32_t *)buf)[i] = v;
}

static bool is_val(const void *buf, size_t i, int type, int v)
{
    if (type == HCCL_DATA_TYPE_FP16)
        return ((const uint16_t *)buf)[i] == half_of(v);
    if (type == HCCL_DATA_TYPE_FP32)
        return ((const float *)buf)[i] == (float)v;
    return ((const int32_t *)buf)[i] == v;
}

static size_t esize(int type)
{
    return type == HCCL_DATA_TYPE_FP16 ? 2 : 4;
}

/* One rank: joins, runs one collective (and a second when then_count is set),
 * checks what it got.  Rank r sends r + 1 everywhere, so a sum of n ranks is
 * n(n+1)/2 and block k of a gather is k + 1. */
enum { P2P_NONE, P2P_ONE_WAY, P2P_BOTH, P2P_BOTH_SEND };

struct job {
    int rank, n, dev;
    int p2p;                    /* P2P_NONE: a collective; else which point-to-point calls */
    const HcclRootInfo *root;
    int type;
    uint64_t count, then_count;
    bool gather;
    double die_after;           /* > 0: SIGKILL this process that long after joining */
    bool port_down_after_init;  /* this process's control file takes device 0's NPU port down */
    int init_rc, rc, rc2;
    bool ok, ok2;               /* every element as expected */
    float ms;                   /* the first collective, between two events */
    double wall;                /* seconds the first collective call took */
    char msg[512];
};

static bool run_round(struct job *j, void *send, void *recv, uint64_t count, HcclComm comm,
                      aclrtStream s, int *rc, bool timed)
{
    size_t es = esize(j->type), rbytes = count * es * (j->gather ? (size_t)j->n : 1);
    aclrtEvent a, b;
    aclrtCreateEvent(&a);
    aclrtCreateEvent(&b);
    char *h = malloc(rbytes);
    for (size_t i = 0; i < count; i++)
        put_val(h, i, j->type, j->rank + 1);
    aclrtMemcpy(send, count * es, h, count * es, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtRecordEvent(a, s);
    double t0 = now_s();
    *rc = j->gather ? HcclAllGather(send, recv, count, j->type, comm, s)
                    : HcclAllReduce(send, recv, count, j->type, HCCL_REDUCE_SUM, comm, s);
    if (timed)
        j->wall = now_s() - t0;
    aclrtRecordEvent(b, s);
    aclrtSynchronizeStream(s);
    if (timed)
        aclrtEventElapsedTime(&j->ms, a, b);
    bool ok = false;
    if (*rc == 0) {
        aclrtMemcpy(h, rbytes, recv, rbytes, ACL_MEMCPY_DEVICE_TO_HOST);
        ok = true;
        int sum = j->n * (j->n + 1) / 2;
        for (size_t i = 0; ok && i < rbytes / es; i++)
            ok = is_val(h, i, j->type, j->gather ? (int)(i / count) + 1 : sum);
    } else if (!j->msg[0]) {
        snprintf(j->msg, sizeof j->msg, "%s", last_msg());
    }
    free(h);
    aclrtDestroyEvent(a);
    aclrtDestroyEvent(b);
    return ok;
}

/* A point-to-point exchange between ranks 0 and 1: each sends its rank + 1 and
 * must receive the other's. */
static bool run_p2p(struct job *j, void *send, void *recv, uint64_t count, HcclComm comm, aclrtStream s,
                    int *rc, bool timed)
{
    size_t es = esize(j->type), bytes = count * es;
    int other = j->rank == 0 ? 1 : 0;
    aclrtEvent a, b;
    aclrtCreateEvent(&a);
    aclrtCreateEvent(&b);
    char *h = malloc(bytes);
    memset(h, 0, bytes);
    aclrtMemcpy(recv, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE);   /* nothing stale can pass */
    for (size_t i = 0; i < count; i++)
        put_val(h, i, j->type, j->rank + 1);
    aclrtMemcpy(send, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtRecordEvent(a, s);
    double t0 = now_s();
    if (j->p2p == P2P_ONE_WAY && j->rank == 0) {
        /* the HCCL guide's order: rank 0 sends, then receives; rank 1 the other way round */
        *rc = HcclSend(send, count, j->type, 1, comm, s);
        if (*rc == 0)
            *rc = HcclRecv(recv, count, j->type, 1, comm, s);
    } else if (j->p2p == P2P_ONE_WAY) {
        *rc = HcclRecv(recv, count, j->type, 0, comm, s);
        if (*rc == 0)
            *rc = HcclSend(send, count, j->type, 0, comm, s);
    } else if (j->p2p == P2P_BOTH) {
        HcclSendRecvItem items[2] = { { HCCL_RECV, recv, count, j->type, (uint32_t)other },
                                      { HCCL_SEND, send, count, j->type, (uint32_t)other } };
        *rc = HcclBatchSendRecv(items, 2, comm, s);
    } else {
        *rc = HcclSend(send, count, j->type, (uint32_t)other, comm, s);
    }
    if (timed)
        j->wall = now_s() - t0;
    aclrtRecordEvent(b, s);
    aclrtSynchronizeStream(s);
    if (timed)
        aclrtEventElapsedTime(&j->ms, a, b);
    bool ok = false;
    if (*rc == 0) {
        aclrtMemcpy(h, bytes, recv, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        ok = true;
        for (size_t i = 0; ok && i < count; i++)
            ok = is_val(h, i, j->type, other + 1);
    } else if (!j->msg[0]) {
        snprintf(j->msg, sizeof j->msg, "%s", last_msg());
    }
    free(h);
    aclrtDestroyEvent(a);
    aclrtDestroyEvent(b);
    return ok;
}

static void *worker(void *arg)
{
    struct job *j = arg;
    aclrtSetDevice(j->dev);
    HcclComm comm = NULL;
    j->init_rc = HcclCommInitRootInfo((uint32_t)j->n, j->root, (uint32_t)j->rank, &comm);
    if (j->init_rc) {
        snprintf(j->msg, sizeof j->msg, "%s", last_msg());
        return NULL;
    }
    if (j->die_after > 0) {
        usleep((useconds_t)(j->die_after * 1e6));
        kill(getpid(), SIGKILL);
    }
    if (j->port_down_after_init)
        write_file(tmp_path("control-child"), "nic 0 down\n");
    uint64_t most = j->count > j->then_count ? j->count : j->then_count;
    size_t es = esize(j->type), bytes = most * es;
    void *send = NULL, *recv = NULL;
    aclrtStream s = NULL;
    aclrtMalloc(&send, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&recv, bytes * (j->gather ? (size_t)j->n : 1), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtCreateStream(&s);
    /* with a second round, that one is timed: the first has waited for the
     * other processes to start */
    bool (*round)(struct job *, void *, void *, uint64_t, HcclComm, aclrtStream, int *, bool) =
        j->p2p ? run_p2p : run_round;
    j->ok = round(j, send, recv, j->count, comm, s, &j->rc, !j->then_count);
    if (j->then_count) {
        if (j->p2p == P2P_BOTH_SEND)
            j->p2p = P2P_BOTH;   /* the comm failed: a proper call fails the same way */
        j->ok2 = round(j, send, recv, j->then_count, comm, s, &j->rc2, true);
    }
    aclrtDestroyStream(s);
    aclrtFree(send);
    aclrtFree(recv);
    if (HcclCommDestroy(comm) != 0)
        j->ok = j->ok2 = false;
    return NULL;
}

/* procs processes of `per` ranks each; the first child holds rank 0 when
 * root_in_child, else this process does.  Rank numbers go process by process
 * from rank 0's; thread t of a process uses device t. */
struct plan {
    int procs, per;
    bool root_in_child;
    int type;
    uint64_t count, then_count;
    bool gather;
    int p2p;
    void (*tweak)(struct job *j, int proc);      /* before it runs, in its process */
    void (*verify)(struct job *j, int proc);     /* after it ran; NULL: exact success */
    void (*child_setup)(int proc);
    bool child_dies;                             /* a child ends by SIGKILL, as planned */
};

static void verify_exact(struct job *j, int proc)
{
    if (j->init_rc || j->rc || !j->ok)
        fprintf(stderr, "  process %d rank %d: init %d rc %d ok %d: %s\n", proc, j->rank, j->init_rc, j->rc,
                j->ok, j->msg);
    CHECK(j->init_rc == 0 && j->rc == 0 && j->ok);
}

static void run_ranks_of(const struct plan *p, int proc, const HcclRootInfo *root, struct job *out)
{
    int root_proc = p->root_in_child ? 1 : 0;
    struct job jobs[8];
    pthread_t t[8];
    for (int i = 0; i < p->per; i++) {
        jobs[i] = (struct job){ .rank = ((proc - root_proc + p->procs) % p->procs) * p->per + i,
                                .n = p->procs * p->per, .dev = i, .root = root, .type = p->type,
                                .count = p->count, .then_count = p->then_count, .gather = p->gather,
                                .p2p = p->p2p };
        if (p->tweak)
            p->tweak(&jobs[i], proc);
    }
    for (int i = 0; i < p->per; i++)
        pthread_create(&t[i], NULL, worker, &jobs[i]);
    for (int i = 0; i < p->per; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < p->per; i++) {
        (p->verify ? p->verify : verify_exact)(&jobs[i], proc);
        if (out)
            out[i] = jobs[i];
    }
    aclrtSetDevice(0);
}

static bool read_all(int fd, void *buf, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t k = read(fd, (char *)buf + got, n - got);
        if (k <= 0)
            return false;
        got += (size_t)k;
    }
    return true;
}

/* Keeps the pipe ends process `me` uses (rank 0's process writes to every
 * other's pipe; the others read their own) and closes the rest, so that a
 * reader sees EOF when the writer dies instead of waiting forever. */
static void keep_ends(int (*pipes)[2], int procs, int me, bool root)
{
    for (int k = 0; k < procs; k++) {
        bool keep_r = !root && k == me, keep_w = root && k != me;
        if (!keep_r && pipes[k][0] >= 0) {
            close(pipes[k][0]);
            pipes[k][0] = -1;
        }
        if (!keep_w && pipes[k][1] >= 0) {
            close(pipes[k][1]);
            pipes[k][1] = -1;
        }
    }
}

/* The root info, from rank 0's process to the others. */
static bool pass_root(int (*pipes)[2], int procs, int me, bool root, HcclRootInfo *r)
{
    if (!root)
        return read_all(pipes[me][0], r, sizeof *r);
    if (HcclGetRootInfo(r) != 0)
        return false;
    for (int k = 0; k < procs; k++)
        if (k != me && write(pipes[k][1], r, sizeof *r) != (ssize_t)sizeof *r)
            return false;
    return true;
}

/* Runs the plan; this process's jobs land in mine (p->per of them). */
static void run_plan(const struct plan *p, struct job *mine)
{
    int pipes[8][2];
    pid_t pid[8] = { 0 };
    int root_proc = p->root_in_child ? 1 : 0;
    for (int i = 0; i < p->procs; i++)
        if (pipe(pipes[i]) != 0)
            return;
    fflush(NULL);
    for (int i = 1; i < p->procs; i++) {
        pid[i] = fork();
        if (pid[i] == 0) {
            check_failures = 0;
            keep_ends(pipes, p->procs, i, i == root_proc);
            if (p->child_setup)
                p->child_setup(i);
            HcclRootInfo root;
            if (!pass_root(pipes, p->procs, i, i == root_proc, &root))
                _exit(3);
            run_ranks_of(p, i, &root, NULL);
            fflush(NULL);
            _exit(check_failures ? 1 : 0);
        }
    }
    keep_ends(pipes, p->procs, 0, root_proc == 0);
    HcclRootInfo root;
    bool have = pass_root(pipes, p->procs, 0, root_proc == 0, &root);
    CHECK(have);
    keep_ends(pipes, p->procs, -1, false);   /* all of them now */
    if (have)
        run_ranks_of(p, 0, &root, mine);
    for (int i = 1; i < p->procs; i++) {
        int st = 0;
        waitpid(pid[i], &st, 0);
        bool killed = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
        if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0) && !(p->child_dies && killed)) {
            check_failures++;
            fprintf(stderr, "  FAIL process %d: %s %d\n", i, WIFEXITED(st) ? "exit" : "signal",
                    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        }
    }
}

/* A failing test must not wait out real HCCL's 120 s defaults. */
static void short_timeouts(const char *exec, const char *connect)
{
    setenv("HCCL_EXEC_TIMEOUT", exec, 1);
    setenv("HCCL_CONNECT_TIMEOUT", connect, 1);
}

static void default_timeouts(void)
{
    unsetenv("HCCL_EXEC_TIMEOUT");
    unsetenv("HCCL_CONNECT_TIMEOUT");
}

/* Two processes, one rank each: fp16 and fp32 sums, and a gather in rank order. */
void test_peer_two_procs(void)
{
    short_timeouts("10", "10");
    struct plan p = { .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_FP16, .count = 1000 };
    run_plan(&p, NULL);
    p.type = HCCL_DATA_TYPE_FP32;
    p.count = 4097;
    run_plan(&p, NULL);
    p.gather = true;
    p.count = 333;
    run_plan(&p, NULL);
    /* rank 0 may be the other process */
    p.gather = false;
    p.root_in_child = true;
    run_plan(&p, NULL);
    default_timeouts();
}

/* Two processes of two ranks (threads on devices 0 and 1): 1+2+3+4 = 10. */
void test_peer_four_ranks(void)
{
    short_timeouts("10", "10");
    struct plan p = { .procs = 2, .per = 2, .type = HCCL_DATA_TYPE_FP32, .count = 10000 };
    run_plan(&p, NULL);
    p.type = HCCL_DATA_TYPE_FP16;
    p.gather = true;
    run_plan(&p, NULL);
    default_timeouts();
}

/* 64 MiB a rank; the event pair reads at least the host link's model
 * (latency + 64 MiB at 25 GB/s, the A3 profile's assumed RoCE port). */
void test_peer_large_and_model(void)
{
    short_timeouts("20", "10");
    struct job mine[1];
    struct plan p = { .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_FP32, .count = 64 * MiB / 4 };
    run_plan(&p, mine);
    double model = (10e-6 + 64.0 * MiB / 25e9) * 0.99;
    fprintf(stderr, "  peer allreduce 2 procs x 64MiB: events %.2f ms, call %.2f ms (model >= %.2f ms)\n",
            mine[0].ms, mine[0].wall * 1e3, model * 1e3);
    CHECK(mine[0].ms * 1e-3 >= model);
    CHECK(mine[0].ms * 1e-3 >= mine[0].wall * 0.99);

    /* A slow host link: the model, not the fast local socket, is what events show. */
    CHECK_RC(use_profile("device 0 memory 1GiB\ndevice 1 memory 1GiB\n"
                         "peer_link bandwidth 0.002GB/s latency 1ms\n"), 0);
    p.count = p.then_count = 64 * 1024;
    run_plan(&p, mine);
    double slow = 1e-3 + 256.0 * 1024 / 2e6;   /* 2(n-1)/n = 1 for two ranks */
    fprintf(stderr, "  peer allreduce 256KiB over a 2 MB/s model link: events %.1f ms (model %.1f), call %.2f ms\n",
            mine[0].ms, slow * 1e3, mine[0].wall * 1e3);
    CHECK_NEAR(mine[0].ms * 1e-3, slow, 0.05);
    CHECK(mine[0].ok2);
    /* pass-through: the wall time only */
    setenv("LINKWATCH_SIM_TIMING", "passthrough", 1);
    CHECK_RC(use_profile("device 0 memory 1GiB\ndevice 1 memory 1GiB\n"
                         "peer_link bandwidth 0.002GB/s latency 1ms\n"), 0);
    run_plan(&p, mine);
    unsetenv("LINKWATCH_SIM_TIMING");
    fprintf(stderr, "  the same in pass-through: events %.2f ms, call %.2f ms\n", mine[0].ms, mine[0].wall * 1e3);
    CHECK(mine[0].ms * 1e-3 < slow / 2 && mine[0].ms * 1e-3 >= mine[0].wall * 0.9);
    CHECK_RC(use_profile(NULL), 0);
    default_timeouts();
}

static void die_soon(struct job *j, int proc)
{
    if (proc == 1)
        j->die_after = 0.2;
}

static void verify_lost(struct job *j, int proc)
{
    if (proc != 0)
        return;
    int lost = j->rank == 0 ? 1 : 0;
    char want[64];
    snprintf(want, sizeof want, "rank %d lost its connection to rank %d (", j->rank, lost);
    CHECK_RC(j->init_rc, 0);
    CHECK_RC(j->rc, HCCL_E_TCP_TRANSFER);
    CHECK(strstr(j->msg, "HcclAllReduce: ") == j->msg && strstr(j->msg, want));
    CHECK(j->wall < 1.5);
    fprintf(stderr, "  survivor: %s\n", j->msg);
}

/* The other process is SIGKILLed while this one is inside HcclAllReduce. */
void test_peer_lost(void)
{
    short_timeouts("2", "10");
    struct plan p = { .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_FP32, .count = 1024, .tweak = die_soon,
                      .verify = verify_lost, .child_dies = true };
    run_plan(&p, NULL);          /* rank 0 survives rank 1 */
    p.root_in_child = true;
    run_plan(&p, NULL);          /* rank 1 survives rank 0 */

    /* After a failure later calls fail at once with the same code, and destroy is clean. */
    HcclComm comm;
    int fds[2];
    CHECK(pipe(fds) == 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        HcclRootInfo r;
        HcclComm c;
        if (!read_all(fds[0], &r, sizeof r))
            _exit(3);
        aclrtSetDevice(1);
        _exit(HcclCommInitRootInfo(2, &r, 1, &c) == 0 ? 0 : 1);   /* and gone */
    }
    HcclRootInfo r;
    CHECK_RC(HcclGetRootInfo(&r), 0);
    CHECK(write(fds[1], &r, sizeof r) == (ssize_t)sizeof r);
    CHECK_RC(HcclCommInitRootInfo(2, &r, 0, &comm), 0);
    int st;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    void *d;
    CHECK_RC(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    CHECK_RC(HcclAllReduce(d, d, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, NULL), HCCL_E_TCP_TRANSFER);
    CHECK_MSG("rank 0 lost its connection to rank 1");
    CHECK_RC(HcclAllReduce(d, d, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, NULL), HCCL_E_TCP_TRANSFER);
    CHECK_MSG("failed in an earlier call");
    CHECK_RC(HcclCommDestroy(comm), 0);
    aclrtFree(d);
    close(fds[0]);
    close(fds[1]);
    default_timeouts();
}

struct lone {
    const HcclRootInfo *root;
    int n, rank, dev;
    bool collective;            /* call HcclAllReduce after joining */
    double delay, linger;       /* seconds before joining; after, before destroying */
    int rc, rc2;
    double took;
    char msg[512];
};

static void *lone_rank(void *arg)
{
    struct lone *l = arg;
    aclrtSetDevice(l->dev);
    usleep((useconds_t)(l->delay * 1e6));
    HcclComm c = NULL;
    double t0 = now_s();
    l->rc = HcclCommInitRootInfo((uint32_t)l->n, l->root, (uint32_t)l->rank, &c);
    l->took = now_s() - t0;
    snprintf(l->msg, sizeof l->msg, "%s", l->rc ? last_msg() : "");
    if (l->rc == 0 && l->collective) {
        void *d;
        aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST);
        t0 = now_s();
        l->rc2 = HcclAllReduce(d, d, 16, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, c, NULL);
        l->took = now_s() - t0;
        snprintf(l->msg, sizeof l->msg, "%s", l->rc2 ? last_msg() : "");
        aclrtFree(d);
    }
    usleep((useconds_t)(l->linger * 1e6));
    if (c)
        HcclCommDestroy(c);
    return NULL;
}

static void run_lone(struct lone *l, int n)
{
    pthread_t t[8];
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, lone_rank, &l[i]);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
}

#define LONE(root_, n_, rank_, dev_, ...) ((struct lone){ .root = (root_), .n = (n_), .rank = (rank_), \
                                                          .dev = (dev_), __VA_ARGS__ })

/* Ranks that never come: rank 0's init times out naming how many; a rank
 * with nobody listening cannot connect; rank 0 refuses a duplicate rank and a
 * wrong nRanks; a collective whose peer never calls times out. */
void test_peer_timeouts(void)
{
    HcclRootInfo r;
    short_timeouts("0.3", "0.3");
    CHECK_RC(HcclGetRootInfo(&r), 0);
    struct lone l[5];
    l[0] = LONE(&r, 2, 0, 0, .linger = 0);
    run_lone(l, 1);
    CHECK_RC(l[0].rc, HCCL_E_TIMEOUT);
    CHECK(strstr(l[0].msg, "HcclCommInitRootInfo: rank 0 at ") &&
          strstr(l[0].msg, "timed out after 0.3 s waiting for 1 of 2 ranks to connect: 1"));
    CHECK(l[0].took >= 0.3 && l[0].took < 1.5);
    /* its listener is closed now: a rank finds nobody there */
    l[0] = LONE(&r, 2, 1, 0, .linger = 0);
    run_lone(l, 1);
    CHECK_RC(l[0].rc, HCCL_E_TCP_CONNECT);
    CHECK(strstr(l[0].msg, "HcclCommInitRootInfo: rank 1 could not connect to rank 0 at ") &&
          strstr(l[0].msg, "within 0.3 s: Connection refused"));
    CHECK(l[0].took >= 0.3 && l[0].took < 1.5);
    /* and that root info cannot serve rank 0 again */
    l[0] = LONE(&r, 2, 0, 0, .linger = 0);
    run_lone(l, 1);
    CHECK_RC(l[0].rc, HCCL_E_PARA);
    CHECK(strstr(l[0].msg, "already used"));

    /* 4 ranks: rank 3 told nRanks 5, and a second rank 1 */
    setenv("HCCL_CONNECT_TIMEOUT", "0.4", 1);
    CHECK_RC(HcclGetRootInfo(&r), 0);
    l[0] = LONE(&r, 4, 0, 0, .linger = 0);
    l[1] = LONE(&r, 4, 1, 1, .linger = 0);
    l[2] = LONE(&r, 4, 2, 0, .linger = 0);
    l[3] = LONE(&r, 5, 3, 1, .linger = 0);
    l[4] = LONE(&r, 4, 1, 0, .delay = 0.1);
    run_lone(l, 5);
    CHECK_RC(l[0].rc, HCCL_E_TIMEOUT);
    CHECK(strstr(l[0].msg, "waiting for 1 of 4 ranks to connect: 3"));
    CHECK_RC(l[3].rc, HCCL_E_PARA);
    CHECK(strstr(l[3].msg, "rank 3 was refused by rank 0 at ") &&
          strstr(l[3].msg, "rank 3 was given nRanks 5 but rank 0 was given 4"));
    CHECK_RC(l[4].rc, HCCL_E_PARA);
    CHECK(strstr(l[4].msg, "rank 1 has already joined"));
    for (int i = 1; i <= 2; i++) {
        CHECK_RC(l[i].rc, HCCL_E_TIMEOUT);   /* rank 0 told them why it gave up */
        CHECK(strstr(l[i].msg, "was refused by rank 0 at ") && strstr(l[i].msg, "ranks to connect: 3"));
    }

    /* a collective whose other rank never calls: rank 0 names it; a rank
     * waiting on rank 0 says rank 0 did not answer */
    setenv("HCCL_CONNECT_TIMEOUT", "5", 1);
    CHECK_RC(HcclGetRootInfo(&r), 0);
    l[0] = LONE(&r, 2, 0, 0, .collective = true);
    l[1] = LONE(&r, 2, 1, 1, .linger = 0.5);
    run_lone(l, 2);
    CHECK_RC(l[0].rc, 0);
    CHECK_RC(l[0].rc2, HCCL_E_TIMEOUT);
    CHECK(strstr(l[0].msg, "HcclAllReduce: rank 0 timed out after 0.3 s waiting for 1 of 2 ranks to call "
                           "HcclAllReduce: 1"));
    CHECK(l[0].took >= 0.3 && l[0].took < 1.2);
    CHECK_RC(HcclGetRootInfo(&r), 0);
    l[0] = LONE(&r, 2, 0, 0, .linger = 0.6);
    l[1] = LONE(&r, 2, 1, 1, .collective = true);
    run_lone(l, 2);
    CHECK_RC(l[1].rc2, HCCL_E_TIMEOUT);
    CHECK(strstr(l[1].msg, "HcclAllReduce: rank 1 timed out after 0.3 s waiting for rank 0 ("));
    CHECK(l[1].took >= 0.3 && l[1].took < 1.2);
    default_timeouts();
}

/* The corrupt rule of one process's control file spoils only that process's results. */
/* This process's own control file (a child's: another "host"), holding text. */
static void child_control(const char *text)
{
    setenv("LINKWATCH_SIM_CONTROL", tmp_path("control-child"), 1);
    write_file(tmp_path("control-child"), text);
}

static void child_corrupt(int proc)
{
    (void)proc;
    child_control("corrupt HcclAllReduce\n");
}

static void child_clean(int proc)
{
    (void)proc;
    child_control("\n");
}

static void verify_corrupt(struct job *j, int proc)
{
    CHECK(j->init_rc == 0 && j->rc == 0);
    CHECK(j->ok == (proc == 0));            /* the child's rule */
}

static void verify_corrupt_here(struct job *j, int proc)
{
    CHECK(j->init_rc == 0 && j->rc == 0);
    CHECK(j->ok == (proc != 0));            /* this process's rule */
}

void test_peer_corrupt(void)
{
    short_timeouts("10", "10");
    struct plan p = { .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_INT32, .count = 100000,
                      .verify = verify_corrupt, .child_setup = child_corrupt };
    run_plan(&p, NULL);
    /* and the other way round: rank 0's host has the rule */
    set_control("corrupt HcclAllReduce\n");
    p.child_setup = child_clean;
    p.verify = verify_corrupt_here;
    p.root_in_child = true;
    run_plan(&p, NULL);
    set_control(NULL);
    default_timeouts();
}

static void count_differs(struct job *j, int proc)
{
    (void)proc;
    if (j->rank == 1)
        j->count = 64;
}

static void verify_mismatch(struct job *j, int proc)
{
    (void)proc;
    CHECK_RC(j->init_rc, 0);
    CHECK_RC(j->rc, HCCL_E_PARA);
    CHECK(strstr(j->msg, "HcclAllReduce: ") == j->msg &&
          strstr(j->msg, "rank 1 called HcclAllReduce with count 64 type 4 op 0 but rank 0 called "
                         "HcclAllReduce with count 32 type 4 op 0"));
    CHECK(j->rc2 == 0 && j->ok2);        /* the comm is still good */
}

/* ---- point to point ---- */

/* Both orders of HcclSend / HcclRecv, and HcclBatchSendRecv both ways at once,
 * whichever process holds rank 0; the data is checked on arrival. */
void test_peer_p2p(void)
{
    short_timeouts("10", "10");
    struct plan p = { .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_FP16, .count = 1000, .p2p = P2P_ONE_WAY };
    run_plan(&p, NULL);
    p.p2p = P2P_BOTH;
    p.type = HCCL_DATA_TYPE_FP32;
    p.count = 3 * MiB;   /* 12 MiB each way: more than the sockets hold, so both directions must flow */
    run_plan(&p, NULL);
    p.root_in_child = true;
    p.p2p = P2P_ONE_WAY;
    run_plan(&p, NULL);
    default_timeouts();
}

/* Both ways at once take what one way takes in the model, not twice; a slow
 * model link shows in the events. */
void test_peer_p2p_model(void)
{
    short_timeouts("20", "10");
    struct job mine[1];
    CHECK_RC(use_profile("device 0 memory 1GiB\ndevice 1 memory 1GiB\n"
                         "peer_link bandwidth 0.002GB/s latency 1ms\n"), 0);
    struct plan p = { .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_FP16, .count = 64 * 1024,
                      .then_count = 64 * 1024, .p2p = P2P_BOTH };
    run_plan(&p, mine);
    double slow = 1e-3 + 128.0 * 1024 / 2e6;
    fprintf(stderr, "  peer batch send/recv 128KiB each way over a 2 MB/s model link: events %.1f ms (model %.1f)\n",
            mine[0].ms, slow * 1e3);
    CHECK_NEAR(mine[0].ms * 1e-3, slow, 0.05);
    CHECK(mine[0].ok2);
    CHECK_RC(use_profile(NULL), 0);
    default_timeouts();
}

static void verify_p2p_mismatch(struct job *j, int proc)
{
    (void)proc;
    CHECK_RC(j->init_rc, 0);
    CHECK_RC(j->rc, HCCL_E_PARA);
    /* the sender learns it from the receiver's answer */
    CHECK(strstr(j->msg, j->rank == 0 ? "HcclSend: " : "HcclRecv: ") == j->msg &&
          strstr(j->msg, "rank 0 sent count 32 type 2 but rank 1 receives count 64 type 2"));
    CHECK(j->rc2 == 0 && j->ok2);        /* the comm is still good */
}

static void verify_both_send(struct job *j, int proc)
{
    (void)proc;
    CHECK_RC(j->init_rc, 0);
    CHECK_RC(j->rc, HCCL_E_TCP_TRANSFER);
    if (!strstr(j->msg, "both called HcclSend: pair each HcclSend with a HcclRecv"))
        fprintf(stderr, "  rank %d: %s\n", j->rank, j->msg);
    CHECK(strstr(j->msg, "both called HcclSend: pair each HcclSend with a HcclRecv") != NULL);
    CHECK_RC(j->rc2, HCCL_E_TCP_TRANSFER);   /* out of step from there */
}

static void child_corrupt_recv(int proc)
{
    (void)proc;
    child_control("corrupt HcclRecv\n");
}

static void verify_p2p_corrupt(struct job *j, int proc)
{
    CHECK(j->init_rc == 0 && j->rc == 0);
    CHECK(j->ok == (proc == 0));   /* only what the child received */
}

void test_peer_p2p_errors(void)
{
    short_timeouts("3", "10");
    struct plan p = { .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_INT32, .count = 32, .then_count = 32,
                      .p2p = P2P_ONE_WAY, .tweak = count_differs, .verify = verify_p2p_mismatch };
    run_plan(&p, NULL);
    p = (struct plan){ .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_INT32, .count = 1000, .then_count = 1000,
                       .p2p = P2P_BOTH_SEND, .verify = verify_both_send };
    run_plan(&p, NULL);
    /* a corrupt rule on HcclRecv covers the batch's receive too */
    p = (struct plan){ .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_INT32, .count = 100000, .p2p = P2P_BOTH,
                       .verify = verify_p2p_corrupt, .child_setup = child_corrupt_recv };
    run_plan(&p, NULL);

    /* argument checks; an InitAll comm carries no point-to-point calls in the sim */
    int32_t devs[2] = { 0, 1 };
    HcclComm c[2];
    void *buf = NULL;
    aclrtSetDevice(0);
    CHECK_RC(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    CHECK_RC(HcclCommInitAll(2, devs, c), 0);
    CHECK_RC(HcclSend(buf, 16, HCCL_DATA_TYPE_INT32, 1, c[0], NULL), HCCL_E_NOT_SUPPORT);
    CHECK_MSG("HcclSend: the simulator carries point-to-point calls only on a communicator of "
              "HcclCommInitRootInfo or ncclCommInitRank");
    CHECK_RC(HcclSend(buf, 16, HCCL_DATA_TYPE_INT32, 0, c[0], NULL), HCCL_E_PARA);
    CHECK_MSG("HcclSend: rank 0 cannot send to rank 0 of a comm of 2 ranks");
    CHECK_RC(HcclRecv(buf, 2048, HCCL_DATA_TYPE_INT32, 1, c[0], NULL), HCCL_E_PTR);
    CHECK_MSG("HcclRecv: the receive buffer");
    CHECK_RC(HcclRecv(NULL, 16, HCCL_DATA_TYPE_INT32, 1, c[0], NULL), HCCL_E_PTR);
    HcclSendRecvItem twice[2] = { { HCCL_SEND, buf, 16, HCCL_DATA_TYPE_INT32, 1 },
                                  { HCCL_SEND, buf, 16, HCCL_DATA_TYPE_INT32, 1 } };
    CHECK_RC(HcclBatchSendRecv(twice, 2, c[0], NULL), HCCL_E_PARA);
    CHECK_MSG("HcclBatchSendRecv: two sends to rank 1 in one call");
    twice[1].sendRecvType = HCCL_SEND_RECV_RESERVED;
    CHECK_RC(HcclBatchSendRecv(twice, 2, c[0], NULL), HCCL_E_PARA);
    CHECK_RC(HcclBatchSendRecv(NULL, 2, c[0], NULL), HCCL_E_PTR);
    CHECK_RC(HcclCommDestroy(c[0]), 0);
    CHECK_RC(HcclCommDestroy(c[1]), 0);
    CHECK_RC(aclrtFree(buf), 0);
    default_timeouts();
}

/* ---- the NPU ports of the control file (`nic DEVICE speed|down`) ---- */

static void child_slow_port(int proc)
{
    (void)proc;
    child_control("nic 0 speed 100\n");
}

static void child_port_down(int proc)
{
    (void)proc;
    child_control("nic 0 down\n");
}

static void verify_port_down(struct job *j, int proc)
{
    if (proc == 0) {
        CHECK_RC(j->init_rc, HCCL_E_TIMEOUT);   /* rank 1 never came */
    } else {
        CHECK_RC(j->init_rc, HCCL_E_TCP_CONNECT);
        CHECK(strstr(j->msg, "rank 1's RoCE port (device 0) is down") != NULL);
    }
}

static void down_after_init(struct job *j, int proc)
{
    j->port_down_after_init = proc == 1;
}

static void verify_port_down_mid(struct job *j, int proc)
{
    CHECK_RC(j->init_rc, 0);
    CHECK_RC(j->rc, HCCL_E_TCP_TRANSFER);
    const char *want = proc == 1 ? "rank 1's RoCE port (device 0) is down" : "lost its connection to rank 1";
    if (!strstr(j->msg, want))
        fprintf(stderr, "  process %d: %s\n", proc, j->msg);
    CHECK(strstr(j->msg, want) != NULL);
    CHECK_RC(j->rc2, HCCL_E_TCP_TRANSFER);
}

/* A port the control file slows bounds both sides' figures (the slower port of
 * the pair, learned from the other side's messages); one it takes down fails
 * its rank's calls and its peers lose it; the port's counters count the bytes. */
void test_peer_ports(void)
{
    short_timeouts("5", "2");
    CHECK_RC(use_profile("device 0 memory 1GiB\ndevice 1 memory 1GiB\n"
                         "peer_link bandwidth 25GB/s latency 10us\n"), 0);
    CHECK_RC(dcmi_init(), 0);
    struct dcmi_network_pkt_stats_info a, b;
    CHECK_RC(dcmi_get_netdev_pkt_stats_info(0, 0, 0, &a), 0);
    struct job mine[1];
    struct plan p = { .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_FP16, .count = 64 * 1024,
                      .then_count = 64 * 1024, .p2p = P2P_BOTH, .child_setup = child_slow_port };
    run_plan(&p, mine);
    double slow = 10e-6 + 128.0 * 1024 / 12.5e6;   /* 100 Mb/s */
    fprintf(stderr, "  batch send/recv 128KiB each way, the peer's port at 100 Mb/s: events %.2f ms (model %.2f)\n",
            mine[0].ms, slow * 1e3);
    CHECK_NEAR(mine[0].ms * 1e-3, slow, 0.05);
    CHECK(mine[0].ok2);
    CHECK_RC(dcmi_get_netdev_pkt_stats_info(0, 0, 0, &b), 0);
    double tx = (double)(b.nic_tx_all_oct_num - a.nic_tx_all_oct_num);
    double rx = (double)(b.nic_rx_all_oct_num - a.nic_rx_all_oct_num);
    fprintf(stderr, "  device 0's port counted %.0f bytes out, %.0f in (2 x 128 KiB each way)\n", tx, rx);
    CHECK_NEAR(tx, 2.0 * 128 * 1024, 0.001);
    CHECK_NEAR(rx, 2.0 * 128 * 1024, 0.001);
    p.p2p = P2P_NONE;   /* an allreduce over the same ports */
    run_plan(&p, mine);
    CHECK_NEAR(mine[0].ms * 1e-3, slow, 0.05);

    p = (struct plan){ .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_INT32, .count = 100,
                       .child_setup = child_port_down, .verify = verify_port_down };
    run_plan(&p, NULL);
    p = (struct plan){ .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_INT32, .count = 100, .then_count = 100,
                       .p2p = P2P_BOTH, .child_setup = child_clean, .tweak = down_after_init,
                       .verify = verify_port_down_mid };
    run_plan(&p, NULL);
    CHECK_RC(use_profile(NULL), 0);
    default_timeouts();
}

struct no_device {
    HcclRootInfo root;
    int rc;
    bool said;
};

static void *no_device_init(void *arg)
{
    struct no_device *nd = arg;
    HcclComm c;
    nd->rc = HcclCommInitRootInfo(2, &nd->root, 1, &c);
    nd->said = strstr(last_msg(), "HcclCommInitRootInfo: no current device") != NULL;
    return NULL;
}

/* Bad root infos and arguments, addresses, and ranks that disagree. */
void test_peer_errors(void)
{
    short_timeouts("10", "10");
    HcclRootInfo r, bad;
    HcclComm c;
    memset(&bad, 0x5a, sizeof bad);
    CHECK_RC(HcclCommInitRootInfo(2, &bad, 1, &c), HCCL_E_PARA);
    CHECK_MSG("HcclCommInitRootInfo: rootInfo is not from HcclGetRootInfo");
    CHECK_RC(HcclGetRootInfo(NULL), HCCL_E_PTR);
    CHECK_RC(HcclGetRootInfo(&r), 0);
    CHECK_RC(HcclCommInitRootInfo(2, NULL, 1, &c), HCCL_E_PTR);
    CHECK_RC(HcclCommInitRootInfo(2, &r, 2, &c), HCCL_E_PARA);
    CHECK_RC(HcclCommInitRootInfo(0, &r, 0, &c), HCCL_E_PARA);
    /* rank 0 belongs to the process that made the root info */
    HcclRootInfo other = r;
    other.internal[16] ^= 1;
    CHECK_RC(HcclCommInitRootInfo(2, &other, 0, &c), HCCL_E_PARA);
    CHECK_MSG("rank 0 must call HcclCommInitRootInfo from the process that called HcclGetRootInfo");
    /* a forked child holds no listener of its parent's, so it cannot be rank 0 */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(HcclCommInitRootInfo(2, &r, 0, &c) == HCCL_E_PARA &&
              strstr(last_msg(), "rank 0 must call HcclCommInitRootInfo from the process that called") ? 0 : 1);
    int st = -1;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    /* no current device on the calling thread */
    struct no_device nd = { .root = r, .rc = -1 };
    pthread_t t;
    pthread_create(&t, NULL, no_device_init, &nd);
    pthread_join(t, NULL);
    CHECK(nd.rc == HCCL_E_PARA && nd.said);
    /* a one-rank comm is its own result, and uses up the root info */
    void *d;
    int32_t v = 7;
    CHECK_RC(HcclCommInitRootInfo(1, &r, 0, &c), 0);
    CHECK_RC(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    CHECK_RC(aclrtMemcpy(d, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    CHECK_RC(HcclAllReduce(d, d, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, c, NULL), 0);
    CHECK_RC(HcclAllReduce(d, d, 1, HCCL_DATA_TYPE_INT32, 9, c, NULL), HCCL_E_PARA);   /* checked as before */
    CHECK_RC(aclrtMemcpy(&v, 4, d, 4, ACL_MEMCPY_DEVICE_TO_HOST), 0);
    CHECK(v == 7);
    CHECK_RC(HcclCommDestroy(c), 0);
    CHECK_RC(HcclCommDestroy(c), HCCL_E_PARA);
    CHECK_RC(HcclCommInitRootInfo(1, &r, 0, &c), HCCL_E_PARA);
    CHECK_MSG("already used");
    aclrtFree(d);
    /* addresses: HCCL_IF_IP must be one of this host's */
    setenv("HCCL_IF_IP", "198.51.100.77", 1);
    CHECK_RC(HcclGetRootInfo(&r), HCCL_E_PARA);
    CHECK_MSG("HcclGetRootInfo: HCCL_IF_IP 198.51.100.77 is not an address of this host");
    setenv("HCCL_IF_IP", "not-an-ip", 1);
    CHECK_RC(HcclGetRootInfo(&r), HCCL_E_PARA);
    CHECK_MSG("HCCL_IF_IP 'not-an-ip' is not an IPv4 address");
    setenv("HCCL_IF_IP", "127.0.0.1", 1);
    CHECK_RC(HcclGetRootInfo(&r), 0);
    unsetenv("HCCL_IF_IP");
    CHECK(memcmp(r.internal, "LWRI", 4) == 0 && (unsigned char)r.internal[8] == 127 && r.internal[11] == 1);
    CHECK_RC(HcclCommInitRootInfo(1, &r, 0, &c), 0);
    CHECK_RC(HcclCommDestroy(c), 0);
    /* without HCCL_IF_IP: the first UP non-loopback IPv4 address by interface name, else 127.0.0.1 */
    CHECK_RC(HcclGetRootInfo(&r), 0);
    char ip[32];
    inet_ntop(AF_INET, r.internal + 8, ip, sizeof ip);
    fprintf(stderr, "  root info address %s:%u\n", ip,
            (unsigned)((unsigned char)r.internal[12] << 8 | (unsigned char)r.internal[13]));
    CHECK_RC(HcclCommInitRootInfo(1, &r, 0, &c), 0);
    CHECK_RC(HcclCommDestroy(c), 0);
    /* the faults of the control file reach the new calls too */
    set_control("fail HcclGetRootInfo 7\n");
    CHECK_RC(HcclGetRootInfo(&r), 7);
    set_control(NULL);

    /* ranks that disagree on the count: both fail, naming the rank and both
     * values, and the comm carries on */
    struct plan p = { .procs = 2, .per = 1, .type = HCCL_DATA_TYPE_FP32, .count = 32, .then_count = 16,
                      .tweak = count_differs, .verify = verify_mismatch };
    run_plan(&p, NULL);
    /* the profile's host link line is checked like the others */
    CHECK_RC(use_profile("device 0 memory 1GiB\npeer_link bandwidth fast latency 1us\n"), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG(":2: bad bandwidth");
    CHECK_RC(use_profile("device 0 memory 1GiB\npeer_link latency 1us\n"), ACL_ERROR_INVALID_PARAM);
    CHECK_MSG("expected 'peer_link bandwidth BW latency T'");
    CHECK_RC(use_profile(NULL), 0);
    default_timeouts();
}

/* Every descriptor a comm opened is closed by destroy; the live counter too. */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

void test_peer_no_leaks(void)
{
    short_timeouts("10", "10");
    int64_t before[6], after[6];
    linkwatch_sim_live_counts(before);
    int fds = open_fds();
    struct plan p = { .procs = 2, .per = 2, .type = HCCL_DATA_TYPE_INT32, .count = 1000 };
    run_plan(&p, NULL);
    p.child_dies = true;
    p.tweak = die_soon;
    p.verify = verify_lost;
    p.per = 1;
    run_plan(&p, NULL);          /* after a failure too */
    linkwatch_sim_live_counts(after);
    CHECK(open_fds() == fds);
    CHECK(after[5] == before[5] && after[0] == before[0] && after[3] == before[3]);
    default_timeouts();
}

/* ---- the NCCL face, in processes of its own (the runner never calls cuInit) ---- */

static int nccl_rank(int rank, int fd_in, int fd_out, bool die)
{
    CUcontext ctx;
    if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) || cuCtxSetCurrent(ctx))
        return 10;
    ncclUniqueId id;
    if (rank == 0) {
        if (ncclGetUniqueId(&id) != ncclSuccess || write(fd_out, &id, sizeof id) != (ssize_t)sizeof id)
            return 11;
    } else if (!read_all(fd_in, &id, sizeof id)) {
        return 12;
    }
    ncclComm_t comm;
    if (ncclCommInitRank(&comm, 2, id, rank) != ncclSuccess)
        return 13;
    enum { N = 5000 };
    CUdeviceptr send, recv;
    float h[2 * N];
    if (cuMemAlloc_v2(&send, N * 4) || cuMemAlloc_v2(&recv, 2 * N * 4))
        return 14;
    for (int i = 0; i < N; i++)
        h[i] = (float)(rank + 1);
    cuMemcpyHtoD_v2(send, h, N * 4);
    if (ncclAllReduce((void *)(uintptr_t)send, (void *)(uintptr_t)recv, N, ncclFloat32, ncclSum, comm, NULL))
        return 15;
    cuMemcpyDtoH_v2(h, recv, N * 4);
    for (int i = 0; i < N; i++)
        if (h[i] != 3.0f)
            return 16;
    if (ncclAllGather((void *)(uintptr_t)send, (void *)(uintptr_t)recv, N, ncclFloat32, comm, NULL))
        return 17;
    cuMemcpyDtoH_v2(h, recv, 2 * N * 4);
    for (int i = 0; i < 2 * N; i++)
        if (h[i] != (float)(i / N + 1))
            return 18;
    /* both ways at once in a group, then one way on its own */
    for (int i = 0; i < N; i++)
        h[i] = (float)(rank + 1);
    cuMemcpyHtoD_v2(send, h, N * 4);
    if (ncclGroupStart() || ncclSend((void *)(uintptr_t)send, N, ncclFloat32, 1 - rank, comm, NULL) ||
        ncclRecv((void *)(uintptr_t)recv, N, ncclFloat32, 1 - rank, comm, NULL) || ncclGroupEnd())
        return 21;
    cuMemcpyDtoH_v2(h, recv, N * 4);
    for (int i = 0; i < N; i++)
        if (h[i] != (float)(2 - rank))
            return 22;
    ncclResult_t one = rank == 0 ? ncclSend((void *)(uintptr_t)send, N, ncclFloat32, 1, comm, NULL)
                                 : ncclRecv((void *)(uintptr_t)recv, N, ncclFloat32, 0, comm, NULL);
    if (one != ncclSuccess || ncclGroupEnd() != ncclInvalidUsage)
        return 23;
    if (die) {
        usleep(100 * 1000);
        kill(getpid(), SIGKILL);
    }
    int rc = 0;
    if (rank == 0 && ncclAllReduce((void *)(uintptr_t)send, (void *)(uintptr_t)recv, N, ncclFloat32, ncclSum,
                                   comm, NULL) != ncclRemoteError)
        rc = 19;   /* rank 1 is gone */
    cuMemFree_v2(send);
    cuMemFree_v2(recv);
    if (ncclCommDestroy(comm) != ncclSuccess)
        return 20;
    return rc;
}

void test_peer_nccl(void)
{
    fflush(NULL);
    pid_t outer = fork();
    if (outer == 0) {
        setenv("HCCL_EXEC_TIMEOUT", "10", 1);
        /* argument checks first, in a process of its own */
        ncclUniqueId id, bad;
        ncclComm_t c;
        memset(&bad, 0x5a, sizeof bad);
        if (ncclCommInitRank(&c, 2, bad, 1) != ncclInvalidArgument)   /* no context current */
            _exit(30);
        CUcontext ctx;
        if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) || cuCtxSetCurrent(ctx))
            _exit(31);
        if (ncclCommInitRank(&c, 2, bad, 1) != ncclInvalidArgument || ncclCommInitRank(&c, 2, bad, 2) !=
            ncclInvalidArgument || ncclGetUniqueId(NULL) != ncclInvalidArgument)
            _exit(32);
        setenv("NCCL_SOCKET_IFNAME", "=lo", 1);
        if (ncclGetUniqueId(&id) != ncclSuccess || (unsigned char)id.internal[8] != 127)
            _exit(33);
        setenv("NCCL_SOCKET_IFNAME", "nosuchif", 1);
        if (ncclGetUniqueId(&id) != ncclInvalidUsage)
            _exit(34);
        unsetenv("NCCL_SOCKET_IFNAME");
        /* an HCCL root info is not an NCCL id */
        HcclRootInfo hr;
        if (HcclGetRootInfo(&hr) != 0)
            _exit(35);
        memcpy(id.internal, hr.internal, sizeof id.internal);
        if (ncclCommInitRank(&c, 2, id, 1) != ncclInvalidArgument)
            _exit(36);
        _exit(0);
    }
    int st = 0;
    waitpid(outer, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        check_failures++;
        fprintf(stderr, "  FAIL nccl argument checks: %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    /* two processes, one rank each; then rank 1's process dies */
    int fds[2];
    if (pipe(fds) != 0)
        return;
    pid_t p[2];
    for (int r = 0; r < 2; r++) {
        p[r] = fork();
        if (p[r] == 0) {
            setenv("HCCL_EXEC_TIMEOUT", "10", 1);
            close(fds[r == 0 ? 0 : 1]);   /* rank 1 sees EOF if rank 0 dies first */
            _exit(nccl_rank(r, fds[0], fds[1], r == 1));
        }
    }
    close(fds[0]);
    close(fds[1]);
    for (int r = 0; r < 2; r++) {
        waitpid(p[r], &st, 0);
        bool good = r == 0 ? WIFEXITED(st) && WEXITSTATUS(st) == 0 : WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
        if (!good) {
            check_failures++;
            fprintf(stderr, "  FAIL nccl rank %d: %s %d\n", r, WIFEXITED(st) ? "exit" : "signal",
                    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        }
    }
}
