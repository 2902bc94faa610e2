package io.linkwatch.runtime;

/**
 * A device call returned an error. Carries the function, its return code and the runtime's own
 * explanation, e.g. {@code aclrtMemcpyAsync returned 507011: injected fault}.
 */
public class DeviceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String function;
  private final int code;
  private final String detail;

  public DeviceException(String function, int code, String detail) {
    super(format(function, code, detail));
    this.function = function;
    this.code = code;
    this.detail = detail == null ? "" : detail;
  }

  private static String format(String function, int code, String detail) {
    String base = function + " returned " + code;
    return detail == null || detail.isBlank() ? base : base + ": " + detail.strip();
  }

  public String function() {
    return function;
  }

  public int code() {
    return code;
  }

  public String detail() {
    return detail;
  }
}
