package io.linkwatch.peer;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.peer.PeerSchedule.Member;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SelfMemberTest {
  private static final List<Member> MEMBERS =
      List.of(
          new Member("127.0.0.1:10187", null),
          new Member("127.0.0.1:10188", null),
          new Member("192.0.2.5:10187", null));

  @Test
  void theMemberOnThisMachinesAddressAndTheAgentsPortIsThisHost() {
    assertThat(SelfMember.find(MEMBERS, Optional.empty(), 10188, SelfMember::isLocalHost))
        .contains(MEMBERS.get(1));
    assertThat(SelfMember.find(MEMBERS, Optional.empty(), 9999, SelfMember::isLocalHost)).isEmpty();
  }

  @Test
  void peersSelfWinsAndTwoCandidatesAreNotGuessedBetween() {
    assertThat(SelfMember.find(MEMBERS, Optional.of("192.0.2.5:10187"), 10187, h -> false))
        .contains(MEMBERS.get(2));
    List<Member> twice =
        List.of(new Member("127.0.0.1:10187", null), new Member("localhost:10187", null));
    assertThat(SelfMember.find(twice, Optional.empty(), 10187, SelfMember::isLocalHost)).isEmpty();
  }
}
