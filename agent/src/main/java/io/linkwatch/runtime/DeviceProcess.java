package io.linkwatch.runtime;

/** A process that holds a device, with the device memory it uses, e.g. pid 4242 with 2 GiB. */
public record DeviceProcess(long pid, long memoryBytes) {}
