package io.linkwatch.host;

/**
 * One line of {@code /proc/<pid>/maps}: the address range {@code [start, end)}, the permissions
 * ({@code "rw-p"}) and the path, or {@code ""} for an anonymous mapping. Addresses are unsigned
 * (the vsyscall page is at {@code ffffffffff600000}); compare them with {@link
 * Long#compareUnsigned}.
 */
public record MapsRange(long start, long end, String perms, String path) {
  public boolean contains(long address) {
    return Long.compareUnsigned(start, address) <= 0 && Long.compareUnsigned(address, end) < 0;
  }

  /** Whether {@code [from, to)} shares at least one byte with this range. */
  public boolean overlaps(long from, long to) {
    return Long.compareUnsigned(from, end) < 0 && Long.compareUnsigned(start, to) < 0;
  }

  public boolean anonymous() {
    return path.isEmpty();
  }
}
