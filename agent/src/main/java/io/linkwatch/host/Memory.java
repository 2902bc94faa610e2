package io.linkwatch.host;

/** A range of memory a copy can read from or write to: device memory or a host buffer. */
public interface Memory {
  long address();

  long size();
}
