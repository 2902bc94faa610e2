package io.linkwatch.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class EchoRateLimitTest {
  @Test
  void eachSourceAndAllTogetherAreHeldToTheirRateEachSecond() throws Exception {
    EchoRateLimit limit = new EchoRateLimit(3, 5);
    InetAddress a = InetAddress.getByName("10.0.0.1");
    InetAddress b = InetAddress.getByName("10.0.0.2");
    InetAddress c = InetAddress.getByName("10.0.0.3");
    long t = 1_000_000L;
    for (int i = 0; i < 3; i++) {
      assertThat(limit.allow(a, t + i)).isTrue();
    }
    assertThat(limit.allow(a, t + 10)).as("a's fourth in one second").isFalse();
    assertThat(limit.allow(b, t + 20)).isTrue();
    assertThat(limit.allow(b, t + 30)).isTrue();
    assertThat(limit.allow(c, t + 40)).as("the sixth in all").isFalse();
    // The next second starts again.
    assertThat(limit.allow(a, t + 1000)).isTrue();
    assertThat(limit.allow(c, t + 1001)).isTrue();
  }

  /** What a member sends at most (4 trains at once, an echo every 10 ms each) is never refused. */
  @Test
  void peersAtTheirBusiestAreNeverRefused() throws Exception {
    EchoRateLimit limit = new EchoRateLimit();
    InetAddress peer = InetAddress.getByName("10.0.0.9");
    for (long ms = 0; ms < 10_000; ms += 10) {
      for (int train = 0; train < 4; train++) {
        assertThat(limit.allow(peer, 5_000_000L + ms)).isTrue();
      }
    }
  }
}
