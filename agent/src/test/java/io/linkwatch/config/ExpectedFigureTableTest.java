package io.linkwatch.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.verdict.ExpectedFigure;
import io.linkwatch.verdict.ExpectedFigures;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The shipped table, read from its resource by the config's own row reader. */
class ExpectedFigureTableTest {
  /** A seed's row names what the seed measured: {@code ...: 155.1 GB/s at 256 MiB}. */
  private static final Pattern MEASURED = Pattern.compile("seed .*: ([0-9.]+) GB/s at ");

  @Test
  void everyRowOfTheResourceIsRead() {
    // One row per line that opens a row in the file: a row the reader dropped would be missing.
    assertThat(ExpectedFigureTable.SHIPPED).hasSize(9);
    assertThat(ExpectedFigureTable.SHIPPED)
        .extracting(ExpectedFigure::probe)
        .containsOnly("p2p", "host_transfer", "allreduce");
    assertThat(ExpectedFigureTable.SHIPPED.get(1))
        .isEqualTo(
            new ExpectedFigure(
                "Ascend910_93",
                "SIO",
                "p2p",
                256L << 20,
                256L << 20,
                ExpectedFigure.Quantity.BANDWIDTH,
                124.08e9,
                139.59e9,
                "seed 000, A3 SIO 0->1: 155.1 GB/s at 256 MiB"));
  }

  @Test
  void aSeedsBandsAreTheSharesOfWhatItMeasured() {
    List<ExpectedFigure> seeded =
        ExpectedFigureTable.SHIPPED.stream()
            .filter(f -> MEASURED.matcher(f.source()).find())
            .toList();
    assertThat(seeded).hasSize(6);
    for (ExpectedFigure f : seeded) {
      Matcher m = MEASURED.matcher(f.source());
      assertThat(m.find()).isTrue();
      double measured = Double.parseDouble(m.group(1)) * 1e9;
      assertThat(f.fail())
          .as(f.source())
          .isCloseTo(ExpectedFigures.FAIL_SHARE * measured, within());
      assertThat(f.warn())
          .as(f.source())
          .isCloseTo(ExpectedFigures.WARN_SHARE * measured, within());
    }
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e3);
  }

  @Test
  void theDefaultsJudgeByTheShippedTable() {
    assertThat(ConfigLoader.defaults().expectedFigures()).isEqualTo(ExpectedFigureTable.SHIPPED);
  }
}
