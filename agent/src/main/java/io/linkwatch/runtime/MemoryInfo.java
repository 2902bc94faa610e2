package io.linkwatch.runtime;

/** Free and total device memory in bytes, as {@code aclrtGetMemInfo} reports them. */
public record MemoryInfo(long freeBytes, long totalBytes) {}
