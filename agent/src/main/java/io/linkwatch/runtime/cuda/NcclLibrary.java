package io.linkwatch.runtime.cuda;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The NCCL subset ({@code nccl.h}, {@code libnccl.so.2}) the collective probes use: one process
 * drives every rank, one thread per rank, so no group calls are needed. No logic here.
 */
public interface NcclLibrary extends Library {
  int ncclGetVersion(IntByReference version);

  int ncclCommInitAll(Pointer[] comms, int ndev, int[] devices);

  /** {@code ncclUniqueId}: rank 0's address and a magic, passed by value. */
  @Structure.FieldOrder("internal")
  class UniqueId extends Structure implements Structure.ByValue {
    /** {@code NCCL_UNIQUE_ID_BYTES}. */
    public static final int BYTES = 128;

    public byte[] internal = new byte[BYTES];
  }

  /** Fills {@code uniqueId}, {@link UniqueId#BYTES} bytes. */
  int ncclGetUniqueId(byte[] uniqueId);

  int ncclCommInitRank(PointerByReference comm, int nranks, UniqueId commId, int rank);

  int ncclCommDestroy(Pointer comm);

  int ncclAllReduce(
      Pointer send, Pointer recv, long count, int dataType, int op, Pointer comm, Pointer stream);

  int ncclAllGather(
      Pointer send, Pointer recv, long sendCount, int dataType, Pointer comm, Pointer stream);

  int ncclSend(Pointer sendbuff, long count, int dataType, int peer, Pointer comm, Pointer stream);

  int ncclRecv(Pointer recvbuff, long count, int dataType, int peer, Pointer comm, Pointer stream);

  int ncclGroupStart();

  int ncclGroupEnd();

  String ncclGetErrorString(int code);

  /** {@code ncclRedOp_t} value for a sum. */
  int NCCL_SUM = 0;
}
