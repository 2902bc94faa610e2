package io.linkwatch.cli;

import io.linkwatch.util.ByteSize;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code 64MiB}-style sizes from the command line. */
final class SizeConverter implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    try {
      return ByteSize.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
