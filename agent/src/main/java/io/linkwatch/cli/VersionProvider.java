package io.linkwatch.cli;

import io.linkwatch.BuildInfo;
import picocli.CommandLine.IVersionProvider;

/** Prints the version the jar was built as. */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"linkwatch " + BuildInfo.version()};
  }
}
