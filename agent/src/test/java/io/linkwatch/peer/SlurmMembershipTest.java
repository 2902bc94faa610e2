package io.linkwatch.peer;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.peer.PeerSchedule.Member;
import org.junit.jupiter.api.Test;

/**
 * What {@code sinfo -h -N -o %N} prints, made members; the command itself runs against a real
 * one-node Slurm in SlurmHealthCheckLiveTest.
 */
class SlurmMembershipTest {
  @Test
  void aNodeInSeveralPartitionsIsOneMemberOnTheAgentsPort() {
    // -N prints a node once per partition it is in.
    assertThat(SlurmMembership.members("gpu-02\ngpu-01\ngpu-02\n\n  gpu-03 \n", 10187))
        .containsExactly(
            new Member("gpu-01:10187", null),
            new Member("gpu-02:10187", null),
            new Member("gpu-03:10187", null));
    assertThat(SlurmMembership.members("", 10187)).isEmpty();
  }
}
