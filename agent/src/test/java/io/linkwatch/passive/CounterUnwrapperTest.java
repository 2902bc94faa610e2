package io.linkwatch.passive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CounterUnwrapperTest {
  private final CounterUnwrapper u = new CounterUnwrapper();

  @Test
  void a32BitCounterThatWrapsKeepsGrowing() {
    assertThat(u.next("tx", 4294967000L, 32)).isEqualTo(4294967000L);
    assertThat(u.next("tx", 200, 32)).isEqualTo(4294967296L + 200);
    assertThat(u.next("tx", 5000, 32)).isEqualTo(4294967296L + 5000);
  }

  @Test
  void aDropFromTheLowerHalfIsAResetThatPrometheusSees() {
    u.next("crc", 1000, 32);
    // A driver reload: the counter starts again; the published value drops, and rate() knows.
    assertThat(u.next("crc", 3, 32)).isEqualTo(3);
  }

  @Test
  void sixteenBitSioCountersWrapAt65536() {
    u.next("sio", 65530, 16);
    assertThat(u.next("sio", 4, 16)).isEqualTo(65536 + 4);
  }

  @Test
  void sixtyFourBitCountersPassThrough() {
    u.next("x", 100, 64);
    assertThat(u.next("x", 1, 64)).isEqualTo(1);
  }

  @Test
  void countersAreKeptApartByKey() {
    u.next("a", 4294967000L, 32);
    assertThat(u.next("b", 10, 32)).isEqualTo(10);
    assertThat(u.next("a", 10, 32)).isEqualTo(4294967306L);
  }
}
