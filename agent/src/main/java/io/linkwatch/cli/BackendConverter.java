package io.linkwatch.cli;

import io.linkwatch.runtime.Backend;
import picocli.CommandLine.ITypeConverter;

/** Reads {@code --backend sim|ascend}. */
final class BackendConverter implements ITypeConverter<Backend> {
  @Override
  public Backend convert(String value) {
    return Backend.parse(value);
  }
}
