package io.linkwatch.host;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SyscallNumbersTest {
  @Test
  void movePagesPerArchitecture() {
    assertThat(SyscallNumbers.movePages("amd64")).hasValue(279);
    assertThat(SyscallNumbers.movePages("x86_64")).hasValue(279);
    assertThat(SyscallNumbers.movePages("aarch64")).hasValue(239);
    assertThat(SyscallNumbers.movePages("riscv64")).isEmpty();
  }

  @Test
  void unknownArchitectureIsEnosysSoPlacementFallsBack() {
    HostException e = new HostException("move_pages on riscv64", Errno.ENOSYS);
    assertThat(e).hasMessageStartingWith("move_pages on riscv64 failed: ENOSYS (38");
    assertThat(e.errno()).hasValue(38);
    assertThat(new HostException("x").errno()).isEmpty();
    assertThat(Errno.describe(95)).isEqualTo("errno 95");
  }
}
