package io.linkwatch.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.state.JobRecord.Counters;
import io.linkwatch.state.JobRecord.JobMark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobRecordTest {
  @TempDir Path dir;

  static JobMark mark(double at, String state, long crc) {
    return new JobMark(
        at,
        "quick",
        state,
        state + " - 8 devices",
        List.of(new Counters("dev1 HCCS link 2 (to 2)", 100L, 200L, Map.of("crc", crc))));
  }

  @Test
  void aPrologStartsAJobAndItsEpilogEndsIt() {
    Path lock = dir.resolve("probes.lock");
    JobRecord.mark(lock, "1234", true, mark(10, "OK", 5));
    assertThat(JobRecord.running(lock)).containsExactly("1234");
    JobRecord.mark(lock, "1234", false, mark(20, "FAIL", 905));
    assertThat(JobRecord.running(lock)).isEmpty();
    JobRecord r = JobRecord.read(lock, "1234").orElseThrow();
    assertThat(r.start()).isEqualTo(mark(10, "OK", 5));
    assertThat(r.end()).isEqualTo(mark(20, "FAIL", 905));
    assertThat(dir.resolve("jobs").resolve("1234.json")).exists();
    // A requeued job's prolog starts it again: the old end goes.
    JobRecord.mark(lock, "1234", true, mark(30, "OK", 905));
    assertThat(JobRecord.read(lock, "1234").orElseThrow().end()).isNull();
  }

  @Test
  void idsThatCouldEscapeTheDirectoryAreRefusedAndNothingIsWritten() {
    Path lock = dir.resolve("probes.lock");
    for (String bad : List.of("../etc", "a b", "", "-x", "..")) {
      assertThat(JobRecord.validId(bad)).as(bad).isFalse();
      JobRecord.mark(lock, bad, true, mark(1, "OK", 0));
    }
    assertThat(Files.exists(dir.resolve("jobs"))).isFalse();
    assertThat(JobRecord.validId("123_4")).isTrue();
    assertThat(JobRecord.validId("123+0")).isTrue();
    assertThat(JobRecord.validId("ml/train-0")).isTrue();
  }

  @Test
  void theNewestRecordsAreKept() throws Exception {
    Path lock = dir.resolve("probes.lock");
    for (int i = 0; i < JobRecord.KEPT + 5; i++) {
      JobRecord.mark(lock, "job" + i, true, mark(i, "OK", 0));
      Files.setLastModifiedTime(
          dir.resolve("jobs").resolve("job" + i + ".json"),
          java.nio.file.attribute.FileTime.fromMillis(1_000_000L + i * 1000L));
    }
    try (var files = Files.list(dir.resolve("jobs"))) {
      assertThat(files.filter(f -> f.toString().endsWith(".json")).count())
          .isEqualTo(JobRecord.KEPT);
    }
    assertThat(JobRecord.read(lock, "job0")).isEmpty();
    assertThat(JobRecord.read(lock, "job" + (JobRecord.KEPT + 4))).isPresent();
  }
}
