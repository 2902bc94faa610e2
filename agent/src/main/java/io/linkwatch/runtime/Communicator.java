package io.linkwatch.runtime;

/** One rank of a collective communicator; all ranks of a group come from one init call. */
public final class Communicator extends Handle {
  private final int rank;
  private final int device;

  public Communicator(int rank, int device, long address, Runnable release) {
    super(address, release);
    this.rank = rank;
    this.device = device;
  }

  public int rank() {
    return rank;
  }

  public int device() {
    return device;
  }
}
