package io.linkwatch.runtime.cuda;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.FloatByReference;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The CUDA driver API ({@code cuda.h}, {@code libcuda.so.1}) as JNA sees it. No logic here: return
 * codes are checked by {@link CudaRuntime}. The names are the symbols the header maps its calls to
 * (the {@code _v2} ones where it has them) with the legacy default-stream semantics, not the {@code
 * _ptds}/{@code _ptsz} variants. {@code size_t} and {@code CUdeviceptr} map to {@code long}, {@code
 * CUdevice} and {@code CUresult} to {@code int}, handles to {@link Pointer}.
 */
public interface CudaLibrary extends Library {
  int cuInit(int flags);

  int cuDriverGetVersion(IntByReference version);

  int cuDeviceGetCount(IntByReference count);

  int cuDeviceGet(IntByReference device, int ordinal);

  int cuDeviceGetName(byte[] name, int length, int device);

  int cuDeviceTotalMem_v2(LongByReference bytes, int device);

  int cuDeviceGetPCIBusId(byte[] busId, int length, int device);

  int cuDeviceCanAccessPeer(IntByReference canAccess, int device, int peer);

  int cuDevicePrimaryCtxRetain(PointerByReference context, int device);

  int cuDevicePrimaryCtxRelease_v2(int device);

  int cuCtxSetCurrent(Pointer context);

  int cuCtxEnablePeerAccess(Pointer peerContext, int flags);

  int cuMemGetInfo_v2(LongByReference free, LongByReference total);

  int cuMemAlloc_v2(LongByReference devicePointer, long bytes);

  int cuMemFree_v2(long devicePointer);

  int cuMemHostAlloc(PointerByReference hostPointer, long bytes, int flags);

  int cuMemFreeHost(Pointer hostPointer);

  int cuMemHostRegister_v2(Pointer hostPointer, long bytes, int flags);

  int cuMemHostUnregister(Pointer hostPointer);

  int cuStreamCreate(PointerByReference stream, int flags);

  int cuStreamDestroy_v2(Pointer stream);

  int cuStreamSynchronize(Pointer stream);

  int cuStreamWaitEvent(Pointer stream, Pointer event, int flags);

  int cuEventCreate(PointerByReference event, int flags);

  int cuEventRecord(Pointer event, Pointer stream);

  int cuEventElapsedTime(FloatByReference millis, Pointer start, Pointer end);

  int cuEventDestroy_v2(Pointer event);

  int cuMemcpyHtoD_v2(long dst, Pointer src, long bytes);

  int cuMemcpyDtoH_v2(Pointer dst, long src, long bytes);

  int cuMemcpyDtoD_v2(long dst, long src, long bytes);

  int cuMemcpyPeer(long dst, Pointer dstContext, long src, Pointer srcContext, long bytes);

  int cuMemcpyHtoDAsync_v2(long dst, Pointer src, long bytes, Pointer stream);

  int cuMemcpyDtoHAsync_v2(Pointer dst, long src, long bytes, Pointer stream);

  int cuMemcpyDtoDAsync_v2(long dst, long src, long bytes, Pointer stream);

  int cuMemcpyPeerAsync(
      long dst, Pointer dstContext, long src, Pointer srcContext, long bytes, Pointer stream);

  int cuGetErrorName(int code, PointerByReference name);

  int cuGetErrorString(int code, PointerByReference text);

  /** Values from {@code cuda.h} that the agent passes or checks. */
  final class Constants {
    static final int CUDA_SUCCESS = 0;
    static final int CUDA_ERROR_NOT_SUPPORTED = 801;
    static final int CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
    static final int CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712;

    /** Pinned memory every context sees as pinned, whichever was current when it was made. */
    static final int CU_MEMHOSTALLOC_PORTABLE = 1;

    static final int CU_MEMHOSTREGISTER_PORTABLE = 1;

    private Constants() {}
  }
}
