/*
 * nccl.c - the NCCL subset (libnccl.so.2): one process drives every rank, one
 * thread per rank, over the same rendezvous, reductions and time model as
 * HCCL's collectives (hccl.c), with NCCL's types, ops and result codes.
 *
 * Ranks are CUDA ordinals (after CUDA_VISIBLE_DEVICES); buffers must be the
 * rank's device memory (cuMemAlloc_v2), streams the rank device's (NULL: its
 * legacy default stream).  A rank whose peers do not come within the
 * collective timeout (the profile's `hccl timeout`, HCCL_EXEC_TIMEOUT
 * overriding it, as for HCCL) returns ncclSystemError: nccl.h has no timeout
 * result.
 *
 * ncclGetUniqueId / ncclCommInitRank make one rank at a time, possibly in
 * several processes; their rounds go over TCP (hccl_net.c).  A rank lost
 * mid-round, or rank 0 never reached, is ncclRemoteError ("remote process
 * exited or there was a network error"); no interface matching
 * NCCL_SOCKET_IFNAME is ncclInvalidUsage, as NCCL's bootstrap answers.
 */
#include "internal.h"

ncclResult_t ncclGetVersion(int *version)
{
    int rc = lw_enter("ncclGetVersion");
    if (rc)
        return rc;
    if (!version)
        return ncclInvalidArgument;
    *version = NCCL_VERSION(2, 27, 3);
    return ncclSuccess;
}

ncclResult_t ncclCommInitAll(ncclComm_t *comm, int ndev, const int *devlist)
{
    int rc = lw_enter("ncclCommInitAll");
    if (rc)
        return rc;
    if (!comm || ndev < 1)
        return ncclInvalidArgument;
    int devs[LW_MAX_DEVICES];
    lw_lock();
    /* NCCL brings the CUDA runtime up itself, so this may be the first call */
    if (lw_cuda_init_locked() != CUDA_SUCCESS)
        rc = ncclUnhandledCudaError;
    else if (ndev > lw.prof.ndev)
        rc = ncclInvalidArgument;
    for (int i = 0; !rc && i < ndev; i++) {
        devs[i] = devlist ? devlist[i] : i;
        if (!lw_dev_valid(devs[i]))
            rc = ncclInvalidArgument;
        for (int j = 0; !rc && j < i; j++)
            if (devs[j] == devs[i])
                rc = ncclInvalidUsage;   /* NCCL refuses a device given twice */
    }
    lw_unlock();
    void *made[LW_MAX_DEVICES];
    if (rc)
        return rc;
    if (lw_comm_create(ndev, devs, made) != 0)
        return ncclSystemError;
    for (int i = 0; i < ndev; i++)
        comm[i] = made[i];
    return ncclSuccess;
}

ncclResult_t ncclGetUniqueId(ncclUniqueId *uniqueId)
{
    int rc = lw_enter("ncclGetUniqueId");
    if (rc)
        return rc;
    if (!uniqueId)
        return ncclInvalidArgument;
    HcclResult r = lw_net_root_info("ncclGetUniqueId", uniqueId->internal, sizeof uniqueId->internal);
    return r == HCCL_SUCCESS ? ncclSuccess : r == HCCL_E_PARA ? ncclInvalidUsage : ncclSystemError;
}

static ncclResult_t result_of(HcclResult r);

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank)
{
    int rc = lw_enter("ncclCommInitRank");
    if (rc)
        return rc;
    if (!comm || nranks < 1 || rank < 0 || rank >= nranks)
        return ncclInvalidArgument;
    void *made = NULL;
    HcclResult r = lw_net_init("ncclCommInitRank", commId.internal, sizeof commId.internal, (uint32_t)nranks,
                               (uint32_t)rank, &made);
    if (r == HCCL_SUCCESS)
        *comm = made;
    return result_of(r);
}

ncclResult_t ncclCommDestroy(ncclComm_t comm)
{
    int rc = lw_enter("ncclCommDestroy");
    if (rc)
        return rc;
    if (!comm)
        return ncclSuccess;   /* as NCCL: destroying NULL is a no-op */
    return lw_comm_destroy(comm) == 0 ? ncclSuccess : ncclInvalidArgument;
}

/* NCCL's data type as HCCL's (the reductions' numbering), -1 when the core
 * has no such type. */
static int hccl_type(int t)
{
    switch (t) {
    case ncclInt8: return HCCL_DATA_TYPE_INT8;
    case ncclUint8: return HCCL_DATA_TYPE_UINT8;
    case ncclInt32: return HCCL_DATA_TYPE_INT32;
    case ncclUint32: return HCCL_DATA_TYPE_UINT32;
    case ncclInt64: return HCCL_DATA_TYPE_INT64;
    case ncclUint64: return HCCL_DATA_TYPE_UINT64;
    case ncclFloat16: return HCCL_DATA_TYPE_FP16;
    case ncclFloat32: return HCCL_DATA_TYPE_FP32;
    case ncclFloat64: return HCCL_DATA_TYPE_FP64;
    case ncclBfloat16: return HCCL_DATA_TYPE_BFP16;
    default: return -1;
    }
}

static ncclResult_t result_of(HcclResult r)
{
    switch (r) {
    case HCCL_SUCCESS: return ncclSuccess;
    case HCCL_E_PARA:
    case HCCL_E_PTR:
    case HCCL_E_NOT_SUPPORT: return ncclInvalidArgument;
    case HCCL_E_TIMEOUT:
    case HCCL_E_SYSCALL:
    case HCCL_E_MEMORY: return ncclSystemError;
    case HCCL_E_TCP_CONNECT:
    case HCCL_E_TCP_TRANSFER: return ncclRemoteError;
    case HCCL_E_RUNTIME: return ncclUnhandledCudaError;
    default: return ncclInternalError;
    }
}

static ncclResult_t collective(const char *fn, int coll, const void *send, void *recv, size_t count,
                               ncclDataType_t datatype, int op, ncclComm_t comm, CUstream stream)
{
    int type = hccl_type((int)datatype);
    /* the core reduces SUM, PROD, MAX and MIN (the same numbers in both APIs); no AVG */
    if (type < 0 || (coll == LW_ALLREDUCE && (op < ncclSum || op > ncclMin)))
        return ncclInvalidArgument;
    return result_of(lw_collective(fn, coll, (void *)send, recv, (uint64_t)count, type,
                                   coll == LW_ALLREDUCE ? op : -1, comm, stream));
}

ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
                           ncclRedOp_t op, ncclComm_t comm, CUstream stream)
{
    int rc = lw_enter("ncclAllReduce");
    if (rc)
        return rc;
    return collective("ncclAllReduce", LW_ALLREDUCE, sendbuff, recvbuff, count, datatype, (int)op, comm,
                      stream);
}

/* recvbuff holds sendcount elements from every rank, rank k's at block k. */
ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount, ncclDataType_t datatype,
                           ncclComm_t comm, CUstream stream)
{
    int rc = lw_enter("ncclAllGather");
    if (rc)
        return rc;
    return collective("ncclAllGather", LW_ALLGATHER, sendbuff, recvbuff, sendcount, datatype, 0, comm,
                      stream);
}

/* ---- point to point ---- */

/* The calls queued between ncclGroupStart and ncclGroupEnd, per thread, as
 * NCCL's groups are. */
#define GROUP_MAX 64
static _Thread_local struct queued {
    struct lw_p2p_item item;
    ncclComm_t comm;
    CUstream stream;
} group_q[GROUP_MAX];
static _Thread_local int group_depth, group_n;
static _Thread_local ncclResult_t group_error;   /* a call refused while queueing */

static ncclResult_t p2p_call(const char *fn, bool send, const void *buf, size_t count, ncclDataType_t datatype,
                             int peer, ncclComm_t comm, CUstream stream)
{
    int rc = lw_enter(fn);
    if (rc)
        return rc;
    int type = hccl_type((int)datatype);
    if (type < 0) {
        lw_err("%s: data type %d not supported by the simulator", fn, (int)datatype);
        return ncclInvalidArgument;
    }
    struct lw_p2p_item it = { send, (void *)buf, (uint64_t)count, type, peer };
    if (group_depth == 0)
        return result_of(lw_p2p(fn, &it, 1, comm, stream));
    if (group_n == GROUP_MAX) {
        lw_err("%s: more than %d calls in one group", fn, GROUP_MAX);
        group_error = ncclInvalidUsage;
        return ncclInvalidUsage;
    }
    group_q[group_n++] = (struct queued){ it, comm, stream };
    return ncclSuccess;
}

ncclResult_t ncclSend(const void *sendbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      CUstream stream)
{
    return p2p_call("ncclSend", true, sendbuff, count, datatype, peer, comm, stream);
}

ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      CUstream stream)
{
    return p2p_call("ncclRecv", false, recvbuff, count, datatype, peer, comm, stream);
}

ncclResult_t ncclGroupStart(void)
{
    int rc = lw_enter("ncclGroupStart");
    if (rc)
        return rc;
    if (group_depth++ == 0) {
        group_n = 0;
        group_error = ncclSuccess;
    }
    return ncclSuccess;
}

/* The outermost end runs the queued calls, one communicator's together; the
 * first failure is the group's. */
ncclResult_t ncclGroupEnd(void)
{
    int rc = lw_enter("ncclGroupEnd");
    if (rc)
        return rc;
    if (group_depth == 0) {
        lw_err("ncclGroupEnd: no ncclGroupStart before it");
        return ncclInvalidUsage;
    }
    if (--group_depth > 0)
        return ncclSuccess;
    ncclResult_t out = group_error;
    bool done[GROUP_MAX] = { false };
    for (int i = 0; i < group_n && out == ncclSuccess; i++) {
        if (done[i])
            continue;
        struct lw_p2p_item items[GROUP_MAX];
        int n = 0;
        bool receives = false;
        for (int j = i; j < group_n; j++)
            if (!done[j] && group_q[j].comm == group_q[i].comm) {
                items[n++] = group_q[j].item;
                receives |= !group_q[j].item.send;
                done[j] = true;
            }
        /* named after its receive, so a control-file rule on ncclRecv applies */
        out = result_of(lw_p2p(receives ? "ncclRecv" : "ncclSend", items, n, group_q[i].comm,
                               group_q[i].stream));
    }
    group_n = 0;
    return out;
}

const char *ncclGetErrorString(ncclResult_t result)
{
    if (lw_enter("ncclGetErrorString") != 0)
        return NULL;
    switch ((int)result) {
    case ncclSuccess: return "no error";
    case ncclUnhandledCudaError: return "unhandled cuda error";
    case ncclSystemError: return "unhandled system error";
    case ncclInternalError: return "internal error";
    case ncclInvalidArgument: return "invalid argument";
    case ncclInvalidUsage: return "invalid usage";
    case ncclRemoteError: return "remote process exited or there was a network error";
    case ncclInProgress: return "NCCL operation in progress";
    default: return "unknown result code";
    }
}
