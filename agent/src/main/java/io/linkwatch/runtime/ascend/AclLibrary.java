package io.linkwatch.runtime.ascend;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.FloatByReference;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The AscendCL C ABI ({@code acl/acl_rt.h}) as JNA sees it. No logic here: return codes are checked
 * by {@link AscendRuntime}. {@code size_t} and {@code uint64_t} map to {@code long}, enums to
 * {@code int}.
 */
public interface AclLibrary extends Library {
  int aclInit(String configPath);

  int aclFinalize();

  int aclrtSetDevice(int deviceId);

  int aclrtResetDevice(int deviceId);

  int aclrtGetDeviceCount(IntByReference count);

  int aclrtCreateStream(PointerByReference stream);

  int aclrtDestroyStream(Pointer stream);

  int aclrtSynchronizeStream(Pointer stream);

  int aclrtCreateEvent(PointerByReference event);

  int aclrtRecordEvent(Pointer event, Pointer stream);

  int aclrtEventElapsedTime(FloatByReference ms, Pointer start, Pointer end);

  int aclrtStreamWaitEvent(Pointer stream, Pointer event);

  int aclrtDestroyEvent(Pointer event);

  int aclrtMalloc(PointerByReference devPtr, long size, int policy);

  /** {@code aclrtMallocWithCfg(devPtr, size, policy, cfg)}; newer CANN releases only. */
  int aclrtMallocWithCfg(PointerByReference devPtr, long size, int policy, Pointer cfg);

  int aclrtFree(Pointer devPtr);

  int aclrtMallocHost(PointerByReference hostPtr, long size);

  int aclrtFreeHost(Pointer hostPtr);

  int aclrtMemcpy(Pointer dst, long destMax, Pointer src, long count, int kind);

  int aclrtMemcpyAsync(
      Pointer dst, long destMax, Pointer src, long count, int kind, Pointer stream);

  int aclrtDeviceCanAccessPeer(IntByReference canAccessPeer, int deviceId, int peerDeviceId);

  int aclrtDeviceEnablePeerAccess(int peerDeviceId, int flags);

  int aclrtGetMemInfo(int attr, LongByReference free, LongByReference total);

  String aclrtGetSocName();

  String aclGetRecentErrMsg();

  int aclrtGetDevicesTopo(int deviceId, int otherDeviceId, LongByReference value);

  int aclrtGetPhyDevIdByLogicDevId(int logicDevId, IntByReference phyDevId);

  int aclrtHostRegisterV2(Pointer ptr, long size, int flag);

  int aclrtHostUnregister(Pointer ptr);

  /** Values from {@code acl_rt.h} that the agent passes. */
  final class Constants {
    static final int ACL_SUCCESS = 0;
    static final int ACL_ERROR_REPEAT_INITIALIZE = 100002;
    static final int ACL_MEMCPY_HOST_TO_DEVICE = 1;
    static final int ACL_MEMCPY_DEVICE_TO_HOST = 2;
    static final int ACL_MEMCPY_DEVICE_TO_DEVICE = 3;
    static final int ACL_MEMCPY_HOST_TO_HOST = 0;
    static final int ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3;
    static final int ACL_HBM_MEM = 1;
    static final int ACL_HOST_REG_PINNED = 0x10000000;

    private Constants() {}
  }
}
