package io.linkwatch.runtime.ascend;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.PointerByReference;

/** The HCCL C ABI ({@code hccl/hccl.h}) used by the collective probes. No logic here. */
public interface HcclLibrary extends Library {
  int HcclCommInitAll(int ndev, int[] devices, Pointer[] comms);

  /** Fills {@code rootInfo}, an {@code HcclRootInfo} of {@link #ROOT_INFO_BYTES}. */
  int HcclGetRootInfo(byte[] rootInfo);

  int HcclCommInitRootInfo(int nRanks, byte[] rootInfo, int rank, PointerByReference comm);

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

  int HcclSend(
      Pointer sendBuf, long count, int dataType, int destRank, Pointer comm, Pointer stream);

  int HcclRecv(
      Pointer recvBuf, long count, int dataType, int srcRank, Pointer comm, Pointer stream);

  /** {@code HcclSendRecvItem}: one send or receive of a batch. */
  @Structure.FieldOrder({"sendRecvType", "buf", "count", "dataType", "remoteRank"})
  class SendRecvItem extends Structure {
    public int sendRecvType;
    public Pointer buf;
    public long count;
    public int dataType;
    public int remoteRank;
  }

  /** {@code HcclSendRecvType}. */
  int HCCL_SEND = 0;

  int HCCL_RECV = 1;

  /** {@code items}: contiguous, as {@link Structure#toArray} makes them. */
  int HcclBatchSendRecv(SendRecvItem[] items, int itemNum, Pointer comm, Pointer stream);

  int HcclCommDestroy(Pointer comm);

  String HcclGetErrorString(int code);

  /** {@code HCCL_ROOT_INFO_BYTES}: the size of an {@code HcclRootInfo}. */
  int ROOT_INFO_BYTES = 4108;

  /** {@code HcclReduceOp} value for a sum. */
  int HCCL_REDUCE_SUM = 0;
}
