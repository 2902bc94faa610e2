package io.linkwatch;

/** The agent's version, from the jar manifest ({@code dev} when run from classes). */
public final class BuildInfo {
  private BuildInfo() {}

  public static String version() {
    String v = BuildInfo.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }
}
