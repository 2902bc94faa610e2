package io.linkwatch.util;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

/**
 * Why a file could not be read, in the words an error line ends with ({@code permission denied},
 * {@code no such file}, {@code is a directory}): the JDK's file exceptions carry the path as their
 * message and the reason apart (or, for a denied read, not at all), so printing {@code
 * getMessage()} after the path says the path twice and never why.
 */
public final class IoReasons {
  private IoReasons() {}

  public static String of(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return lowerFirst(fs.getReason());
    }
    String message = e.getMessage();
    return message == null || message.isBlank()
        ? e.getClass().getSimpleName()
        : lowerFirst(message);
  }

  private static String lowerFirst(String s) {
    return s.isEmpty() ? s : s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
  }
}
