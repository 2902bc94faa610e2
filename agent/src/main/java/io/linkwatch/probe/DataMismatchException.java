package io.linkwatch.probe;

/** Copied data did not match its source: the link moved bytes but not the right ones. */
public class DataMismatchException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DataMismatchException(String message) {
    super(message);
  }
}
