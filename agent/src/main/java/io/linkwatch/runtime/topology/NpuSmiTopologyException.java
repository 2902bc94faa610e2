package io.linkwatch.runtime.topology;

/**
 * The output of {@code npu-smi info -t topo} does not have the expected shape. The message starts
 * with the 1-based line number it refers to, e.g. {@code line 3: ...}.
 */
public final class NpuSmiTopologyException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int lineNumber;

  public NpuSmiTopologyException(int lineNumber, String message) {
    super("line " + lineNumber + ": " + message);
    this.lineNumber = lineNumber;
  }

  /** The 1-based line the problem was found on. */
  public int lineNumber() {
    return lineNumber;
  }
}
