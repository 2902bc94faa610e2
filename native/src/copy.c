/*
 * copy.c - aclrtMemcpy / aclrtMemcpyAsync: validate like the runtime, really
 * move the bytes, then advance the stream clock by the modeled duration.
 *
 * The direction comes from the registry, not from `kind` (the docs call kind
 * "reserved" and infer it from the addresses); kind is only range-checked and
 * used to insist that a side it calls "device" really is device memory.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <stdint.h>
#include <string.h>
#include <time.h>

/* The plan (struct lw_copy_plan) and its execution are shared with the CUDA
 * face (cuda.c), which validates by its own rules and runs the same model. */
enum { P_H2H = LW_P_H2H, P_H2D = LW_P_H2D, P_D2H = LW_P_D2H, P_D2D = LW_P_D2D };

/* Checks that [p, p+count) lies inside the device allocation a. */
static int check_span(const char *fn, const char *side, const void *p, size_t count,
                      const struct lw_alloc *a)
{
    size_t off = (size_t)((const char *)p - a->base);
    if (count > a->size - off) {
        lw_err("%s: %s %p + %zu bytes runs past its device allocation (%zu bytes at offset %zu)",
               fn, side, p, count, a->size, off);
        return ACL_ERROR_INVALID_PARAM;
    }
    return 0;
}

/* Validation and planning; lock held. */
static int plan_copy(const char *fn, void *dst, size_t destMax, const void *src, size_t count,
                     int kind, bool async, aclrtStream stream, struct lw_copy_plan *pl)
{
    int rc = lw_check_init(fn);
    if (rc)
        return rc;
    if (!dst || !src) {
        lw_err("%s: %s is NULL", fn, !dst ? "dst" : "src");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (count == 0) {
        lw_err("%s: count is 0", fn);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (count > destMax) {
        lw_err("%s: count %zu > destMax %zu", fn, count, destMax);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEFAULT) {
        lw_err("%s: kind %d out of range 0..4", fn, kind);
        return ACL_ERROR_INVALID_PARAM;
    }
    struct lw_alloc sa, da;
    bool sdev = lw_find(src, LW_MEM_DEVICE, &sa), ddev = lw_find(dst, LW_MEM_DEVICE, &da);
    bool want_sdev = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    bool want_ddev = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    if (want_sdev && !sdev) {
        lw_err("%s: src %p is not device memory (kind %d)", fn, src, kind);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (want_ddev && !ddev) {
        lw_err("%s: dst %p is not device memory (kind %d)", fn, dst, kind);
        return ACL_ERROR_INVALID_PARAM;
    }
    if ((sdev && (rc = check_span(fn, "src", src, count, &sa))) ||
        (ddev && (rc = check_span(fn, "dst", dst, count, &da))))
        return rc;
    if (ddev && (size_t)((const char *)dst - da.base) + destMax > da.size) {
        lw_err("%s: destMax %zu exceeds the device allocation behind dst (%zu bytes from %p)", fn,
               destMax, da.size - (size_t)((const char *)dst - da.base), dst);
        return ACL_ERROR_INVALID_PARAM;
    }
    pl->src_dev = sdev ? sa.device : -1;
    pl->dst_dev = ddev ? da.device : -1;
    pl->path = sdev ? (ddev ? P_D2D : P_D2H) : (ddev ? P_H2D : P_H2H);
    if (pl->path == P_D2D && sa.device != da.device && !lw.peer[sa.device][da.device]) {
        lw_err("%s: peer access from device %d to device %d is not enabled "
               "(aclrtSetDevice(%d) + aclrtDeviceEnablePeerAccess(%d, 0) first)",
               fn, sa.device, da.device, sa.device, da.device);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (pl->path == P_D2D && sa.device != da.device &&
        (!lw_policy_is_p2p(sa.policy) || !lw_policy_is_p2p(da.policy))) {
        /* aclrtMemMallocPolicy.md gives the *_P2P policies for memory copied between two
         * devices; it names no error for other memory, the sim refuses so that it shows here. */
        const struct lw_alloc *off = lw_policy_is_p2p(sa.policy) ? &da : &sa;
        lw_err("%s: a copy between devices %d and %d needs memory allocated with a *_P2P policy; "
               "the %s on device %d was allocated with %s",
               fn, sa.device, da.device, off == &sa ? "src" : "dst", off->device,
               lw_policy_name(off->policy));
        return ACL_ERROR_INVALID_PARAM;
    }
    if (async && (kind == ACL_MEMCPY_HOST_TO_HOST || pl->path == P_H2H)) {
        /* aclrtMemcpyAsync.md, constraints: no asynchronous copy inside the host. */
        lw_err("%s: host-to-host copies cannot be asynchronous (use aclrtMemcpy)", fn);
        return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    }
    if (async && pl->path == P_D2D && sa.device == da.device && (((uintptr_t)src | (uintptr_t)dst) & 63)) {
        /* dev guide, data copy: on-chip (one device) D2D async copies need 64-byte-aligned
         * addresses; nothing is documented for copies between devices. */
        lw_err("%s: on-chip device-to-device asynchronous copies need 64-byte-aligned addresses "
               "(src %p, dst %p)", fn, src, dst);
        return ACL_ERROR_INVALID_PARAM;
    }
    pl->host_ptr = pl->path == P_H2D ? src : pl->path == P_D2H ? dst : NULL;
    pl->host_pinned = pl->host_ptr && lw_is_pinned(pl->host_ptr);

    if (async) {
        pl->stream = lw_stream_resolve(stream, fn);
        if (!pl->stream)
            return stream ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_CONTEXT_NULL;
    } else {
        /* A synchronous copy is charged to the default stream of the current
         * device, else of the device it touches (none for host-to-host). */
        int dev = lw_dev_valid(lw_cur_dev) ? lw_cur_dev : pl->src_dev >= 0 ? pl->src_dev : pl->dst_dev;
        pl->stream = dev >= 0 ? lw.default_stream[dev] : NULL;
    }
    return 0;
}

/* Whether a copy the other way over the same link runs when this one starts:
 * it was issued on a stream of the same device (so both times are on one
 * clock) and this copy's stream clock falls inside it.  The two then share the
 * link, each getting bidirectional/2 of one direction's bandwidth; the first
 * was charged at the full rate, which is exact for equal sizes started
 * together (the pair ends when the second does).  Lock held. */
static bool opposite_in_flight(const struct lw_copy_plan *pl)
{
    if (!pl->stream)
        return false;
    const struct lw_link_use *u = &lw.link_use[pl->dst_dev][pl->src_dev];
    double t = pl->stream->clock;
    return u->end > u->start && u->device == pl->stream->device && u->start <= t && t < u->end;
}

/* Remembers this copy's span for opposite_in_flight; lock held. */
static void note_link_use(const struct lw_copy_plan *pl, double secs)
{
    if (pl->path == P_D2D && pl->src_dev != pl->dst_dev && !pl->staged && pl->stream)
        lw.link_use[pl->src_dev][pl->dst_dev] =
            (struct lw_link_use){ pl->stream->device, pl->stream->clock, pl->stream->clock + secs };
}

/* Modeled seconds for the planned copy; lock held. */
static double model_seconds(const struct lw_copy_plan *pl, size_t count, int cpu_node, int mem_node)
{
    const struct lw_profile *p = &lw.prof;
    struct lw_path path = p->local;
    switch (pl->path) {
    case P_H2H:
        break;
    case P_D2D:
        if (pl->staged) {
            /* Through host memory, as a driver does without peer access: two
             * pinned hops, pipelined, so the slower direction's rate and both
             * latencies. */
            path = (struct lw_path){ p->pinned_h2d < p->pinned_d2h ? p->pinned_h2d : p->pinned_d2h,
                                     2 * p->pinned_latency };
        } else if (pl->src_dev != pl->dst_dev) {
            path = p->link[pl->src_dev][pl->dst_dev].path;
            path.bandwidth *= lw_fault_link_scale(lw_physical(pl->src_dev), lw_physical(pl->dst_dev));
            /* lanes down or links down (control file): the link's share left */
            path.bandwidth *= lw_links_copy_factor(lw_face, lw_physical(pl->src_dev), lw_physical(pl->dst_dev));
            if (opposite_in_flight(pl))
                path.bandwidth *= p->link[pl->src_dev][pl->dst_dev].bidirectional / 2;
        }
        break;
    case P_H2D:
    case P_D2H: {
        bool h2d = pl->path == P_H2D;
        if (pl->host_pinned) {
            path = (struct lw_path){ h2d ? p->pinned_h2d : p->pinned_d2h, p->pinned_latency };
            break;
        }
        path = (struct lw_path){ h2d ? p->pageable_h2d : p->pageable_d2h, p->pageable_latency };
        for (int i = 0; i < p->npageable; i++)
            if (p->pageable[i].cpu_node == cpu_node && p->pageable[i].mem_node == mem_node)
                path.bandwidth = h2d ? p->pageable[i].h2d : p->pageable[i].d2h;
        break;
    }
    }
    path.bandwidth *= lw_contention(pl->src_dev, pl->dst_dev);
    /* another process's copy on one of these devices right now (paced copies) */
    path.bandwidth *= lw_links_shared_factor(pl->src_dev >= 0 ? lw_physical(pl->src_dev) : -1,
                                             pl->dst_dev >= 0 ? lw_physical(pl->dst_dev) : -1);
    if (path.bandwidth <= 0)   /* a link scaled to 0: treat as nearly dead, not infinite */
        path.bandwidth = 1.0;
    return lw_path_seconds(path, (double)count);
}

static aclError do_copy(const char *fn, void *dst, size_t destMax, const void *src, size_t count,
                        int kind, bool async, aclrtStream stream)
{
    int rc = lw_enter(fn);
    if (rc)
        return rc;
    struct lw_copy_plan pl = { 0 };
    lw_lock();
    rc = plan_copy(fn, dst, destMax, src, count, kind, async, stream, &pl);
    lw_unlock();
    if (rc)
        return rc;
    lw_copy_execute(fn, &pl, dst, src, count);
    return ACL_SUCCESS;
}

/* Every write into device memory (copies to it, collectives' results, an
 * allocation made or freed) moves this on, so the last device-to-device copy
 * below is known to have been left alone since.  Lock held. */
static uint64_t device_writes;
struct d2d_copy {
    void *dst;
    const void *src;
    size_t count;
    uint64_t at;        /* device_writes just after it */
    bool valid;
};
static struct d2d_copy last_d2d;

void lw_device_written(void)
{
    device_writes++;
}

/* Whether this D2D copy repeats the last one exactly, with no device memory
 * written since: dst already holds src's bytes, and copying again would only
 * spend the CPU (a p2p measurement repeats one copy 25 times).  Never with
 * pass-through timing, which times the real memcpy, nor for overlapping spans,
 * where memmove is not idempotent.  Lock held. */
static bool repeats_last_d2d(const struct lw_copy_plan *pl, const void *dst, const void *src,
                             size_t count)
{
    const char *d = dst, *s = src;
    return pl->path == P_D2D && !lw.prof.passthrough && last_d2d.valid && last_d2d.dst == dst &&
           last_d2d.src == src && last_d2d.count == count && last_d2d.at == device_writes &&
           (d + count <= s || s + count <= d);
}

void lw_copy_execute(const char *fn, const struct lw_copy_plan *pl, void *dst, const void *src,
                     size_t count)
{
    int cpu_node = 0, mem_node = 0;
    if (pl->host_ptr && !pl->host_pinned) {
        cpu_node = lw_cpu_node();
        mem_node = lw_mem_node(pl->host_ptr, cpu_node);
    }
    bool corrupt = lw_fault_corrupt(fn);
    bool to_device = pl->path == P_H2D || pl->path == P_D2D;
    bool repeat = false;
    uint64_t mine = 0;
    if (to_device) {
        lw_lock();
        repeat = !corrupt && repeats_last_d2d(pl, dst, src, count);
        if (!repeat) {
            lw_device_written();
            mine = device_writes;
            last_d2d.valid = false;
        }
        lw_unlock();
    }
    if (!repeat) {
        memmove(dst, src, count);
        if (corrupt)
            lw_corrupt_bytes(dst, count);
    }
    if (to_device && !repeat && pl->path == P_D2D && !corrupt) {
        lw_lock();
        /* only if nothing else wrote device memory while the bytes moved */
        if (device_writes == mine)
            last_d2d = (struct d2d_copy){ dst, src, count, mine, true };
        lw_unlock();
    }

    lw_lock();
    double secs = model_seconds(pl, count, cpu_node, mem_node);
    /* The default streams are recreated by aclInit; only touch a live one. */
    if (pl->stream && lw.initialized) {
        note_link_use(pl, secs);
        pl->stream->clock += secs;
    }
    bool over_link = pl->path == P_D2D && pl->src_dev != pl->dst_dev && !pl->staged;
    int src_host = lw_physical(pl->src_dev), dst_host = lw_physical(pl->dst_dev);
    double pace = lw_fault_pace();
    lw_unlock();
    if (pace > 0 && pl->path != P_H2H) {
        double wall = secs * pace;
        lw_links_occupy(pl->src_dev >= 0 ? src_host : -1, pl->dst_dev >= 0 ? dst_host : -1, wall);
        struct timespec ts = { (time_t)wall, (long)((wall - (double)(time_t)wall) * 1e9) };
        nanosleep(&ts, NULL);
    }
    /* the link counters DCMI and NVML read (HCCS flits, NVLink bytes) */
    if (over_link)
        lw_links_copy_traffic(lw_face, src_host, dst_host, count);
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind)
{
    return do_copy("aclrtMemcpy", dst, destMax, src, count, (int)kind, false, NULL);
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream)
{
    return do_copy("aclrtMemcpyAsync", dst, destMax, src, count, (int)kind, true, stream);
}
