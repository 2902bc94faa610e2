/*
 * internal.h - state shared between the simulator's source files.
 * Nothing here is exported; the library is built with -fvisibility=hidden so
 * only the LW_EXPORT symbols of linkwatch_sim.h leave the .so.
 */
#ifndef LW_INTERNAL_H
#define LW_INTERNAL_H

#include "linkwatch_sim.h"
#include "linkwatch_sim_cuda.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#define LW_MAX_DEVICES 64
#define LW_MAX_PAGEABLE 64

/* ---- faces ---- */
/* The library speaks two device APIs over one core: AscendCL/HCCL/DCMI and the
 * CUDA driver API/NVML/NCCL.  Each face keeps its own runtime state (profile,
 * devices, current device, peer access), so a process that loads both - a test
 * JVM running the Ascend and the CUDA binding one after the other - sees two
 * independent runtimes.  Registries (memory, streams, comms) are shared and
 * tag each entry with its face; one face never resolves the other's handles. */
enum { LW_FACE_ACL = 0, LW_FACE_CUDA = 1, LW_FACES };
/* The face of the exported call this thread is in; lw_enter sets it from the
 * function's name, so it is right before any state is touched. */
extern _Thread_local int lw_face;

/* ---- profile (profile.c) ---- */
/* NVLINK, PXB and NODE are the CUDA face's; they have no AscendCL topology bit. */
enum lw_link_type { LW_LINK_NONE = 0, LW_LINK_HCCS, LW_LINK_PIX, LW_LINK_PHB, LW_LINK_SYS,
                    LW_LINK_SIO, LW_LINK_HCCS_SW, LW_LINK_NVLINK, LW_LINK_PXB, LW_LINK_NODE,
                    LW_LINK_LAST = LW_LINK_NODE };

struct lw_path {          /* one modeled path: seconds = latency + bytes / bandwidth */
    double bandwidth;     /* bytes per second */
    double latency;       /* seconds */
};

struct lw_link {
    int type;             /* enum lw_link_type, LW_LINK_NONE when absent */
    struct lw_path path;
    double bidirectional; /* both directions at once move this many times one direction */
    int pcie;             /* the pair's PCIe path (PIX PXB PHB NODE SYS) as NVML reports it */
};

struct lw_pci {           /* a PCI address, DDDD:BB:DD.F */
    unsigned domain, bus, device, function;
};

/* Both directions of a link at once, over one direction alone: seed 002's A3
 * card matrix (HCCS) reads ~541 GB/s both ways against ~329 GB/s one way. */
#define LW_DEFAULT_BIDIRECTIONAL 1.64

struct lw_pageable {
    int cpu_node, mem_node;
    double h2d, d2h;      /* bytes per second */
};

struct lw_profile {
    char soc[64];
    int ndev;
    uint64_t memory[LW_MAX_DEVICES];
    int phy[LW_MAX_DEVICES];
    struct lw_pci pci[LW_MAX_DEVICES];
    char affinity[LW_MAX_DEVICES][64];
    struct lw_link link[LW_MAX_DEVICES][LW_MAX_DEVICES];
    struct lw_path local;
    double pinned_h2d, pinned_d2h, pinned_latency;
    struct lw_pageable pageable[LW_MAX_PAGEABLE];
    int npageable;
    double pageable_h2d, pageable_d2h, pageable_latency;
    struct lw_path allreduce;   /* bandwidth = bus bandwidth */
    struct lw_path allgather;   /* bandwidth = bus bandwidth */
    /* host to host (the NIC) between ranks of one comm in different
     * processes: what a round over TCP takes at least (hccl_net.c) */
    struct lw_path peer_link;
    double hccl_timeout;        /* seconds */
    bool passthrough;
    double noise;
    double busy_share;          /* bandwidth left to a probe on a busy device */
    int nvlinks;                /* `nvlinks COUNT [switch]`: NVLinks per GPU (0 when absent) */
    bool nvswitch;              /* every NVLink goes into an NVSwitch */
};

/* Parses text into *p; on failure writes "NAME:LINE: reason" into err. */
int lw_profile_parse(const char *text, const char *name, struct lw_profile *p,
                     char *err, size_t errlen);
/* Loads $LINKWATCH_SIM_PROFILE or the face's built-in default (atlas-800t-a3
 * for LW_FACE_ACL, hgx-h200 for LW_FACE_CUDA), applies env overrides. */
int lw_profile_load(int face, struct lw_profile *p, char *err, size_t errlen);
const char *lw_link_type_name(int type);
/* Parses a PCI address "DDDD:BB:DD.F" (1..8 hex digits of domain); 0 or -1. */
int lw_parse_pci(const char *tok, struct lw_pci *out);
uint64_t lw_link_type_topo_bit(int type);
/* A bandwidth token as the profile writes it ("20GB/s", "500MB/s"): bytes per second; 0 or -1. */
int lw_parse_bandwidth(const char *tok, double *out);

/* ---- global runtime state (runtime.c) ---- */
struct lw_stream;
/* One per face (lw_states[face]); lw_lock() guards all of them and the registries. */
struct lw_state {
    bool initialized;
    struct lw_profile prof;
    uint64_t used[LW_MAX_DEVICES];
    bool peer[LW_MAX_DEVICES][LW_MAX_DEVICES];   /* peer[src][dst] enabled */
    int refcount[LW_MAX_DEVICES];
    struct lw_stream *default_stream[LW_MAX_DEVICES];
    /* The last copy over each directed link, in the model time of the device
     * whose stream ran it: a copy the other way that starts inside it shares
     * the link (see copy.c). */
    struct lw_link_use { int device; double start, end; } link_use[LW_MAX_DEVICES][LW_MAX_DEVICES];
    /* The host's number (the profile's, DCMI's) of each device this process sees. */
    int physical[LW_MAX_DEVICES];
};
extern struct lw_state lw_states[LW_FACES];
/* The state of the face the thread's current call belongs to. */
#define lw (lw_states[lw_face])

/* ---- visible devices (visible.c) ---- */
/* The profile devices ASCEND_RT_VISIBLE_DEVICES leaves (all when unset), in order. */
int lw_visible_devices(int ndev, int *out);
/* The same for CUDA_VISIBLE_DEVICES (any order; see visible.c). */
int lw_visible_devices_cuda(int ndev, int *out);
/* Keeps only devices keep[0..n) in *p, renumbered 0..n-1. */
void lw_profile_restrict(struct lw_profile *p, const int *keep, int n);
/* Lock held: the host's number of this process's device dev, and back (-1: not visible). */
int lw_physical(int dev);
int lw_logical(int host_dev);
/* Per face and thread: the current device (-1 until aclrtSetDevice, or while
 * no CUDA context is current). */
extern _Thread_local int lw_cur_devs[LW_FACES];
#define lw_cur_dev (lw_cur_devs[lw_face])

void lw_lock(void);
void lw_unlock(void);
bool lw_dev_valid(int dev);             /* lock held */
/* Lock held.  Return 0, or store a message naming fn and return the code. */
int lw_check_init(const char *fn);              /* 100001 when aclInit is missing */
int lw_current(const char *fn, int *dev);       /* 107002 when no aclrtSetDevice */

/* ---- the CUDA face (cuda.c) ---- */
/* cuInit's work, also done by ncclCommInitAll when it comes first; lock held. */
CUresult lw_cuda_init_locked(void);

/* ---- exit (exitflush.c) ---- */
void lw_note_acl_used(void);                 /* this process called aclInit */

/* ---- errors (errors.c) ---- */
void lw_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- live counters (counters.c) ---- */
enum { LW_CNT_DEVICE, LW_CNT_HOST, LW_CNT_REGISTERED, LW_CNT_STREAM, LW_CNT_EVENT, LW_CNT_COMM,
       LW_CNT_N };
void lw_count(int which, int delta);

/* ---- faults (control.c) ---- */
/* Every exported call starts here: may crash, hang until released, or return
 * an injected error code (>0, message already stored); 0 = go on. */
int lw_enter(const char *fn);
/* The same, where `fail`/`hang`/`crash` may also name one sub-command of fn
 * ("dcmi_get_device_info:16:5" as sub): a rule naming fn matches every call,
 * one naming sub only the calls of that sub-command. */
int lw_enter_sub(const char *fn, const char *sub);
bool lw_fault_corrupt(const char *fn);
/* A workload that a `busy` control line puts on a device (pid -1: none visible). */
struct lw_workload {
    int pid;
    unsigned util;               /* percent */
    unsigned long long memory;   /* bytes */
    double traffic;              /* bytes per second over the device's up links (`traffic RATE`) */
};
/* The workloads on dev (up to max copied into out); returns how many there are. */
int lw_workloads(int dev, struct lw_workload *out, int max);
/* The share of a path's modeled bandwidth left to a copy or collective while
 * jobs run on the devices it touches (profile `busy share`); 1 when idle.
 * lw.lock held. */
double lw_contention(int dev_a, int dev_b);
double lw_fault_link_scale(int src, int dst);
/* `pace FACTOR` in the control file: copies take FACTOR x their modeled time
 * of wall time too (0: no line, copies return at once), so that runs of
 * separate processes overlap as on hardware. */
double lw_fault_pace(void);
void lw_corrupt_bytes(void *p, size_t n);

/* Link faults and rates of the control file (hccs, sio, nvlink, pcie lines,
 * and `busy ... traffic RATE`), copied out for linkstate.c. */
enum lw_linkrule_kind { LW_LR_HCCS, LW_LR_SIO, LW_LR_NVLINK, LW_LR_PCIE, LW_LR_TRAFFIC, LW_LR_NIC };
/* The error counters of an NPU's RoCE port the `nic DEVICE errors KIND RATE`
 * line can raise: hccn_tool -stat's names without `_num`.  NULL-terminated. */
#define LW_NIC_KINDS 10
extern const char *const lw_nic_error_kinds[LW_NIC_KINDS + 1];
/* The states `nic DEVICE health STATE` takes, in the driver's order (its
 * codes 0 to 9), spelled as printed.  NULL-terminated. */
#define LW_NIC_HEALTHS 10
extern const char *const lw_nic_health_names[LW_NIC_HEALTHS + 1];
struct lw_linkrule {
    int kind;
    int dev;                /* the host's number */
    int port;               /* HCCS PCS index 1..15, NVLink index; -1 for sio, pcie, traffic */
    bool down;
    int lanes;              /* HCCS lanes in use (0, 1, 2, 4); -1: not given */
    /* per second: hccs crc, retry; sio crc-tx, crc-rx; nvlink replay, recovery,
     * crc-flit, crc-data; pcie replay; traffic: bytes per second in rate[0] */
    double rate[4];
    bool has_base;
    unsigned long long base;
    int gen, width;         /* pcie: current generation / width lowered to; 0: not given */
    /* nic: speed in Mb/s (0: not given), the error kind raised at rate[0] (-1: none),
     * receive power per lane in mW (< 0: not given), net health state (-1: not given) */
    int nic_speed, nic_error, nic_health;
    double nic_rx_power;
    uint64_t key;           /* hash of the normalised line (a `base` is applied once per line) */
};
/* The current link rules (up to max into out); returns how many there are.
 * *mtime: the control file's modification time (CLOCK_REALTIME s), 0 when none. */
int lw_link_rules(struct lw_linkrule *out, int max, double *mtime);

/* ---- passive link telemetry (linkstate.c) ---- */
#define LW_HCCS_PORTS 16          /* DCMI_HCCS_MAX_PCS_NUM: PCS indices 1..15 are used */
#define LW_NVLINKS 36             /* NVML_NVLINK_MAX_LINKS */
/* The host's topology as the link counters see it: a face's whole profile
 * (before ASCEND_RT_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES), registered by
 * aclInit, dcmi_init, cuInit and nvmlInit_v2. */
void lw_links_topology(int face, const struct lw_profile *full);
/* HCCS ports of host device dev under a profile: peer[k] is the device PCS k
 * (1..n) carries; returns n.  peer[0] is -1. */
int lw_hccs_ports(const struct lw_profile *p, int dev, int peer[LW_HCCS_PORTS]);
/* The device NVLink `link` of dev reaches: a GPU's host number, -1 for an
 * NVSwitch (or nowhere: *none set). */
int lw_nvlink_peer(const struct lw_profile *p, int dev, int link, bool *none);
/* The state the control file gives one host device's links. */
struct lw_devlinks {
    bool hccs_down[LW_HCCS_PORTS];
    int hccs_lanes[LW_HCCS_PORTS];    /* 4 unless lowered; 0 when down */
    bool nv_down[LW_NVLINKS];
    int pcie_gen, pcie_width;         /* 0: not lowered */
    bool nic_down;                    /* the NPU's RoCE port */
    int nic_speed;                    /* Mb/s; 0: the default */
    int nic_health;                   /* index into lw_nic_health_names; 0 (Success) unless set */
    double nic_rx_power;              /* mW per lane; < 0: the default */
};
void lw_dev_links(int dev, struct lw_devlinks *out);
/* Shared counters: index ranges per host device. */
enum {
    LW_C_HCCS_TX = 0, LW_C_HCCS_RX = LW_C_HCCS_TX + LW_HCCS_PORTS,          /* flits */
    LW_C_HCCS_CRC = LW_C_HCCS_RX + LW_HCCS_PORTS, LW_C_HCCS_RETRY = LW_C_HCCS_CRC + LW_HCCS_PORTS,
    LW_C_SIO_CRC_TX = LW_C_HCCS_RETRY + LW_HCCS_PORTS, LW_C_SIO_CRC_RX,
    LW_C_NV_REPLAY, LW_C_NV_RECOVERY = LW_C_NV_REPLAY + LW_NVLINKS,
    LW_C_NV_CRC_FLIT = LW_C_NV_RECOVERY + LW_NVLINKS, LW_C_NV_CRC_DATA = LW_C_NV_CRC_FLIT + LW_NVLINKS,
    LW_C_NV_TX = LW_C_NV_CRC_DATA + LW_NVLINKS, LW_C_NV_RX = LW_C_NV_TX + LW_NVLINKS,   /* bytes */
    LW_C_PCIE_REPLAY = LW_C_NV_RX + LW_NVLINKS,
    /* an NPU's RoCE port: octets and packets each way, errors by lw_nic_error_kinds,
     * link ups since the counters began, and whether the port was down at the last read */
    LW_C_NIC_TX_OCT, LW_C_NIC_RX_OCT, LW_C_NIC_TX_PKT, LW_C_NIC_RX_PKT,
    LW_C_NIC_ERR, LW_C_NIC_LINK_UPS = LW_C_NIC_ERR + LW_NIC_KINDS, LW_C_NIC_WAS_DOWN,
    LW_C_N
};
/* Brings every counter up to now (rates, new `base` lines), then copies host
 * device dev's counters out (LW_C_N values).  0, or -1 when dev is out of range. */
int lw_counters_read(int dev, uint64_t out[LW_C_N]);
/* Traffic of a copy between two host devices over the face's link (HCCS
 * flits on the ports that carry the pair, NVLink bytes); nothing for other links. */
void lw_links_copy_traffic(int face, int src, int dst, uint64_t bytes);
/* A collective's traffic: each of the n ranks (host devices) sent and received
 * `bytes` over its links to the other ranks. */
void lw_links_collective_traffic(int face, const int *devs, int n, double bytes);
/* Bytes host device dev's NPU port sent and received to other servers (a
 * two-host collective's or point to point's): its octet and packet counters,
 * while the port is up. */
void lw_links_nic_traffic(int dev, double tx, double rx);
/* The share of a link's bandwidth a copy between two host devices gets from
 * lane and link faults (1 when all is well). */
double lw_links_copy_factor(int face, int src, int dst);
/* Devices are shared across processes: a copy that another live process runs
 * on one of its devices (host ids; -1 for the host side) at this wall time
 * halves what this one gets.  lw_links_occupy records this process's copy on
 * them until `seconds` from now (paced copies only); lw_links_shared_factor
 * is 0.5 while another process's copy is there, else 1. */
void lw_links_occupy(int a, int b, double seconds);
double lw_links_shared_factor(int a, int b);

/* ---- memory registry (memory.c) ---- */
enum lw_mem_kind { LW_MEM_DEVICE, LW_MEM_HOST, LW_MEM_REGISTERED };
struct lw_alloc {
    char *base;
    size_t size;        /* bytes the caller asked for */
    size_t mapped;      /* bytes mmap'd (0 for registered ranges) */
    int device;         /* -1 for host kinds */
    int kind;
    int policy;         /* aclrtMemMallocPolicy of device memory */
    int face;           /* set by lw_reg_add */
};
/* Whether a device allocation's policy is one of the *_P2P ones, which
 * aclrtMemMallocPolicy.md gives for memory copied between two devices. */
bool lw_policy_is_p2p(int policy);
const char *lw_policy_name(int policy);
/* Lookups need lw.lock held; they copy the entry out so it can be used after.
 * Only the calling face's entries are found. */
bool lw_find(const void *addr, int kind, struct lw_alloc *out);
/* Registry primitives for the faces' allocation calls; lock held. */
size_t lw_page_round(size_t n);
void *lw_map_bytes(size_t n);                   /* NULL when out of memory */
void lw_unmap_bytes(void *p, size_t n);        /* may keep it for the next lw_map_bytes */
int lw_reg_add(struct lw_alloc a);              /* 0, or -1 when out of memory */
/* Removes the entry of the calling face starting exactly at p; -1 (message stored) otherwise. */
int lw_reg_remove(const char *fn, const void *p, int kind, struct lw_alloc *out);
/* The first entry of any face overlapping [p, p+n), if any. */
bool lw_reg_overlap(const void *p, size_t n, struct lw_alloc *hit);
/* Any face wrote device memory other than through lw_copy_execute (a
 * collective's results, an allocation made or freed), so a copy that repeats
 * the last one must really copy again (copy.c); lock held. */
void lw_device_written(void);
/* Is [addr, addr+len) pinned (MallocHost or registered)? */
bool lw_is_pinned(const void *addr);
/* Device memory left for this process (after other processes' workloads). */
uint64_t lw_free_bytes(int dev);

/* ---- streams / events (stream_event.c) ---- */
struct lw_stream {
    uint32_t magic;
    int device;
    double clock;       /* virtual device time, seconds */
    bool is_default;
    int face;           /* the face that made it (lw_stream_new) */
    unsigned flags;     /* the CUDA face's cuStreamCreate flags */
};
struct lw_stream *lw_stream_new(int device, bool is_default);
/* An event's time as both faces keep it: recording stamps the stream's clock
 * (or CLOCK_MONOTONIC in pass-through), waiting moves a stream's clock up to
 * the stamp, elapsed time is the difference.  Lock held. */
struct lw_mark {
    bool recorded;
    double stamp;       /* seconds, model clock or CLOCK_MONOTONIC */
};
void lw_mark_record(struct lw_mark *m, const struct lw_stream *s);
void lw_stream_wait_mark(struct lw_stream *s, const struct lw_mark *m);   /* never recorded: no wait */
float lw_mark_elapsed_ms(const struct lw_mark *start, const struct lw_mark *end);
void lw_stream_free(struct lw_stream *s);
/* Resolves a caller's handle (NULL = current device's default); lock held. */
struct lw_stream *lw_stream_resolve(aclrtStream s, const char *fn);
/* A live user stream of the calling face, or NULL; lock held. */
struct lw_stream *lw_stream_lookup(const void *h);
/* User streams: adds a new one to the live set (and the counter), or removes
 * and frees one; lock held.  lw_stream_track returns -1 when out of memory. */
int lw_stream_track(struct lw_stream *s);
void lw_stream_untrack(struct lw_stream *s);

/* A set of live handles, so a stale or foreign pointer is refused, not followed. */
struct lw_set { void **items; size_t n, cap; };
int lw_set_add(struct lw_set *s, void *p);      /* -1 when out of memory */
bool lw_set_has(const struct lw_set *s, const void *p);
void lw_set_del(struct lw_set *s, const void *p);

/* ---- copies (copy.c) ---- */
enum lw_path_kind { LW_P_H2H, LW_P_H2D, LW_P_D2H, LW_P_D2D };
struct lw_copy_plan {
    int path;                   /* enum lw_path_kind */
    int src_dev, dst_dev;
    bool host_pinned;           /* H2D/D2H: host side is page-locked */
    const void *host_ptr;       /* H2D/D2H: the host side */
    struct lw_stream *stream;   /* clock to advance; NULL for none */
    bool staged;                /* D2D between devices through host memory (no peer access) */
};
/* Runs a validated copy: moves the bytes (then applies a `corrupt fn` fault)
 * and advances the plan's stream clock by the modeled duration.  Lock not held. */
void lw_copy_execute(const char *fn, const struct lw_copy_plan *pl, void *dst, const void *src,
                     size_t count);

/* ---- collectives (hccl.c) ---- */
enum lw_coll { LW_ALLREDUCE, LW_ALLGATHER };
/* n comms for the distinct, valid devices (of the calling face) into out;
 * 0, or -1 when out of memory.  Lock not held. */
int lw_comm_create(int n, const int *devices, void **out);
/* 0, or -1 when comm is not a live comm of the calling face. */
int lw_comm_destroy(void *comm);
/* One rank's collective (HCCL codes; HCCL data types and ops): checks, meets
 * the other ranks, and the last one in moves the data and the clocks.  fn names
 * the exported call (fault rules, messages). */
HcclResult lw_collective(const char *fn, int coll, void *send, void *recv, uint64_t count,
                         int type, int op, void *comm, void *stream);
/* The collective timeout in seconds (HCCL_EXEC_TIMEOUT, else the profile's
 * `hccl timeout`); lock held. */
double lw_exec_timeout(void);

/* ---- ranks in several processes (hccl_net.c) ---- */
/* One rank's end of a comm whose ranks meet over TCP through rank 0. */
struct lw_net;
/* Lists a networked rank's comm as live (hccl.c); 0, or -1 when out of memory. */
int lw_comm_add_net(struct lw_net *net, int rank, int n, int device, void **out);
/* HcclGetRootInfo / ncclGetUniqueId for the calling face: opens rank 0's
 * listener and writes its address and a session id into blob[0..len).
 * HCCL codes, message stored. */
HcclResult lw_net_root_info(const char *fn, void *blob, size_t len);
/* HcclCommInitRootInfo / ncclCommInitRank: one rank of n on the thread's
 * current device; returns once every rank has joined.  HCCL codes. */
HcclResult lw_net_init(const char *fn, const void *blob, size_t len, uint32_t n, uint32_t rank,
                       void **out);
/* One round of a networked comm, after lw_collective's argument checks; t0 is
 * when the call began (lw_now), s the stream whose clock it advances. */
HcclResult lw_net_collective(const char *fn, int coll, struct lw_net *net, void *send, void *recv,
                             uint64_t count, int type, int op, struct lw_stream *s, double timeout,
                             double t0);
/* Closes the rank's sockets and frees it; lock not held. */
void lw_net_close(struct lw_net *net);
/* One send or receive of a point-to-point call. */
struct lw_p2p_item {
    bool send;
    void *buf;
    uint64_t count;
    int type;
    int peer;
};
/* HcclSend / HcclRecv / HcclBatchSendRecv / ncclSend / ncclRecv (queued ones
 * at ncclGroupEnd): checks the items and runs them together on comm. */
HcclResult lw_p2p(const char *fn, const struct lw_p2p_item *items, int n, void *comm, void *stream);
/* A networked comm's point-to-point call, after lw_p2p's checks. */
HcclResult lw_net_p2p(const char *fn, struct lw_net *net, const struct lw_p2p_item *items, int n,
                      struct lw_stream *s, double timeout, double t0);

/* ---- timing model (model.c) ---- */
double lw_noise_factor(void);                   /* lock held */
double lw_path_seconds(struct lw_path p, double bytes);
double lw_now(void);                            /* CLOCK_MONOTONIC seconds */

/* ---- host NUMA (hostnode.c) ---- */
int lw_cpu_node(void);
int lw_mem_node(const void *addr, int fallback);

/* ---- fp16 (half.c) ---- */
float lw_half_to_float(uint16_t h);
uint16_t lw_float_to_half(float f);
/* The same conversions for n elements at once (a reduction's blocks). */
void lw_halves_to_floats(float *out, const uint16_t *in, size_t n);
void lw_floats_to_halves(uint16_t *out, const float *in, size_t n);


/* The whole text of a file (NUL-terminated, caller frees), or NULL with errno set. */
char *lw_read_text_file(const char *path);

#endif
