/*
 * runtime.c - process state: aclInit/aclFinalize and the current device
 * (the CUDA face's counterparts are in cuda.c).
 *
 * One mutex guards all shared state.  The sim is a measurement stand-in, not
 * a throughput engine, so simplicity beats fine-grained locking; the long
 * parts (memcpy, reductions, hangs, rendezvous) run without this lock.
 */
#include "internal.h"
#include <stdio.h>
#include <string.h>

struct lw_state lw_states[LW_FACES];
_Thread_local int lw_face = LW_FACE_ACL;
_Thread_local int lw_cur_devs[LW_FACES] = { -1, -1 };
/* One lock for both faces: they share the registries. */
static pthread_mutex_t lw_mutex = PTHREAD_MUTEX_INITIALIZER;

void lw_lock(void) { pthread_mutex_lock(&lw_mutex); }
void lw_unlock(void) { pthread_mutex_unlock(&lw_mutex); }

bool lw_dev_valid(int dev)
{
    return lw.initialized && dev >= 0 && dev < lw.prof.ndev;
}

int lw_check_init(const char *fn)
{
    if (lw.initialized)
        return 0;
    lw_err("%s: aclInit has not been called", fn);
    return ACL_ERROR_UNINITIALIZE;
}

int lw_current(const char *fn, int *dev)
{
    int rc = lw_check_init(fn);
    if (rc)
        return rc;
    if (!lw_dev_valid(lw_cur_dev)) {
        lw_err("%s: no current device on this thread (call aclrtSetDevice first)", fn);
        return ACL_ERROR_RT_CONTEXT_NULL;
    }
    *dev = lw_cur_dev;
    return 0;
}

aclError aclInit(const char *configPath)
{
    (void)configPath;   /* the real JSON config only tunes logging/dump; nothing to model */
    int rc = lw_enter("aclInit");
    if (rc)
        return rc;
    lw_lock();
    if (lw.initialized) {
        lw_unlock();
        lw_err("aclInit: already initialized (repeat initialization)");
        return ACL_ERROR_REPEAT_INITIALIZE;
    }
    char err[512];
    struct lw_profile p;
    if (lw_profile_load(LW_FACE_ACL, &p, err, sizeof err) != 0) {
        lw_unlock();
        lw_err("aclInit: bad simulator profile: %s", err);
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_links_topology(LW_FACE_ACL, &p);
    int keep[LW_MAX_DEVICES];
    int visible = lw_visible_devices(p.ndev, keep);
    lw_profile_restrict(&p, keep, visible);
    lw.prof = p;
    memcpy(lw.physical, keep, sizeof keep);
    memset(lw.peer, 0, sizeof lw.peer);
    memset(lw.link_use, 0, sizeof lw.link_use);
    memset(lw.refcount, 0, sizeof lw.refcount);
    for (int d = 0; d < p.ndev; d++)
        lw.default_stream[d] = lw_stream_new(d, true);
    lw.initialized = true;
    lw_unlock();
    lw_note_acl_used();
    return ACL_SUCCESS;
}

aclError aclFinalize(void)
{
    int rc = lw_enter("aclFinalize");
    if (rc)
        return rc;
    lw_lock();
    if (!lw.initialized) {
        lw_unlock();
        lw_err("aclFinalize: not initialized (repeat finalize)");
        return ACL_ERROR_REPEAT_FINALIZE;
    }
    /* User allocations, streams and events are left alone on purpose: the
     * live counters must show what the caller forgot to free. */
    for (int d = 0; d < lw.prof.ndev; d++) {
        lw_stream_free(lw.default_stream[d]);
        lw.default_stream[d] = NULL;
    }
    lw.initialized = false;
    lw_unlock();
    return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId)
{
    int rc = lw_enter("aclrtSetDevice");
    if (rc)
        return rc;
    lw_lock();
    rc = lw_check_init("aclrtSetDevice");
    if (!rc && !lw_dev_valid(deviceId)) {
        lw_err("aclrtSetDevice: invalid device id %d (%d device(s) visible)", deviceId,
               lw.prof.ndev);
        rc = ACL_ERROR_RT_INVALID_DEVICEID;
    }
    if (!rc) {
        lw_cur_dev = deviceId;
        lw.refcount[deviceId]++;
    }
    lw_unlock();
    return rc;
}

aclError aclrtResetDevice(int32_t deviceId)
{
    int rc = lw_enter("aclrtResetDevice");
    if (rc)
        return rc;
    lw_lock();
    rc = lw_check_init("aclrtResetDevice");
    if (!rc && !lw_dev_valid(deviceId)) {
        lw_err("aclrtResetDevice: invalid device id %d", deviceId);
        rc = ACL_ERROR_RT_INVALID_DEVICEID;
    }
    if (!rc && lw.refcount[deviceId] > 0 && --lw.refcount[deviceId] == 0) {
        /* Last reference: peer access from this device goes with its context. */
        for (int d = 0; d < LW_MAX_DEVICES; d++)
            lw.peer[deviceId][d] = false;
    }
    lw_unlock();
    return rc;
}

aclError aclrtGetDeviceCount(uint32_t *count)
{
    int rc = lw_enter("aclrtGetDeviceCount");
    if (rc)
        return rc;
    lw_lock();
    rc = lw_check_init("aclrtGetDeviceCount");
    if (!rc && !count) {
        lw_err("aclrtGetDeviceCount: count is NULL");
        rc = ACL_ERROR_INVALID_PARAM;
    }
    if (!rc)
        *count = (uint32_t)lw.prof.ndev;
    lw_unlock();
    return rc;
}

aclError aclrtGetDevice(int32_t *deviceId)
{
    int rc = lw_enter("aclrtGetDevice");
    if (rc)
        return rc;
    lw_lock();
    int dev = -1;
    if (!deviceId) {
        lw_err("aclrtGetDevice: deviceId is NULL");
        rc = ACL_ERROR_INVALID_PARAM;
    } else {
        rc = lw_current("aclrtGetDevice", &dev);
    }
    if (!rc)
        *deviceId = dev;
    lw_unlock();
    return rc;
}
