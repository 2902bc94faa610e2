/*
 * topo.c - what the profile says about the devices: links, peer access,
 * topology bits, physical ids and the SoC name.
 */
#include "internal.h"
#include <stdio.h>

/* Validates a pair of logical ids (lock held); 0 or an error code. */
static int check_pair(const char *fn, int a, int b)
{
    int rc = lw_check_init(fn);
    if (rc)
        return rc;
    if (!lw_dev_valid(a) || !lw_dev_valid(b)) {
        lw_err("%s: invalid device id %d (the profile has %d device(s))", fn,
               lw_dev_valid(a) ? b : a, lw.prof.ndev);
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    if (a == b) {
        lw_err("%s: device %d and peer %d are the same device", fn, a, b);
        return ACL_ERROR_INVALID_PARAM;
    }
    return 0;
}

aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId)
{
    int rc = lw_enter("aclrtDeviceCanAccessPeer");
    if (rc)
        return rc;
    if (!canAccessPeer) {
        lw_err("aclrtDeviceCanAccessPeer: canAccessPeer is NULL");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    rc = check_pair("aclrtDeviceCanAccessPeer", deviceId, peerDeviceId);
    if (!rc)
        *canAccessPeer = lw.prof.link[deviceId][peerDeviceId].type != LW_LINK_NONE;
    lw_unlock();
    return rc;
}

/* Enabling is directional (current device -> peer), as in the documented sample. */
aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags)
{
    int rc = lw_enter("aclrtDeviceEnablePeerAccess");
    if (rc)
        return rc;
    if (flags != 0) {
        lw_err("aclrtDeviceEnablePeerAccess: flags must be 0 (got 0x%x)", flags);
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    int cur = -1;
    rc = lw_current("aclrtDeviceEnablePeerAccess", &cur);
    if (!rc)
        rc = check_pair("aclrtDeviceEnablePeerAccess", cur, peerDeviceId);
    if (!rc && lw.prof.link[cur][peerDeviceId].type == LW_LINK_NONE) {
        lw_err("aclrtDeviceEnablePeerAccess: device %d cannot access device %d (no link)", cur,
               peerDeviceId);
        rc = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    }
    if (!rc)
        lw.peer[cur][peerDeviceId] = true;
    lw_unlock();
    return rc;
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
    int rc = lw_enter("aclrtDeviceDisablePeerAccess");
    if (rc)
        return rc;
    lw_lock();
    int cur = -1;
    rc = lw_current("aclrtDeviceDisablePeerAccess", &cur);
    if (!rc)
        rc = check_pair("aclrtDeviceDisablePeerAccess", cur, peerDeviceId);
    if (!rc)
        lw.peer[cur][peerDeviceId] = false;
    lw_unlock();
    return rc;
}

aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value)
{
    int rc = lw_enter("aclrtGetDevicesTopo");
    if (rc)
        return rc;
    if (!value) {
        lw_err("aclrtGetDevicesTopo: value is NULL");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    int a = deviceId > INT32_MAX ? -1 : (int)deviceId, b = otherDeviceId > INT32_MAX ? -1 : (int)otherDeviceId;
    rc = check_pair("aclrtGetDevicesTopo", a, b);
    if (!rc) {
        int type = lw.prof.link[a][b].type;
        if (type == LW_LINK_NONE) {
            lw_err("aclrtGetDevicesTopo: the profile has no link between device %d and %d", a, b);
            rc = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
        } else {
            *value = lw_link_type_topo_bit(type);
        }
    }
    lw_unlock();
    return rc;
}

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId)
{
    int rc = lw_enter("aclrtGetPhyDevIdByLogicDevId");
    if (rc)
        return rc;
    if (!phyDevId) {
        lw_err("aclrtGetPhyDevIdByLogicDevId: phyDevId is NULL");
        return ACL_ERROR_INVALID_PARAM;
    }
    lw_lock();
    rc = lw_check_init("aclrtGetPhyDevIdByLogicDevId");
    if (!rc && !lw_dev_valid(logicDevId)) {
        lw_err("aclrtGetPhyDevIdByLogicDevId: invalid logical device id %d", logicDevId);
        rc = ACL_ERROR_RT_INVALID_DEVICEID;
    }
    if (!rc)
        *phyDevId = lw.prof.phy[logicDevId];
    lw_unlock();
    return rc;
}

const char *aclrtGetSocName(void)
{
    if (lw_enter("aclrtGetSocName") != 0)
        return NULL;
    lw_lock();
    /* The profile (and so the name) is only replaced by aclInit, so the
     * pointer stays valid until the next aclFinalize/aclInit pair. */
    const char *name = lw_check_init("aclrtGetSocName") ? NULL : lw.prof.soc;
    lw_unlock();
    return name;
}

/* The sim-only calls below answer for the Ascend face (the npu-smi stand-in, the
 * Ascend binding); they take no lw_enter, so they say so themselves. */
const char *linkwatch_sim_link_name(int32_t src, int32_t dst)
{
    lw_face = LW_FACE_ACL;
    lw_lock();
    const char *name = NULL;
    if (lw_dev_valid(src) && lw_dev_valid(dst))
        name = lw_link_type_name(lw.prof.link[src][dst].type);
    lw_unlock();
    return name;
}

const char *linkwatch_sim_affinity(int32_t device)
{
    lw_face = LW_FACE_ACL;
    lw_lock();
    const char *aff = lw_dev_valid(device) && lw.prof.affinity[device][0] ? lw.prof.affinity[device] : NULL;
    lw_unlock();
    return aff;
}
