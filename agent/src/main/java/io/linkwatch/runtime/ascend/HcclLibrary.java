package io.linkwatch.runtime.ascend;

import com.sun.jna.Library;
import com.sun.jna.Pointer;

/** The HCCL C ABI ({@code hccl/hccl.h}) used by the collective probes. No logic here. */
public interface HcclLibrary extends Library {
  int HcclCommInitAll(int ndev, int[] devices, Pointer[] comms);

  int HcclAllReduce(
      Pointer sendBuf,
      Pointer recvBuf,
      long count,
      int dataType,
      int op,
      Pointer comm,
      Pointer stream);

  int HcclAllGather(
      Pointer sendBuf, Pointer recvBuf, long sendCount, int dataType, Pointer comm, Pointer stream);

  int HcclCommDestroy(Pointer comm);

  String HcclGetErrorString(int code);

  /** {@code HcclReduceOp} value for a sum. */
  int HCCL_REDUCE_SUM = 0;
}
