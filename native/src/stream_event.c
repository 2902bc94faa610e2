/*
 * stream_event.c - streams carry a virtual device clock; events stamp it.
 *
 * Copies and reductions run synchronously inside the call and advance their
 * stream's clock by the modeled duration, so event pairs around them read the
 * model's time (or, in pass-through mode, the real CLOCK_MONOTONIC time).
 * Handles are checked against live sets so a stale or foreign pointer gives
 * ACL_ERROR_INVALID_PARAM instead of a crash, as the real runtime does.
 */
#include "internal.h"
#include <stdlib.h>

#define STREAM_MAGIC 0x5354524du
#define EVENT_MAGIC 0x45564e54u

struct lw_event {
    uint32_t magic;
    uint32_t flag;
    struct lw_mark mark;
};

void lw_mark_record(struct lw_mark *m, const struct lw_stream *s)
{
    m->stamp = lw.prof.passthrough ? lw_now() : s->clock;
    m->recorded = true;
}

void lw_stream_wait_mark(struct lw_stream *s, const struct lw_mark *m)
{
    if (m->recorded && !lw.prof.passthrough && m->stamp > s->clock)
        s->clock = m->stamp;
}

float lw_mark_elapsed_ms(const struct lw_mark *start, const struct lw_mark *end)
{
    return (float)((end->stamp - start->stamp) * 1e3);
}

static struct lw_set streams, events;   /* user-created only, both faces' streams; lw.lock */

int lw_set_add(struct lw_set *s, void *p)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 32;
        void **ni = realloc(s->items, nc * sizeof *ni);
        if (!ni)
            return -1;
        s->items = ni;
        s->cap = nc;
    }
    s->items[s->n++] = p;
    return 0;
}

bool lw_set_has(const struct lw_set *s, const void *p)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->items[i] == p)
            return true;
    return false;
}

void lw_set_del(struct lw_set *s, const void *p)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->items[i] == p) {
            s->items[i] = s->items[--s->n];
            return;
        }
}

struct lw_stream *lw_stream_new(int device, bool is_default)
{
    struct lw_stream *s = calloc(1, sizeof *s);
    if (s)
        *s = (struct lw_stream){ STREAM_MAGIC, device, 0.0, is_default, lw_face, 0 };
    return s;
}

struct lw_stream *lw_stream_lookup(const void *h)
{
    if (!h || !lw_set_has(&streams, h))
        return NULL;
    struct lw_stream *s = (struct lw_stream *)h;
    return s->face == lw_face ? s : NULL;
}

int lw_stream_track(struct lw_stream *s)
{
    if (lw_set_add(&streams, s) != 0)
        return -1;
    lw_count(LW_CNT_STREAM, 1);
    return 0;
}

void lw_stream_untrack(struct lw_stream *s)
{
    lw_set_del(&streams, s);
    lw_stream_free(s);
    lw_count(LW_CNT_STREAM, -1);
}

void lw_stream_free(struct lw_stream *s)
{
    if (s)
        s->magic = 0;
    free(s);
}

struct lw_stream *lw_stream_resolve(aclrtStream h, const char *fn)
{
    if (!h) {
        int dev;
        if (lw_current(fn, &dev) != 0)
            return NULL;
        return lw.default_stream[dev];
    }
    struct lw_stream *s = lw_stream_lookup(h);
    if (!s)
        lw_err("%s: stream %p is not a live stream", fn, h);
    return s;
}

/* Maps a failed lw_stream_resolve to its code from the message kind. */
static int resolve_code(aclrtStream h)
{
    if (h)
        return ACL_ERROR_INVALID_PARAM;
    return lw.initialized ? ACL_ERROR_RT_CONTEXT_NULL : ACL_ERROR_UNINITIALIZE;
}

aclError aclrtCreateStream(aclrtStream *stream)
{
    int rc = lw_enter("aclrtCreateStream");
    if (rc)
        return rc;
    if (!stream) {
        lw_err("aclrtCreateStream: stream is NULL");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    int dev = -1;
    rc = lw_current("aclrtCreateStream", &dev);
    if (!rc) {
        struct lw_stream *s = lw_stream_new(dev, false);
        if (!s || lw_stream_track(s) != 0) {
            free(s);
            lw_err("aclrtCreateStream: out of memory");
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        } else {
            /* Start at the device's default clock so mixed-stream event
             * pairs still give sensible (non-negative) intervals. */
            s->clock = lw.default_stream[dev]->clock;
            *stream = s;
        }
    }
    lw_unlock();
    return rc;
}

aclError aclrtDestroyStream(aclrtStream stream)
{
    int rc = lw_enter("aclrtDestroyStream");
    if (rc)
        return rc;
    lw_lock();
    if (!lw_stream_lookup(stream)) {
        lw_err("aclrtDestroyStream: %p is not a live stream (NULL, unknown or already destroyed)", stream);
        rc = ACL_ERROR_INVALID_PARAM;
    } else if (((struct lw_stream *)stream)->device != lw_cur_dev) {
        /* aclrtDestroyStream.md: the stream must be in the current context, i.e. its device's
         * context is current on this thread; else ACL_ERROR_RT_STREAM_CONTEXT (aclError.md). */
        int dev = ((struct lw_stream *)stream)->device;
        if (lw_dev_valid(lw_cur_dev))
            lw_err("aclrtDestroyStream: stream %p belongs to device %d but device %d is current on "
                   "this thread (aclrtSetDevice(%d) first)", stream, dev, lw_cur_dev, dev);
        else
            lw_err("aclrtDestroyStream: stream %p belongs to device %d and no device is current on "
                   "this thread (aclrtSetDevice(%d) first)", stream, dev, dev);
        rc = lw_dev_valid(lw_cur_dev) ? ACL_ERROR_RT_STREAM_CONTEXT : ACL_ERROR_RT_CONTEXT_NULL;
    } else {
        lw_stream_untrack(stream);
    }
    lw_unlock();
    return rc;
}

/* Work is already done when a call returns, so syncing only validates. */
aclError aclrtSynchronizeStream(aclrtStream stream)
{
    int rc = lw_enter("aclrtSynchronizeStream");
    if (rc)
        return rc;
    lw_lock();
    if (!lw_stream_resolve(stream, "aclrtSynchronizeStream"))
        rc = resolve_code(stream);
    lw_unlock();
    return rc;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
    int rc = lw_enter("aclrtSynchronizeStreamWithTimeout");
    if (rc)
        return rc;
    if (timeout < -1) {
        lw_err("aclrtSynchronizeStreamWithTimeout: timeout %d ms (must be -1 or >= 0)", timeout);
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    if (!lw_stream_resolve(stream, "aclrtSynchronizeStreamWithTimeout"))
        rc = resolve_code(stream);
    lw_unlock();
    return rc;
}

aclError aclrtSynchronizeDevice(void)
{
    int rc = lw_enter("aclrtSynchronizeDevice");
    if (rc)
        return rc;
    lw_lock();
    int dev;
    rc = lw_current("aclrtSynchronizeDevice", &dev);
    lw_unlock();
    return rc;
}

static aclError create_event(const char *fn, aclrtEvent *event, uint32_t flag)
{
    int rc = lw_enter(fn);
    if (rc)
        return rc;
    const uint32_t known = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE |
                           ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL;
    if (!event || (flag & ~known)) {
        lw_err("%s: %s", fn, !event ? "event is NULL" : "unknown flag bits");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    rc = lw_check_init(fn);
    if (!rc) {
        struct lw_event *e = calloc(1, sizeof *e);
        if (!e || lw_set_add(&events, e) != 0) {
            free(e);
            lw_err("%s: out of memory", fn);
            rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        } else {
            e->magic = EVENT_MAGIC;
            e->flag = flag;
            lw_count(LW_CNT_EVENT, 1);
            *event = e;
        }
    }
    lw_unlock();
    return rc;
}

aclError aclrtCreateEvent(aclrtEvent *event)
{
    return create_event("aclrtCreateEvent", event, 0);
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
    return create_event("aclrtCreateEventWithFlag", event, flag);
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
    int rc = lw_enter("aclrtRecordEvent");
    if (rc)
        return rc;
    lw_lock();
    struct lw_stream *s = NULL;
    if (!event || !lw_set_has(&events, event)) {
        lw_err("aclrtRecordEvent: %p is not a live event", event);
        rc = ACL_ERROR_INVALID_PARAM;
    } else if (!(s = lw_stream_resolve(stream, "aclrtRecordEvent"))) {
        rc = resolve_code(stream);
    } else {
        lw_mark_record(&((struct lw_event *)event)->mark, s);
    }
    lw_unlock();
    return rc;
}

/* The stream's later work starts no earlier than the event: its clock moves
 * up to the event's stamp.  An event never recorded is nothing to wait for. */
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
    int rc = lw_enter("aclrtStreamWaitEvent");
    if (rc)
        return rc;
    lw_lock();
    struct lw_stream *s = NULL;
    if (!event || !lw_set_has(&events, event)) {
        lw_err("aclrtStreamWaitEvent: %p is not a live event", event);
        rc = ACL_ERROR_INVALID_PARAM;
    } else if (!(s = lw_stream_resolve(stream, "aclrtStreamWaitEvent"))) {
        rc = resolve_code(stream);
    } else {
        lw_stream_wait_mark(s, &((struct lw_event *)event)->mark);
    }
    lw_unlock();
    return rc;
}

aclError aclrtSynchronizeEvent(aclrtEvent event)
{
    int rc = lw_enter("aclrtSynchronizeEvent");
    if (rc)
        return rc;
    lw_lock();
    if (!event || !lw_set_has(&events, event)) {
        lw_err("aclrtSynchronizeEvent: %p is not a live event", event);
        rc = ACL_ERROR_INVALID_PARAM;
    }
    lw_unlock();
    return rc;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
    int rc = lw_enter("aclrtEventElapsedTime");
    if (rc)
        return rc;
    lw_lock();
    if (!ms) {
        lw_err("aclrtEventElapsedTime: ms is NULL");
        rc = ACL_ERROR_INVALID_PARAM;
    } else if (!startEvent || !lw_set_has(&events, startEvent) || !endEvent || !lw_set_has(&events, endEvent)) {
        lw_err("aclrtEventElapsedTime: %s event %p is not a live event",
               (!startEvent || !lw_set_has(&events, startEvent)) ? "start" : "end",
               (!startEvent || !lw_set_has(&events, startEvent)) ? startEvent : endEvent);
        rc = ACL_ERROR_INVALID_PARAM;
    } else {
        struct lw_event *a = startEvent, *b = endEvent;
        if (!a->mark.recorded || !b->mark.recorded) {
            lw_err("aclrtEventElapsedTime: %s event was never recorded",
                   !a->mark.recorded ? "start" : "end");
            rc = ACL_ERROR_INVALID_PARAM;
        } else {
            *ms = lw_mark_elapsed_ms(&a->mark, &b->mark);
        }
    }
    lw_unlock();
    return rc;
}

aclError aclrtDestroyEvent(aclrtEvent event)
{
    int rc = lw_enter("aclrtDestroyEvent");
    if (rc)
        return rc;
    lw_lock();
    if (!event || !lw_set_has(&events, event)) {
        lw_err("aclrtDestroyEvent: %p is not a live event (NULL, unknown or already destroyed)", event);
        rc = ACL_ERROR_INVALID_PARAM;
    } else {
        lw_set_del(&events, event);
        ((struct lw_event *)event)->magic = 0;
        free(event);
        lw_count(LW_CNT_EVENT, -1);
    }
    lw_unlock();
    return rc;
}
