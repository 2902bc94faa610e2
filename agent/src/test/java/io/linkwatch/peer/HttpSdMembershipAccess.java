package io.linkwatch.peer;

import io.linkwatch.peer.PeerSchedule.Member;
import java.util.List;

/** The HTTP SD parser, for tests outside this package that read what the agent serves. */
public final class HttpSdMembershipAccess {
  private HttpSdMembershipAccess() {}

  public static List<Member> parse(String body) {
    return HttpSdMembership.parse(body);
  }
}
