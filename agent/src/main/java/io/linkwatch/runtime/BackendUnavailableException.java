package io.linkwatch.runtime;

/**
 * The selected backend's native library cannot be loaded. Its message is meant to be shown to the
 * operator as it is, on one line, e.g. {@code libascendcl.so not found: install CANN and source
 * set_env.sh, or use --backend sim}.
 */
public class BackendUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BackendUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The sim asked for by name could not be loaded, with the first line of the linker's reason. */
  public static BackendUnavailableException simNotLoadable(UnsatisfiedLinkError e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return new BackendUnavailableException(
        "liblinkwatch-sim.so could not be loaded (" + (nl < 0 ? m : m.substring(0, nl)) + ")", e);
  }
}
