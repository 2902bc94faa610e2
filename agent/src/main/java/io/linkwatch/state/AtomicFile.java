package io.linkwatch.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** A small file written whole and renamed into place: a reader never sees half of it. */
final class AtomicFile {
  private AtomicFile() {}

  /**
   * Replaces {@code target} with {@code text}, readable by all (the agent may run as another user).
   */
  static void write(Path target, String text) throws IOException {
    Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    try {
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: its default permissions stand.
    }
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
