package io.linkwatch.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JavaCommandTest {
  @Test
  void unsetOrBlankIsThisJvmsJava() {
    assertThat(JavaCommand.of(null, "/usr/lib/jvm/java-17-openjdk-arm64"))
        .containsExactly("/usr/lib/jvm/java-17-openjdk-arm64/bin/java");
    assertThat(JavaCommand.of("  ", "/opt/jdk")).containsExactly("/opt/jdk/bin/java");
  }

  @Test
  void anEmulatorInFrontIsSplitIntoWords() {
    assertThat(
            JavaCommand.of(
                " qemu-aarch64-static  -L /\t/usr/lib/jvm/java-17-openjdk-arm64/bin/java ",
                "/ignored"))
        .containsExactly(
            "qemu-aarch64-static", "-L", "/", "/usr/lib/jvm/java-17-openjdk-arm64/bin/java");
  }
}
