package io.linkwatch.passive.pcie;

/**
 * The three AER counter files the kernel keeps per AER-capable function (since 4.19), and the
 * {@code TOTAL_ERR_*} line of each. {@code NONFATAL} reads {@code aer_dev_nonfatal}, whose last
 * line is e.g. {@code TOTAL_ERR_NONFATAL 2}, and labels its series {@code severity="nonfatal"}.
 */
public enum AerSeverity {
  CORRECTABLE("correctable", "aer_dev_correctable", "TOTAL_ERR_COR"),
  NONFATAL("nonfatal", "aer_dev_nonfatal", "TOTAL_ERR_NONFATAL"),
  FATAL("fatal", "aer_dev_fatal", "TOTAL_ERR_FATAL");

  private final String label;
  private final String file;
  private final String totalLine;

  AerSeverity(String label, String file, String totalLine) {
    this.label = label;
    this.file = file;
    this.totalLine = totalLine;
  }

  /** The metric label value, e.g. {@code "correctable"}. */
  public String label() {
    return label;
  }

  /** The file in the function's sysfs directory, e.g. {@code "aer_dev_correctable"}. */
  public String file() {
    return file;
  }

  /** The name of the file's total line, e.g. {@code "TOTAL_ERR_COR"}. */
  public String totalLine() {
    return totalLine;
  }
}
