package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.linkwatch.util.IoReasons;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A config file that exists but cannot be read: the error says why, beside the path. */
class UnreadableConfigTest {
  @TempDir Path dir;

  @Test
  void aDeniedReadSaysPermissionDeniedNotThePathTwice() {
    // What Files.readString throws for a file without read permission: the path is the message.
    assertThat(IoReasons.of(new AccessDeniedException("/etc/linkwatch/linkwatch.yaml")))
        .isEqualTo("permission denied");
    assertThat(IoReasons.of(new FileSystemException("/x", null, "Is a directory")))
        .isEqualTo("is a directory");
    assertThat(IoReasons.of(new IOException("Input/output error"))).isEqualTo("input/output error");
  }

  @Test
  void anUnreadableFileIsAConfigErrorSayingPermissionDenied() throws Exception {
    assumeFalse(
        "root".equals(System.getProperty("user.name")), "root reads a file without permissions");
    Path file = Files.writeString(dir.resolve("linkwatch.yaml"), "backend: sim\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));

    assertThatThrownBy(() -> ConfigLoader.load(file))
        .isInstanceOf(ConfigException.class)
        .hasMessage(file + ": cannot read: permission denied");
  }

  @Test
  void aDirectoryIsAConfigErrorSayingSo() {
    assertThatThrownBy(() -> ConfigLoader.load(dir))
        .isInstanceOf(ConfigException.class)
        .hasMessage(dir + ": cannot read: is a directory");
  }
}
