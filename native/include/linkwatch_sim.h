/*
 * linkwatch_sim.h - the AscendCL / HCCL subset that liblinkwatch-sim.so exports.
 *
 * The types, enum values and error codes are written from the public AscendCL
 * (acl/acl_rt.h, acl/acl_base.h) and HCCL (hccl/hccl_types.h) documentation so
 * that a caller bound to the real libascendcl.so / libhccl.so can load this
 * library instead without changing a single prototype.  Everything prefixed
 * linkwatch_sim_ exists only in the simulator.
 */
#ifndef LINKWATCH_SIM_H
#define LINKWATCH_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LW_EXPORT __attribute__((visibility("default")))

/* ---- AscendCL types ---------------------------------------------------- */
typedef int aclError;
typedef void *aclrtStream;
typedef void *aclrtEvent;

#define ACL_SUCCESS 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_REPEAT_FINALIZE 100037
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107002
#define ACL_ERROR_RT_STREAM_CONTEXT 107003
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_NO_DEVICE 207004
#define ACL_ERROR_RT_STREAM_SYNC_TIMEOUT 507046

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
    ACL_MEMCPY_DEFAULT = 4,
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
    ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000
} aclrtMemMallocPolicy;

typedef enum aclrtMemAttr {
    ACL_DDR_MEM = 0,
    ACL_HBM_MEM = 1
    /* 2..11: huge / normal / P2P variants, all answered like HBM here */
} aclrtMemAttr;

#define ACL_EVENT_SYNC 0x1u
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x2u
#define ACL_EVENT_TIME_LINE 0x8u
#define ACL_EVENT_DEVICE_USE_ONLY 0x10u
#define ACL_EVENT_EXTERNAL 0x20u

#define ACL_HOST_REG_MAPPED 0x2u
#define ACL_HOST_REG_IOMEMORY 0x4u
#define ACL_HOST_REG_READONLY 0x8u
#define ACL_HOST_REG_PINNED 0x10000000u

#define ACL_RT_DEVS_TOPOLOGY_HCCS 0x01ULL
#define ACL_RT_DEVS_TOPOLOGY_PIX 0x02ULL
#define ACL_RT_DEVS_TOPOLOGY_PIB 0x04ULL
#define ACL_RT_DEVS_TOPOLOGY_PHB 0x08ULL
#define ACL_RT_DEVS_TOPOLOGY_SYS 0x10ULL
#define ACL_RT_DEVS_TOPOLOGY_SIO 0x20ULL
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL

/* ---- AscendCL functions ------------------------------------------------- */
LW_EXPORT aclError aclInit(const char *configPath);
LW_EXPORT aclError aclFinalize(void);
LW_EXPORT aclError aclrtSetDevice(int32_t deviceId);
LW_EXPORT aclError aclrtResetDevice(int32_t deviceId);
LW_EXPORT aclError aclrtGetDeviceCount(uint32_t *count);
LW_EXPORT aclError aclrtGetDevice(int32_t *deviceId);
LW_EXPORT aclError aclrtCreateStream(aclrtStream *stream);
LW_EXPORT aclError aclrtDestroyStream(aclrtStream stream);
LW_EXPORT aclError aclrtSynchronizeStream(aclrtStream stream);
LW_EXPORT aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
LW_EXPORT aclError aclrtSynchronizeDevice(void);
LW_EXPORT aclError aclrtCreateEvent(aclrtEvent *event);
LW_EXPORT aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);
LW_EXPORT aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
LW_EXPORT aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
LW_EXPORT aclError aclrtSynchronizeEvent(aclrtEvent event);
LW_EXPORT aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);
LW_EXPORT aclError aclrtDestroyEvent(aclrtEvent event);
LW_EXPORT aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/* aclrtMallocConfig.md: an array of attributes; the sim reads none of them. */
typedef struct {
    void *attrs;
    size_t numAttrs;
} aclrtMallocConfig;
LW_EXPORT aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                      aclrtMallocConfig *cfg);
LW_EXPORT aclError aclrtFree(void *devPtr);
LW_EXPORT aclError aclrtMallocHost(void **hostPtr, size_t size);
LW_EXPORT aclError aclrtFreeHost(void *hostPtr);
LW_EXPORT aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                               aclrtMemcpyKind kind);
LW_EXPORT aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                    aclrtMemcpyKind kind, aclrtStream stream);
LW_EXPORT aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId,
                                            int32_t peerDeviceId);
LW_EXPORT aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);
LW_EXPORT aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);
LW_EXPORT aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);
LW_EXPORT const char *aclrtGetSocName(void);
LW_EXPORT const char *aclGetRecentErrMsg(void);
LW_EXPORT aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value);
LW_EXPORT aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId);
LW_EXPORT aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag);
LW_EXPORT aclError aclrtHostUnregister(void *ptr);

/* ---- HCCL types -------------------------------------------------------- */
typedef void *HcclComm;

typedef enum HcclResult {
    HCCL_SUCCESS = 0,
    HCCL_E_PARA = 1,
    HCCL_E_PTR = 2,
    HCCL_E_MEMORY = 3,
    HCCL_E_INTERNAL = 4,
    HCCL_E_NOT_SUPPORT = 5,
    HCCL_E_NOT_FOUND = 6,
    HCCL_E_UNAVAIL = 7,
    HCCL_E_SYSCALL = 8,
    HCCL_E_TIMEOUT = 9,
    HCCL_E_OPEN_FILE_FAILURE = 10,
    HCCL_E_TCP_CONNECT = 11,
    HCCL_E_ROCE_CONNECT = 12,
    HCCL_E_TCP_TRANSFER = 13,
    HCCL_E_ROCE_TRANSFER = 14,
    HCCL_E_RUNTIME = 15,
    HCCL_E_DRV = 16,
    HCCL_E_PROFILING = 17,
    HCCL_E_CCE = 18,
    HCCL_E_NETWORK = 19,
    HCCL_E_AGAIN = 20,
    HCCL_E_REMOTE = 21,
    HCCL_E_SUSPENDING = 22,
    HCCL_E_OPRETRY_FAIL = 23,
    HCCL_E_OOM = 24,
    HCCL_E_RESERVED
} HcclResult;

typedef enum HcclDataType {
    HCCL_DATA_TYPE_INT8 = 0,
    HCCL_DATA_TYPE_INT16 = 1,
    HCCL_DATA_TYPE_INT32 = 2,
    HCCL_DATA_TYPE_FP16 = 3,
    HCCL_DATA_TYPE_FP32 = 4,
    HCCL_DATA_TYPE_INT64 = 5,
    HCCL_DATA_TYPE_UINT64 = 6,
    HCCL_DATA_TYPE_UINT8 = 7,
    HCCL_DATA_TYPE_UINT16 = 8,
    HCCL_DATA_TYPE_UINT32 = 9,
    HCCL_DATA_TYPE_FP64 = 10,
    HCCL_DATA_TYPE_BFP16 = 11,
    HCCL_DATA_TYPE_INT128 = 12,
    HCCL_DATA_TYPE_HIF8 = 14,
    HCCL_DATA_TYPE_FP8E4M3 = 15,
    HCCL_DATA_TYPE_FP8E5M2 = 16,
    HCCL_DATA_TYPE_FP8E8M0 = 17,
    HCCL_DATA_TYPE_RESERVED = 255
} HcclDataType;

typedef enum HcclReduceOp {
    HCCL_REDUCE_SUM = 0,
    HCCL_REDUCE_PROD = 1,
    HCCL_REDUCE_MAX = 2,
    HCCL_REDUCE_MIN = 3,
    HCCL_REDUCE_RESERVED = 255
} HcclReduceOp;

/* Opaque to callers: rank 0's address and the session its ranks join (the sim's
 * layout is in native/README.md, "Ranks in several processes"). */
#define HCCL_ROOT_INFO_BYTES 4108
typedef struct HcclRootInfo {
    char internal[HCCL_ROOT_INFO_BYTES];
} HcclRootInfo;

/* ---- HCCL functions ---------------------------------------------------- */
LW_EXPORT HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms);
LW_EXPORT HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo);
/* One rank's comm on the thread's current device; returns once all nRanks joined. */
LW_EXPORT HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
                                          HcclComm *comm);
LW_EXPORT HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count,
                                   HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                   aclrtStream stream);
LW_EXPORT HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount,
                                   HcclDataType dataType, HcclComm comm, aclrtStream stream);
/* Point to point.  HcclSend returns once the peer's matching HcclRecv has the
 * data; HcclBatchSendRecv runs its sends and receives side by side (both
 * directions of a link at once).  The sim carries them on a communicator of
 * HcclCommInitRootInfo, between rank 0 and another rank (its ranks meet in a
 * star through rank 0), one peer per call. */
typedef enum HcclSendRecvType {
    HCCL_SEND = 0,
    HCCL_RECV = 1,
    HCCL_SEND_RECV_RESERVED
} HcclSendRecvType;
typedef struct HcclSendRecvItemDef {
    HcclSendRecvType sendRecvType;
    void *buf;
    uint64_t count;
    HcclDataType dataType;
    uint32_t remoteRank;
} HcclSendRecvItem;
LW_EXPORT HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
                              HcclComm comm, aclrtStream stream);
LW_EXPORT HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
                              HcclComm comm, aclrtStream stream);
LW_EXPORT HcclResult HcclBatchSendRecv(HcclSendRecvItem *sendRecvInfo, uint32_t itemNum, HcclComm comm,
                                       aclrtStream stream);
LW_EXPORT HcclResult HcclCommDestroy(HcclComm comm);
LW_EXPORT const char *HcclGetErrorString(HcclResult code);

/* ---- DCMI (libdcmi.so) functions: device activity ---------------------- */
/* Returns 0 (DCMI_OK) or -8000 - k.  proc_info must hold DCMI_MAX_PROC_NUM
 * entries; *proc_num is set to how many were filled; proc_mem_usage in bytes. */
#define DCMI_MAX_PROC_NUM 64
struct dcmi_proc_mem_info {
    int proc_id;
    unsigned long proc_mem_usage;
};
LW_EXPORT int dcmi_init(void);
LW_EXPORT int dcmi_get_card_id_device_id_from_logicid(int *card_id, int *device_id,
                                                      unsigned int device_logic_id);
LW_EXPORT int dcmi_get_device_resource_info(int card_id, int device_id,
                                            struct dcmi_proc_mem_info *proc_info, int *proc_num);
LW_EXPORT int dcmi_get_device_utilization_rate(int card_id, int device_id, int input_type,
                                               unsigned int *utilization_rate);

/* ---- DCMI: link status, lanes and counters (dcmi_get_device_info) ------- */
/* dcmi_interface_api.h (hicann/driver src/custom/include; Ascend/mind-cluster
 * devmanager/dcmi): the generic getter and the structs of main commands 16
 * (HCCS) and 56 (SIO).  `*size` is in/out: at least the struct's size in,
 * the struct's size out.  Sizes and offsets are checked by test_links.c. */
enum dcmi_main_cmd {
    DCMI_MAIN_CMD_CHIP_INF = 12,
    DCMI_MAIN_CMD_HCCS = 16,
    DCMI_MAIN_CMD_PCIE = 55,
    DCMI_MAIN_CMD_SIO = 56
};
typedef enum {
    DCMI_HCCS_CMD_GET_STATUS = 0,
    DCMI_HCCS_CMD_GET_LANE_INFO = 1,
    DCMI_HCCS_CMD_GET_STATISTIC_INFO = 3,
    DCMI_HCCS_CMD_GET_STATISTIC_INFO_U64 = 5
} DCMI_HCCS_SUB_CMD;
#define DCMI_SIO_SUB_CMD_CRC_ERR_STATISTICS 0
#define DCMI_HCCS_MAX_PCS_NUM 16
#define DCMI_HDLC_STATUS_OK 0x3

struct dcmi_hccs_statues {                /* 12 B, sub 0 (sic: the header's spelling) */
    unsigned int pcs_status;              /* 0 normal; bit0 abnormal, bits 8-15 first faulty PCS */
    unsigned int hdlc_status;             /* bits 0-1: 3 = OK */
    unsigned char reserve[4];
};
struct dcmi_hccs_lane_info {              /* 132 B, sub 1 */
    unsigned int hccs_port_pcs_bitmap;    /* bit k: PCS k is an HCCS port */
    unsigned int pcs_lane_bitmap[DCMI_HCCS_MAX_PCS_NUM];   /* [j]: the j-th set bit's port */
    unsigned int reserve[DCMI_HCCS_MAX_PCS_NUM];
};
struct dcmi_hccs_statistic_info {         /* 512 B, sub 3; unit: flit */
    unsigned int tx_cnt[DCMI_HCCS_MAX_PCS_NUM];
    unsigned int rx_cnt[DCMI_HCCS_MAX_PCS_NUM];
    unsigned int crc_err_cnt[DCMI_HCCS_MAX_PCS_NUM];
    unsigned int retry_cnt[DCMI_HCCS_MAX_PCS_NUM];
    unsigned int reserved_field_cnt[64];
};
struct dcmi_hccs_statistic_info_u64 {     /* 1024 B, sub 5; unit: flit */
    unsigned long long tx_cnt[DCMI_HCCS_MAX_PCS_NUM];
    unsigned long long rx_cnt[DCMI_HCCS_MAX_PCS_NUM];
    unsigned long long crc_err_cnt[DCMI_HCCS_MAX_PCS_NUM];
    unsigned long long retry_cnt[DCMI_HCCS_MAX_PCS_NUM];
    unsigned long long reserved[64];
};
struct dcmi_sio_crc_err_statistics_info { /* 12 B, main 56 sub 0 */
    unsigned short tx_error_count;
    unsigned short rx_error_count;
    unsigned char reserved[8];
};
struct dcmi_pcie_info_all {               /* 64 B */
    unsigned int venderid;                /* sic */
    unsigned int subvenderid;
    unsigned int deviceid;
    unsigned int subdeviceid;
    int domain;
    unsigned int bdf_busid;
    unsigned int bdf_deviceid;
    unsigned int bdf_funcid;
    unsigned char reserve[32];
};
LW_EXPORT int dcmi_get_device_info(int card_id, int device_id, enum dcmi_main_cmd main_cmd,
                                   unsigned int sub_cmd, void *buf, unsigned int *size);
LW_EXPORT int dcmi_get_device_pcie_info_v2(int card_id, int device_id, struct dcmi_pcie_info_all *pcie_info);

/* ---- DCMI: an NPU's own RoCE port (the public calls beside hccn_tool) --- */
/* dcmi_interface_api.h: the port's packet counters (port 0 only), its detect
 * probe's health, and its address.  Sizes are checked by test_links.c. */
struct dcmi_network_pkt_stats_info {      /* 464 B */
    unsigned long long mac_tx_mac_pause_num, mac_rx_mac_pause_num;
    unsigned long long mac_tx_pfc_pkt_num, mac_tx_pfc_pri_pkt_num[8];
    unsigned long long mac_rx_pfc_pkt_num, mac_rx_pfc_pri_pkt_num[8];
    unsigned long long mac_tx_total_pkt_num, mac_tx_total_oct_num, mac_tx_bad_pkt_num, mac_tx_bad_oct_num;
    unsigned long long mac_rx_total_pkt_num, mac_rx_total_oct_num, mac_rx_bad_pkt_num, mac_rx_bad_oct_num;
    unsigned long long mac_rx_fcs_err_pkt_num;
    unsigned long long roce_rx_rc_pkt_num, roce_rx_all_pkt_num, roce_rx_err_pkt_num;
    unsigned long long roce_tx_rc_pkt_num, roce_tx_all_pkt_num, roce_tx_err_pkt_num;
    unsigned long long roce_cqe_num, roce_rx_cnp_pkt_num, roce_tx_cnp_pkt_num;
    unsigned long long roce_err_ack_num, roce_err_psn_num, roce_verification_err_num;
    unsigned long long roce_err_qp_status_num, roce_new_pkt_rty_num, roce_ecn_db_num;
    unsigned long long nic_tx_all_pkg_num, nic_tx_all_oct_num, nic_rx_all_pkg_num, nic_rx_all_oct_num;
    long tv_sec, tv_usec;
    unsigned char reserved[64];
};
enum dcmi_ip_addr_type { DCMI_IPADDR_TYPE_V4 = 0, DCMI_IPADDR_TYPE_V6 = 1, DCMI_IPADDR_TYPE_ANY = 2 };
struct dcmi_ip_addr {                     /* 20 B */
    union { unsigned char ip6[16]; unsigned char ip4[4]; } u_addr;
    enum dcmi_ip_addr_type ip_type;
};
enum dcmi_port_type { DCMI_VNIC_PORT = 0, DCMI_ROCE_PORT = 1, DCMI_INVALID_PORT };
/* *result: the driver's dcmi_rdfx_detect_result, 0 OK .. 8 IP_SET, 0xFF otherwise. */
LW_EXPORT int dcmi_get_device_network_health(int card_id, int device_id, int *result);
LW_EXPORT int dcmi_get_netdev_pkt_stats_info(int card_id, int device_id, int port_id,
                                             struct dcmi_network_pkt_stats_info *info);
LW_EXPORT int dcmi_get_device_ip(int card_id, int device_id, enum dcmi_port_type port_type, int port_id,
                                 struct dcmi_ip_addr *ip, struct dcmi_ip_addr *mask);

/* ---- simulator-only ---------------------------------------------------- */
/* Sum of live device + MallocHost allocations, registered host ranges,
 * user streams, events and HCCL comms; 0 means nothing leaked. */
LW_EXPORT int64_t linkwatch_sim_live_allocations(void);
/* out[0..5] = device, host, registered, streams, events, comms. */
LW_EXPORT void linkwatch_sim_live_counts(int64_t out[6]);
/* "linkwatch-sim X.Y"; its presence tells a caller it is on the simulator. */
LW_EXPORT const char *linkwatch_sim_version(void);
/* Link token ("SIO", "HCCS", ...) of the profile's src->dst link, ignoring
 * faults; NULL when there is no link or the runtime is not initialised. */
LW_EXPORT const char *linkwatch_sim_link_name(int32_t src, int32_t dst);
/* The processes that `busy` control lines put on a device (up to max of them
 * into pid/mem, memory in bytes), without going through DCMI, so that DCMI
 * faults do not reach the npu-smi stand-in; returns how many there are. */
LW_EXPORT int32_t linkwatch_sim_processes(int32_t device, int32_t *pid, uint64_t *mem, int32_t max);
/* The profile's `affinity` CPU list of a device, or NULL when absent. */
LW_EXPORT const char *linkwatch_sim_affinity(int32_t device);
/* A stand-in tool's call NAME (`hccn_tool:-link`) as the control file's
 * fail/hang/crash lines treat it: blocks while hung, aborts on crash, and
 * returns the injected code, else 0 (-1 for a name no line may give). */
LW_EXPORT int32_t linkwatch_sim_tool_call(const char *name);
/* An NPU's own RoCE port, from the control file's `nic` lines and the shared
 * counters (which a `busy ... traffic` job advances too). */
#define LINKWATCH_SIM_NIC_KINDS 16
struct linkwatch_sim_nic {
    int32_t up;                 /* 1 up, 0 down */
    uint32_t speed_mbps;        /* the speed it trained at; 0 while down */
    int32_t health;             /* the net health state's code, 0 Success .. 9 Unknown */
    int32_t pad;
    double rx_power_mw;         /* receive power of each of its four lanes */
    uint64_t tx_octets, rx_octets, tx_packets, rx_packets;
    uint64_t link_ups;          /* times the link came up, the first time included */
    uint64_t errors[LINKWATCH_SIM_NIC_KINDS];   /* by linkwatch_sim_nic_error_kind */
};
/* 0 with *out filled, -1 for a device out of range. */
LW_EXPORT int32_t linkwatch_sim_nic(int32_t device, struct linkwatch_sim_nic *out);
/* The name of error counter i (hccn_tool -stat's, less `_num`), NULL past the last. */
LW_EXPORT const char *linkwatch_sim_nic_error_kind(int32_t i);
/* The driver's name of net health code `code`, NULL out of range. */
LW_EXPORT const char *linkwatch_sim_nic_health_name(int32_t code);

#ifdef __cplusplus
}
#endif
#endif
