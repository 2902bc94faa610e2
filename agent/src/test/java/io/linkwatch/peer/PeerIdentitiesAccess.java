package io.linkwatch.peer;

import java.util.SortedMap;

/** The identity parser, for tests outside this package that read what the agent serves. */
public final class PeerIdentitiesAccess {
  private PeerIdentitiesAccess() {}

  public static SortedMap<Integer, String> npuPorts(String identity) {
    return PeerIdentities.parse(identity);
  }
}
