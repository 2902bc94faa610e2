package io.linkwatch.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizeTest {
  @ParameterizedTest
  @CsvSource({
    "4096, 4096",
    "1B, 1",
    "1KiB, 1024",
    "256MiB, 268435456",
    "1GiB, 1073741824",
    "1KB, 1000",
    "64MB, 64000000",
    "1GB, 1000000000",
    "1.5KiB, 1536",
    "2TiB, 2199023255552"
  })
  void parsesUnits(String text, long bytes) {
    assertThat(ByteSize.parse(text)).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1", "12XB", "", "MiB", "1.3B", "0KiB", "1 GiBs"})
  void rejectsNonSizes(String text) {
    assertThatThrownBy(() -> ByteSize.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'");
  }

  @ParameterizedTest
  @CsvSource({
    "268435456, 256MiB",
    "1024, 1KiB",
    "1000, 1KB",
    "1073741824, 1GiB",
    "1536, 1536B",
    "64000000, 64MB",
    "1000000000, 1GB",
    "4096, 4KiB"
  })
  void formatsTheShortestExactForm(long bytes, String text) {
    assertThat(ByteSize.format(bytes)).isEqualTo(text);
    assertThat(ByteSize.parse(text)).isEqualTo(bytes);
  }

  /** What a person reads, e.g. an H200's memory: 140.4GiB rather than 143771MiB. */
  @ParameterizedTest
  @CsvSource({
    "150754820096, 140.4GiB",
    "68719476736, 64GiB",
    "1536, 1536B",
    "100, 100B",
    "1610612736, 1536MiB"
  })
  void formatsForReading(long bytes, String text) {
    assertThat(ByteSize.human(bytes)).isEqualTo(text);
  }
}
