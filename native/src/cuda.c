/*
 * cuda.c - the CUDA driver API subset: init, devices, primary contexts, memory,
 * streams, events and copies, over the same core as the Ascend face (registry,
 * stream clocks, copy model, faults), in the CUDA face's own state.
 *
 * The rules are the driver's where its documentation gives one, and stricter
 * where linkwatch must not depend on leniency (see native/README.md, "CUDA
 * face"): every call but cuDriverGetVersion and the two error-text calls needs
 * cuInit (CUDA_ERROR_NOT_INITIALIZED); calls that act in "the current context"
 * need one that is current and retained (CUDA_ERROR_INVALID_CONTEXT); a stream
 * belongs to the context it was created in and is refused while another one is
 * current (CUDA_ERROR_INVALID_HANDLE).  Failures keep no text: the CUDA API has
 * only codes, and the Ascend face's recent-error text must not collect them.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CTX_MAGIC 0x43545850u
#define CUEVENT_MAGIC 0x43554556u

/* A device's one primary context; the handle is the address of its slot, so
 * it stays the same for the life of the process, as the driver's does while
 * the context lives. */
struct CUctx_st {
    uint32_t magic;
    int device;
};
static struct CUctx_st primary[LW_MAX_DEVICES];

struct CUevent_st {
    uint32_t magic;
    unsigned flags;
    int device;         /* of the context it was created in */
    struct lw_mark mark;
};
static struct lw_set cu_events;   /* lw.lock */

/* ---- helpers; lock held ---- */

static int need_init(void)
{
    return lw.initialized ? 0 : CUDA_ERROR_NOT_INITIALIZED;
}

static int need_device(CUdevice dev)
{
    return lw_dev_valid(dev) ? 0 : CUDA_ERROR_INVALID_DEVICE;
}

/* The device of the thread's current context; 201 when none is current or
 * its primary context is not retained (released to 0 the context is gone). */
static int need_current(int *dev)
{
    if (!lw_dev_valid(lw_cur_dev) || lw.refcount[lw_cur_dev] == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    *dev = lw_cur_dev;
    return 0;
}

/* A context handle of this process's devices, or NULL. */
static struct CUctx_st *ctx_of(CUcontext h)
{
    struct CUctx_st *c = h;
    if (!c || c < primary || c >= primary + LW_MAX_DEVICES || c->magic != CTX_MAGIC ||
        !lw_dev_valid(c->device))
        return NULL;
    return c;
}

static struct CUevent_st *event_of(CUevent h)
{
    return h && lw_set_has(&cu_events, h) ? h : NULL;
}

/* A stream argument: NULL is the current context's legacy default stream; a
 * created stream must belong to the current context. */
static int need_stream(CUstream h, struct lw_stream **out)
{
    int cur = -1;
    int rc = need_current(&cur);
    if (rc)
        return rc;
    if (!h) {
        *out = lw.default_stream[cur];
        return 0;
    }
    struct lw_stream *s = lw_stream_lookup(h);
    if (!s || s->device != cur)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = s;
    return 0;
}

static void *as_ptr(CUdeviceptr p)
{
    return (void *)(uintptr_t)p;
}

/* ---- the call header ----
 *
 * Every exported call but the two error-text ones starts the same way.
 * CU_ENTER: the call journal and the injected faults (lw_enter), which may
 * fail the call before it does anything; declares rc.  CU_BEGIN: that, then
 * the face's lock (held until the call's lw_unlock) and the cuInit check, its
 * code in rc.  CU_BEGIN_CURRENT: that, then the current context's device into
 * cur where rc is still 0 (CUDA_ERROR_INVALID_CONTEXT where none is current). */

#define CU_ENTER(fn)                                                                   \
    int rc = lw_enter(fn);                                                             \
    if (rc)                                                                            \
        return rc

#define CU_BEGIN(fn)                                                                   \
    CU_ENTER(fn);                                                                      \
    lw_lock();                                                                         \
    rc = need_init()

#define CU_BEGIN_CURRENT(fn)                                                           \
    CU_BEGIN(fn);                                                                      \
    int cur = -1;                                                                      \
    if (!rc)                                                                           \
        rc = need_current(&cur)

/* Loads the profile and sets up the face; nothing when already done. */
CUresult lw_cuda_init_locked(void)
{
    if (lw.initialized)
        return CUDA_SUCCESS;
    struct lw_profile *p = malloc(sizeof *p);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    char err[512];
    if (lw_profile_load(LW_FACE_CUDA, p, err, sizeof err) != 0) {
        /* no error text in this API: say it where an operator sees it */
        fprintf(stderr, "linkwatch-sim: cuInit: bad simulator profile: %s\n", err);
        free(p);
        return CUDA_ERROR_UNKNOWN;
    }
    lw_links_topology(LW_FACE_CUDA, p);
    int keep[LW_MAX_DEVICES];
    int n = lw_visible_devices_cuda(p->ndev, keep);
    if (n == 0) {
        /* what the driver answers when CUDA_VISIBLE_DEVICES leaves no device */
        free(p);
        return CUDA_ERROR_NO_DEVICE;
    }
    lw_profile_restrict(p, keep, n);
    lw.prof = *p;
    free(p);
    memcpy(lw.physical, keep, sizeof keep);
    memset(lw.peer, 0, sizeof lw.peer);
    memset(lw.link_use, 0, sizeof lw.link_use);
    memset(lw.refcount, 0, sizeof lw.refcount);
    for (int d = 0; d < n; d++) {
        lw.default_stream[d] = lw_stream_new(d, true);
        primary[d] = (struct CUctx_st){ CTX_MAGIC, d };
    }
    lw.initialized = true;
    return CUDA_SUCCESS;
}

/* ---- init, devices ---- */

CUresult cuInit(unsigned int Flags)
{
    CU_ENTER("cuInit");
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    lw_lock();
    rc = lw_cuda_init_locked();   /* again: a no-op, as with the driver */
    lw_unlock();
    return rc;
}

CUresult cuDriverGetVersion(int *driverVersion)
{
    CU_ENTER("cuDriverGetVersion");
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = 12080;   /* a CUDA 12.8 driver: 1000 * major + 10 * minor */
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    CU_BEGIN("cuDeviceGetCount");
    if (!rc && !count)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc)
        *count = lw.prof.ndev;
    lw_unlock();
    return rc;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    CU_BEGIN("cuDeviceGet");
    if (!rc && !device)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc)
        rc = need_device(ordinal);
    if (!rc)
        *device = ordinal;
    lw_unlock();
    return rc;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    CU_BEGIN("cuDeviceGetName");
    if (!rc && (!name || len <= 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc)
        rc = need_device(dev);
    if (!rc)
        snprintf(name, (size_t)len, "%s", lw.prof.soc);   /* cut to len - 1, like the driver */
    lw_unlock();
    return rc;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    CU_BEGIN("cuDeviceTotalMem_v2");
    if (!rc && !bytes)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc)
        rc = need_device(dev);
    if (!rc)
        *bytes = (size_t)lw.prof.memory[dev];
    lw_unlock();
    return rc;
}

CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    CU_BEGIN("cuDeviceGetPCIBusId");
    if (!rc && (!pciBusId || len <= 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc)
        rc = need_device(dev);
    if (!rc) {
        /* the driver's form: a four-digit domain, upper-case hex ("0000:1A:00.0") */
        const struct lw_pci *a = &lw.prof.pci[dev];
        snprintf(pciBusId, (size_t)len, "%04X:%02X:%02X.%X", a->domain, a->bus, a->device, a->function);
    }
    lw_unlock();
    return rc;
}

CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    CU_BEGIN("cuDeviceCanAccessPeer");
    if (!rc && !canAccessPeer)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc)
        rc = need_device(dev) ? need_device(dev) : need_device(peerDev);
    if (!rc)
        *canAccessPeer = dev != peerDev && lw.prof.link[dev][peerDev].type != LW_LINK_NONE;
    lw_unlock();
    return rc;
}

/* ---- contexts ---- */

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CU_BEGIN("cuDevicePrimaryCtxRetain");
    if (!rc && !pctx)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc)
        rc = need_device(dev);
    if (!rc) {
        lw.refcount[dev]++;
        *pctx = &primary[dev];
    }
    lw_unlock();
    return rc;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    CU_BEGIN("cuDevicePrimaryCtxRelease_v2");
    if (!rc)
        rc = need_device(dev);
    if (!rc && lw.refcount[dev] == 0)
        rc = CUDA_ERROR_INVALID_CONTEXT;   /* not retained: nothing to release */
    if (!rc && --lw.refcount[dev] == 0) {
        /* The last release destroys the context, and the peer mappings to and
         * from it go with it.  Its allocations stay in the registry, so that the
         * live counters show what was not freed. */
        for (int d = 0; d < LW_MAX_DEVICES; d++) {
            lw.peer[dev][d] = false;
            lw.peer[d][dev] = false;
        }
    }
    lw_unlock();
    return rc;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    CU_BEGIN("cuCtxSetCurrent");
    struct CUctx_st *c = ctx_of(ctx);
    if (!rc && ctx && !c)
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (!rc)
        lw_cur_dev = c ? c->device : -1;   /* NULL: no context is current */
    lw_unlock();
    return rc;
}

CUresult cuCtxGetDevice(CUdevice *device)
{
    CU_BEGIN_CURRENT("cuCtxGetDevice");
    if (!rc && !device)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc)
        *device = cur;
    lw_unlock();
    return rc;
}

/* Directional, like the driver's: the current context's device may then reach
 * peerContext's memory. */
CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
    CU_BEGIN_CURRENT("cuCtxEnablePeerAccess");
    struct CUctx_st *peer = ctx_of(peerContext);
    if (!rc && Flags != 0)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && (!peer || lw.refcount[peer->device] == 0))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (!rc && peer->device == cur)
        rc = CUDA_ERROR_INVALID_DEVICE;
    if (!rc && lw.prof.link[cur][peer->device].type == LW_LINK_NONE)
        rc = CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
    if (!rc && lw.peer[cur][peer->device])
        rc = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    if (!rc)
        lw.peer[cur][peer->device] = true;
    lw_unlock();
    return rc;
}

/* ---- memory ---- */

CUresult cuMemGetInfo_v2(size_t *free, size_t *total)
{
    CU_BEGIN_CURRENT("cuMemGetInfo_v2");
    if (!rc && (!free || !total))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        *total = (size_t)lw.prof.memory[cur];
        *free = (size_t)lw_free_bytes(cur);
    }
    lw_unlock();
    return rc;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    CU_BEGIN_CURRENT("cuMemAlloc_v2");
    if (!rc && (!dptr || bytesize == 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && bytesize > lw_free_bytes(cur))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (!rc) {
        void *p = lw_map_bytes(bytesize);
        struct lw_alloc a = { p, bytesize, lw_page_round(bytesize), cur, LW_MEM_DEVICE, -1, 0 };
        if (!p || lw_reg_add(a) != 0) {
            if (p)
                lw_unmap_bytes(p, bytesize);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            lw.used[cur] += bytesize;
            lw_count(LW_CNT_DEVICE, 1);
            *dptr = (CUdeviceptr)(uintptr_t)p;
        }
    }
    lw_unlock();
    return rc;
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    CU_BEGIN_CURRENT("cuMemFree_v2");
    struct lw_alloc a;
    if (!rc && (!dptr || lw_reg_remove("cuMemFree_v2", as_ptr(dptr), LW_MEM_DEVICE, &a) != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        lw.used[a.device] -= a.size;
        lw_count(LW_CNT_DEVICE, -1);
    }
    lw_unlock();
    if (!rc)
        lw_unmap_bytes(a.base, a.mapped);
    return rc;
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    CU_BEGIN_CURRENT("cuMemHostAlloc");
    const unsigned known = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED;
    if (!rc && (!pp || bytesize == 0 || (Flags & ~known)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        /* The flags change nothing over host memory: every block is pinned and
         * seen by every context alike. */
        void *p = lw_map_bytes(bytesize);
        struct lw_alloc a = { p, bytesize, lw_page_round(bytesize), -1, LW_MEM_HOST, -1, 0 };
        if (!p || lw_reg_add(a) != 0) {
            if (p)
                lw_unmap_bytes(p, bytesize);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            lw_count(LW_CNT_HOST, 1);
            *pp = p;
        }
    }
    lw_unlock();
    return rc;
}

CUresult cuMemFreeHost(void *p)
{
    CU_BEGIN_CURRENT("cuMemFreeHost");
    struct lw_alloc a;
    if (!rc && (!p || lw_reg_remove("cuMemFreeHost", p, LW_MEM_HOST, &a) != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc)
        lw_count(LW_CNT_HOST, -1);
    lw_unlock();
    if (!rc)
        lw_unmap_bytes(a.base, a.mapped);
    return rc;
}

CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    CU_BEGIN_CURRENT("cuMemHostRegister_v2");
    const unsigned known = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
                           CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY;
    struct lw_alloc hit;
    if (!rc && (!p || bytesize == 0 || (Flags & ~known)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && lw_reg_overlap(p, bytesize, &hit))
        /* a range this face registered already has its own code; memory the
         * sim owns otherwise (device or cuMemHostAlloc blocks) is a bad value */
        rc = hit.kind == LW_MEM_REGISTERED && hit.face == LW_FACE_CUDA
                 ? CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED : CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct lw_alloc a = { p, bytesize, 0, -1, LW_MEM_REGISTERED, -1, 0 };
        if (lw_reg_add(a) != 0)
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        else
            lw_count(LW_CNT_REGISTERED, 1);
    }
    lw_unlock();
    return rc;
}

CUresult cuMemHostUnregister(void *p)
{
    CU_BEGIN_CURRENT("cuMemHostUnregister");
    struct lw_alloc a;
    if (!rc && !p)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && lw_reg_remove("cuMemHostUnregister", p, LW_MEM_REGISTERED, &a) != 0)
        rc = CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    if (!rc)
        lw_count(LW_CNT_REGISTERED, -1);
    lw_unlock();
    return rc;
}

/* ---- streams ---- */

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    CU_BEGIN_CURRENT("cuStreamCreate");
    if (!rc && (!phStream || (Flags & ~CU_STREAM_NON_BLOCKING)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct lw_stream *s = lw_stream_new(cur, false);
        if (!s || lw_stream_track(s) != 0) {
            free(s);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            /* from the default stream's time, so event pairs across the two
             * never read negative */
            s->clock = lw.default_stream[cur]->clock;
            s->flags = Flags;
            *phStream = (CUstream)s;
        }
    }
    lw_unlock();
    return rc;
}

CUresult cuStreamDestroy_v2(CUstream hStream)
{
    CU_BEGIN("cuStreamDestroy_v2");
    struct lw_stream *s = NULL;
    if (!rc && !hStream)
        rc = CUDA_ERROR_INVALID_HANDLE;   /* the default stream is not destroyed */
    if (!rc)
        rc = need_stream(hStream, &s);
    if (!rc)
        lw_stream_untrack(s);
    lw_unlock();
    return rc;
}

/* Work is done when a call returns, so a synchronize only validates. */
CUresult cuStreamSynchronize(CUstream hStream)
{
    CU_BEGIN("cuStreamSynchronize");
    struct lw_stream *s = NULL;
    if (!rc)
        rc = need_stream(hStream, &s);
    lw_unlock();
    return rc;
}

/* The stream's later work starts no earlier than the event: its clock moves up
 * to the stamp (the event may be another context's).  Never recorded: no wait. */
CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    CU_BEGIN("cuStreamWaitEvent");
    struct lw_stream *s = NULL;
    struct CUevent_st *e = event_of(hEvent);
    if (!rc && Flags != CU_EVENT_WAIT_DEFAULT)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc && !e)
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc)
        rc = need_stream(hStream, &s);
    if (!rc)
        lw_stream_wait_mark(s, &e->mark);
    lw_unlock();
    return rc;
}

/* ---- events ---- */

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    CU_BEGIN_CURRENT("cuEventCreate");
    const unsigned known = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
    /* an interprocess event must not time (cuEventCreate's documented rule) */
    if (!rc && (!phEvent || (Flags & ~known) ||
                ((Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING))))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (!rc) {
        struct CUevent_st *e = calloc(1, sizeof *e);
        if (!e || lw_set_add(&cu_events, e) != 0) {
            free(e);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            *e = (struct CUevent_st){ CUEVENT_MAGIC, Flags, cur, { false, 0.0 } };
            lw_count(LW_CNT_EVENT, 1);
            *phEvent = e;
        }
    }
    lw_unlock();
    return rc;
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    CU_BEGIN("cuEventRecord");
    struct lw_stream *s = NULL;
    struct CUevent_st *e = event_of(hEvent);
    if (!rc && !e)
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc)
        rc = need_stream(hStream, &s);
    if (!rc && s->device != e->device)
        rc = CUDA_ERROR_INVALID_HANDLE;   /* event and stream of different contexts */
    if (!rc)
        lw_mark_record(&e->mark, s);
    lw_unlock();
    return rc;
}

CUresult cuEventSynchronize(CUevent hEvent)
{
    CU_BEGIN("cuEventSynchronize");
    if (!rc && !event_of(hEvent))
        rc = CUDA_ERROR_INVALID_HANDLE;
    lw_unlock();
    return rc;
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    CU_BEGIN("cuEventElapsedTime");
    struct CUevent_st *a = event_of(hStart), *b = event_of(hEnd);
    if (!rc && !pMilliseconds)
        rc = CUDA_ERROR_INVALID_VALUE;
    /* the driver's code for an unknown event, one made with DISABLE_TIMING, and
     * one never recorded */
    if (!rc && (!a || !b || ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING) ||
                !a->mark.recorded || !b->mark.recorded))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc)
        *pMilliseconds = lw_mark_elapsed_ms(&a->mark, &b->mark);
    lw_unlock();
    return rc;
}

CUresult cuEventDestroy_v2(CUevent hEvent)
{
    CU_BEGIN("cuEventDestroy_v2");
    struct CUevent_st *e = event_of(hEvent);
    if (!rc && !e)
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (!rc) {
        lw_set_del(&cu_events, e);
        e->magic = 0;
        free(e);
        lw_count(LW_CNT_EVENT, -1);
    }
    lw_unlock();
    return rc;
}

/* ---- copies ---- */

enum copy_kind { C_HTOD, C_DTOH, C_DTOD, C_PEER };

/* Whether [p, p+n) lies inside the device allocation a. */
static bool span_ok(const void *p, size_t n, const struct lw_alloc *a)
{
    return n <= a->size - (size_t)((const char *)p - a->base);
}

/* Validation and planning; lock held.  The device sides must be this face's
 * device memory, a host side must not be (pageable or pinned both fine). */
static int plan_copy(int kind, void *dst, const void *src, size_t n, bool async, CUstream h,
                     CUcontext dctx, CUcontext sctx, struct lw_copy_plan *pl)
{
    int rc = need_init();
    if (rc)
        return rc;
    int cur = -1;
    int cur_rc = need_current(&cur);
    /* a peer copy names its contexts; the others act in the current one */
    if (kind != C_PEER && cur_rc)
        return cur_rc;
    struct CUctx_st *dc = NULL, *sc = NULL;
    if (kind == C_PEER) {
        dc = ctx_of(dctx);
        sc = ctx_of(sctx);
        if (!dc || !sc || lw.refcount[dc->device] == 0 || lw.refcount[sc->device] == 0)
            return CUDA_ERROR_INVALID_CONTEXT;
    }
    if (!dst || !src || n == 0)
        return CUDA_ERROR_INVALID_VALUE;
    struct lw_alloc sa, da;
    bool sdev = lw_find(src, LW_MEM_DEVICE, &sa), ddev = lw_find(dst, LW_MEM_DEVICE, &da);
    if (sdev != (kind != C_HTOD) || ddev != (kind != C_DTOH))
        return CUDA_ERROR_INVALID_VALUE;
    if ((sdev && !span_ok(src, n, &sa)) || (ddev && !span_ok(dst, n, &da)))
        return CUDA_ERROR_INVALID_VALUE;
    if (kind == C_PEER && (da.device != dc->device || sa.device != sc->device))
        return CUDA_ERROR_INVALID_VALUE;
    pl->path = sdev ? (ddev ? LW_P_D2D : LW_P_D2H) : LW_P_H2D;
    pl->src_dev = sdev ? sa.device : -1;
    pl->dst_dev = ddev ? da.device : -1;
    if (pl->path == LW_P_D2D && sa.device != da.device && !lw.peer[sa.device][da.device]) {
        /* cuMemcpyPeer* stage through host memory without peer access, as the
         * driver does; a plain device-to-device copy between devices is refused
         * (the sim's rule: a probe must not measure the host by mistake). */
        if (kind != C_PEER)
            return CUDA_ERROR_INVALID_VALUE;
        pl->staged = true;
    }
    pl->host_ptr = pl->path == LW_P_H2D ? src : pl->path == LW_P_D2H ? dst : NULL;
    pl->host_pinned = pl->host_ptr && lw_is_pinned(pl->host_ptr);
    if (async)
        return need_stream(h, &pl->stream);
    /* synchronous: the current context's legacy default stream; a peer copy
     * with no context current is charged to its source's */
    pl->stream = lw.default_stream[cur_rc ? sa.device : cur];
    return 0;
}

static CUresult copy(const char *fn, int kind, void *dst, const void *src, size_t n, bool async,
                     CUstream h, CUcontext dctx, CUcontext sctx)
{
    CU_ENTER(fn);
    struct lw_copy_plan pl = { 0 };
    lw_lock();
    rc = plan_copy(kind, dst, src, n, async, h, dctx, sctx, &pl);
    lw_unlock();
    if (rc)
        return rc;
    lw_copy_execute(fn, &pl, dst, src, n);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    return copy("cuMemcpyHtoD_v2", C_HTOD, as_ptr(dstDevice), srcHost, ByteCount, false, NULL, NULL, NULL);
}

CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy("cuMemcpyDtoH_v2", C_DTOH, dstHost, as_ptr(srcDevice), ByteCount, false, NULL, NULL, NULL);
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    return copy("cuMemcpyDtoD_v2", C_DTOD, as_ptr(dstDevice), as_ptr(srcDevice), ByteCount, false, NULL,
                NULL, NULL);
}

CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                      CUcontext srcContext, size_t ByteCount)
{
    return copy("cuMemcpyPeer", C_PEER, as_ptr(dstDevice), as_ptr(srcDevice), ByteCount, false, NULL,
                dstContext, srcContext);
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
    return copy("cuMemcpyHtoDAsync_v2", C_HTOD, as_ptr(dstDevice), srcHost, ByteCount, true, hStream, NULL,
                NULL);
}

CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    return copy("cuMemcpyDtoHAsync_v2", C_DTOH, dstHost, as_ptr(srcDevice), ByteCount, true, hStream, NULL,
                NULL);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                              CUstream hStream)
{
    return copy("cuMemcpyDtoDAsync_v2", C_DTOD, as_ptr(dstDevice), as_ptr(srcDevice), ByteCount, true,
                hStream, NULL, NULL);
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                           CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    return copy("cuMemcpyPeerAsync", C_PEER, as_ptr(dstDevice), as_ptr(srcDevice), ByteCount, true, hStream,
                dstContext, srcContext);
}

/* ---- error texts ---- */

struct code_text {
    int code;
    const char *name, *text;
};

static const struct code_text codes[] = {
    { CUDA_SUCCESS, "CUDA_SUCCESS", "no error" },
    { CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
    { CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
    { CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
    { CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED", "driver shutting down" },
    { CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
    { CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
    { CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context" },
    { CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED",
      "peer access is not supported between these two devices" },
    { CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle" },
    { CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
    { CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready" },
    { CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered" },
    { CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED",
      "peer access is already enabled" },
    { CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED",
      "peer access has not been enabled" },
    { CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
      "part or all of the requested memory range is already mapped" },
    { CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
      "pointer does not correspond to a registered memory region" },
    { CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported" },
    { CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error" },
};

/* Static texts; a code outside the table gives CUDA_ERROR_INVALID_VALUE and
 * NULL, as the driver does for codes it does not know. */
static CUresult code_lookup(CUresult error, const char **pStr, bool name)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i].code == (int)error) {
            *pStr = name ? codes[i].name : codes[i].text;
            return CUDA_SUCCESS;
        }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    int rc = lw_enter("cuGetErrorString");
    return rc ? (CUresult)rc : code_lookup(error, pStr, false);
}

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    int rc = lw_enter("cuGetErrorName");
    return rc ? (CUresult)rc : code_lookup(error, pStr, true);
}
