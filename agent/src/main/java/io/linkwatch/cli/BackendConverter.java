package io.linkwatch.cli;

import io.linkwatch.runtime.Backend;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --backend auto|ascend|cuda|sim|sim-cuda}. */
final class BackendConverter implements ITypeConverter<Backend> {
  @Override
  public Backend convert(String value) {
    try {
      return Backend.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
