/*
 * linkwatch_sim_cuda.h - the CUDA face of liblinkwatch-sim.so: the subset of the
 * CUDA driver API (libcuda.so.1), NVML (libnvidia-ml.so.1) and NCCL
 * (libnccl.so.2) that linkwatch uses.
 *
 * Names, prototypes, enum values and error codes follow the public cuda.h,
 * nvml.h and nccl.h, so that a caller bound to the real libraries can load
 * this library instead.  Where cuda.h maps a call to a versioned symbol
 * (cuMemAlloc -> cuMemAlloc_v2), the versioned symbol is what is exported, as
 * a binding that looks symbols up by name must ask for it.  Only the values
 * the simulator implements or checks are defined here.
 */
#ifndef LINKWATCH_SIM_CUDA_H
#define LINKWATCH_SIM_CUDA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LW_EXPORT
#define LW_EXPORT __attribute__((visibility("default")))
#endif

/* ---- CUDA driver API types ------------------------------------------------ */
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_DEINITIALIZED = 4,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
    CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705,
    CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
    CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
    CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_UNKNOWN = 999
} CUresult;

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;   /* 64-bit, as on every 64-bit host */
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

#define CU_STREAM_DEFAULT 0x0u
#define CU_STREAM_NON_BLOCKING 0x1u

#define CU_EVENT_DEFAULT 0x0u
#define CU_EVENT_BLOCKING_SYNC 0x1u
#define CU_EVENT_DISABLE_TIMING 0x2u
#define CU_EVENT_INTERPROCESS 0x4u

#define CU_EVENT_WAIT_DEFAULT 0x0u

#define CU_MEMHOSTALLOC_PORTABLE 0x01u
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02u
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04u

#define CU_MEMHOSTREGISTER_PORTABLE 0x01u
#define CU_MEMHOSTREGISTER_DEVICEMAP 0x02u
#define CU_MEMHOSTREGISTER_IOMEMORY 0x04u
#define CU_MEMHOSTREGISTER_READ_ONLY 0x08u

/* ---- CUDA driver API functions ----------------------------------------------- */
LW_EXPORT CUresult cuInit(unsigned int Flags);
LW_EXPORT CUresult cuDriverGetVersion(int *driverVersion);
LW_EXPORT CUresult cuDeviceGetCount(int *count);
LW_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal);
LW_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
LW_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
LW_EXPORT CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev);
LW_EXPORT CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev);
LW_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
LW_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
LW_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx);
LW_EXPORT CUresult cuCtxGetDevice(CUdevice *device);
LW_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags);
LW_EXPORT CUresult cuMemGetInfo_v2(size_t *free, size_t *total);
LW_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);
LW_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr);
LW_EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
LW_EXPORT CUresult cuMemFreeHost(void *p);
LW_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags);
LW_EXPORT CUresult cuMemHostUnregister(void *p);
LW_EXPORT CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags);
LW_EXPORT CUresult cuStreamDestroy_v2(CUstream hStream);
LW_EXPORT CUresult cuStreamSynchronize(CUstream hStream);
LW_EXPORT CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
LW_EXPORT CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags);
LW_EXPORT CUresult cuEventRecord(CUevent hEvent, CUstream hStream);
LW_EXPORT CUresult cuEventSynchronize(CUevent hEvent);
LW_EXPORT CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
LW_EXPORT CUresult cuEventDestroy_v2(CUevent hEvent);
LW_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
LW_EXPORT CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
LW_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
LW_EXPORT CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                CUcontext srcContext, size_t ByteCount);
LW_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                        CUstream hStream);
LW_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                        CUstream hStream);
LW_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                        CUstream hStream);
LW_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                     CUcontext srcContext, size_t ByteCount, CUstream hStream);
LW_EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr);
LW_EXPORT CUresult cuGetErrorName(CUresult error, const char **pStr);

/* ---- NVML types ------------------------------------------------------------ */
typedef enum nvmlReturn_enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_ALREADY_INITIALIZED = 5,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_GPU_IS_LOST = 15,
    NVML_ERROR_UNKNOWN = 999
} nvmlReturn_t;

typedef struct nvmlDevice_st *nvmlDevice_t;

#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE 32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE 16
typedef struct nvmlPciInfo_st {
    char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];   /* "%04X:%02X:%02X.0" */
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;       /* device id << 16 | vendor id */
    unsigned int pciSubSystemId;
    char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];            /* "%08X:%02X:%02X.0" */
} nvmlPciInfo_t;

typedef enum nvmlGpuLevel_enum {
    NVML_TOPOLOGY_INTERNAL = 0,
    NVML_TOPOLOGY_SINGLE = 10,
    NVML_TOPOLOGY_MULTIPLE = 20,
    NVML_TOPOLOGY_HOSTBRIDGE = 30,
    NVML_TOPOLOGY_NODE = 40,
    NVML_TOPOLOGY_SYSTEM = 50
} nvmlGpuTopologyLevel_t;

typedef enum nvmlGpuP2PCapsIndex_enum {
    NVML_P2P_CAPS_INDEX_READ = 0,
    NVML_P2P_CAPS_INDEX_WRITE = 1,
    NVML_P2P_CAPS_INDEX_NVLINK = 2,
    NVML_P2P_CAPS_INDEX_ATOMICS = 3,
    NVML_P2P_CAPS_INDEX_PCI = 4,
    NVML_P2P_CAPS_INDEX_UNKNOWN = 5
} nvmlGpuP2PCapsIndex_t;

typedef enum nvmlGpuP2PStatus_enum {
    NVML_P2P_STATUS_OK = 0,
    NVML_P2P_STATUS_CHIPSET_NOT_SUPPORED = 1,   /* sic, as nvml.h spells it */
    NVML_P2P_STATUS_GPU_NOT_SUPPORTED = 2,
    NVML_P2P_STATUS_IOH_TOPOLOGY_NOT_SUPPORTED = 3,
    NVML_P2P_STATUS_DISABLED_BY_REGKEY = 4,
    NVML_P2P_STATUS_NOT_SUPPORTED = 5,
    NVML_P2P_STATUS_UNKNOWN = 6
} nvmlGpuP2PStatus_t;

/* 24 bytes; the instance ids are 0xFFFFFFFF outside MIG. */
typedef struct nvmlProcessInfo_st {
    unsigned int pid;
    unsigned long long usedGpuMemory;   /* bytes */
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlProcessInfo_t;

typedef struct nvmlUtilization_st {
    unsigned int gpu;       /* percent */
    unsigned int memory;    /* percent */
} nvmlUtilization_t;

/* ---- NVML functions ---------------------------------------------------------- */
LW_EXPORT nvmlReturn_t nvmlInit_v2(void);
LW_EXPORT nvmlReturn_t nvmlShutdown(void);
LW_EXPORT const char *nvmlErrorString(nvmlReturn_t result);
LW_EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount);
LW_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);
LW_EXPORT nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device);
LW_EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length);
LW_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci);
LW_EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length);
LW_EXPORT nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t device1, nvmlDevice_t device2,
                                                           nvmlGpuTopologyLevel_t *pathInfo);
LW_EXPORT nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t device1, nvmlDevice_t device2,
                                              nvmlGpuP2PCapsIndex_t p2pIndex,
                                              nvmlGpuP2PStatus_t *p2pStatus);
LW_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device,
                                                               unsigned int *infoCount,
                                                               nvmlProcessInfo_t *infos);
LW_EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device,
                                                     nvmlUtilization_t *utilization);

/* ---- NVML: NVLink, field values, PCIe (nvml.h, API 13) ---------------------- */
#define NVML_NVLINK_MAX_LINKS 36
typedef enum nvmlEnableState_enum { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 } nvmlEnableState_t;
typedef enum nvmlIntNvLinkDeviceType_enum {
    NVML_NVLINK_DEVICE_TYPE_GPU = 0x00,
    NVML_NVLINK_DEVICE_TYPE_IBMNPU = 0x01,
    NVML_NVLINK_DEVICE_TYPE_SWITCH = 0x02,
    NVML_NVLINK_DEVICE_TYPE_UNKNOWN = 0xFF
} nvmlIntNvLinkDeviceType_t;
typedef enum nvmlNvLinkErrorCounter_enum {
    NVML_NVLINK_ERROR_DL_REPLAY = 0,
    NVML_NVLINK_ERROR_DL_RECOVERY = 1,
    NVML_NVLINK_ERROR_DL_CRC_FLIT = 2,
    NVML_NVLINK_ERROR_DL_CRC_DATA = 3,
    NVML_NVLINK_ERROR_DL_ECC_DATA = 4
} nvmlNvLinkErrorCounter_t;
typedef enum nvmlValueType_enum {
    NVML_VALUE_TYPE_DOUBLE = 0,
    NVML_VALUE_TYPE_UNSIGNED_INT = 1,
    NVML_VALUE_TYPE_UNSIGNED_LONG = 2,
    NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
    NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4,
    NVML_VALUE_TYPE_SIGNED_INT = 5,
    NVML_VALUE_TYPE_UNSIGNED_SHORT = 6
} nvmlValueType_t;
typedef union nvmlValue_st {
    double dVal;
    int siVal;
    unsigned int uiVal;
    unsigned long ulVal;
    unsigned long long ullVal;
    signed long long sllVal;
    unsigned short usVal;
} nvmlValue_t;
/* 40 B: fieldId@0 scopeId@4 timestamp@8 latencyUsec@16 valueType@24 nvmlReturn@28 value@32 */
typedef struct nvmlFieldValue_st {
    unsigned int fieldId;
    unsigned int scopeId;          /* NVLink fields: the link; UINT_MAX: summed over links */
    long long timestamp;           /* us since 1970 */
    long long latencyUsec;
    nvmlValueType_t valueType;
    nvmlReturn_t nvmlReturn;       /* per entry */
    nvmlValue_t value;
} nvmlFieldValue_t;
#define NVML_FI_DEV_NVLINK_LINK_COUNT 91
#define NVML_FI_DEV_PCIE_REPLAY_COUNTER 94
#define NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX 138
#define NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX 139
#define NVML_FI_DEV_NVLINK_THROUGHPUT_RAW_TX 140
#define NVML_FI_DEV_NVLINK_THROUGHPUT_RAW_RX 141
#define NVML_FI_DEV_NVLINK_ERROR_DL_REPLAY 161
#define NVML_FI_DEV_NVLINK_ERROR_DL_RECOVERY 162
#define NVML_FI_DEV_NVLINK_ERROR_DL_CRC 163
#define NVML_FI_DEV_NVLINK_GET_STATE 165

LW_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link,
                                                nvmlEnableState_t *isActive);
LW_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device, unsigned int link,
                                                           nvmlPciInfo_t *pci);
LW_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t device, unsigned int link,
                                                           nvmlIntNvLinkDeviceType_t *pNvLinkDeviceType);
LW_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkErrorCounter(nvmlDevice_t device, unsigned int link,
                                                       nvmlNvLinkErrorCounter_t counter,
                                                       unsigned long long *counterValue);
LW_EXPORT nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount, nvmlFieldValue_t *values);
LW_EXPORT nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t device, unsigned int *value);
LW_EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned int *currLinkGen);
LW_EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned int *currLinkWidth);
LW_EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned int *maxLinkGen);
LW_EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned int *maxLinkWidth);

/* ---- NCCL types ------------------------------------------------------------ */
#define NCCL_VERSION(X, Y, Z) ((X) * 10000 + (Y) * 100 + (Z))

/* nccl.h has no timeout result (8 is ncclNumResults): a rank whose peers never
 * come gets ncclSystemError here. */
typedef enum {
    ncclSuccess = 0,
    ncclUnhandledCudaError = 1,
    ncclSystemError = 2,
    ncclInternalError = 3,
    ncclInvalidArgument = 4,
    ncclInvalidUsage = 5,
    ncclRemoteError = 6,
    ncclInProgress = 7,
    ncclNumResults = 8
} ncclResult_t;

typedef enum {
    ncclInt8 = 0, ncclChar = 0,
    ncclUint8 = 1,
    ncclInt32 = 2, ncclInt = 2,
    ncclUint32 = 3,
    ncclInt64 = 4,
    ncclUint64 = 5,
    ncclFloat16 = 6, ncclHalf = 6,
    ncclFloat32 = 7, ncclFloat = 7,
    ncclFloat64 = 8, ncclDouble = 8,
    ncclBfloat16 = 9
} ncclDataType_t;

typedef enum { ncclSum = 0, ncclProd = 1, ncclMax = 2, ncclMin = 3, ncclAvg = 4 } ncclRedOp_t;

typedef struct ncclComm *ncclComm_t;

/* Opaque: rank 0's address and the session its ranks join; passed by value. */
#define NCCL_UNIQUE_ID_BYTES 128
typedef struct {
    char internal[NCCL_UNIQUE_ID_BYTES];
} ncclUniqueId;

/* ---- NCCL functions ---------------------------------------------------------- */
LW_EXPORT ncclResult_t ncclGetVersion(int *version);
LW_EXPORT ncclResult_t ncclCommInitAll(ncclComm_t *comm, int ndev, const int *devlist);
LW_EXPORT ncclResult_t ncclGetUniqueId(ncclUniqueId *uniqueId);
/* One rank's comm on the current context's device; returns once all nranks joined. */
LW_EXPORT ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank);
LW_EXPORT ncclResult_t ncclCommDestroy(ncclComm_t comm);
LW_EXPORT ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count,
                                     ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                                     CUstream stream);
LW_EXPORT ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount,
                                     ncclDataType_t datatype, ncclComm_t comm, CUstream stream);
/* Point to point (the sim: on a communicator of ncclCommInitRank, between
 * rank 0 and another rank).  Outside a group each call completes on its own;
 * between ncclGroupStart and ncclGroupEnd they are queued, and ncclGroupEnd
 * runs a communicator's sends and receives side by side. */
LW_EXPORT ncclResult_t ncclSend(const void *sendbuff, size_t count, ncclDataType_t datatype, int peer,
                                ncclComm_t comm, CUstream stream);
LW_EXPORT ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype, int peer,
                                ncclComm_t comm, CUstream stream);
LW_EXPORT ncclResult_t ncclGroupStart(void);
LW_EXPORT ncclResult_t ncclGroupEnd(void);
LW_EXPORT const char *ncclGetErrorString(ncclResult_t result);

#ifdef __cplusplus
}
#endif
#endif
