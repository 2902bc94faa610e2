package io.linkwatch.cli;

import io.linkwatch.util.ByteSize;
import picocli.CommandLine.ITypeConverter;

/** Reads {@code 64MiB}-style sizes from the command line. */
final class SizeConverter implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    return ByteSize.parse(value);
  }
}
