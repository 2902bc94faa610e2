package io.linkwatch.cli;

/** A command-line value that parsed but cannot be used, e.g. a size above the device's memory. */
public final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
