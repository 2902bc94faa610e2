package io.linkwatch.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShadowRecordTest {
  @TempDir Path dir;

  @Test
  void eachHookCountsWhatItDidNotDoAndKeepsTheLastLine() {
    Path lock = dir.resolve("probes.lock");
    assertThat(ShadowRecord.read(lock)).isEmpty();
    ShadowRecord.add(lock, KitHook.HEALTHCHECK, "SHADOW FAIL - device 3: LW-DEVICE-SLOW a", 10);
    ShadowRecord.add(lock, KitHook.HEALTHCHECK, "SHADOW FAIL - device 3: LW-DEVICE-SLOW b", 20);
    ShadowRecord.add(lock, KitHook.PROLOG, "SHADOW FAIL - link 2<->5: LW-LINK-SLOW", 30);
    assertThat(ShadowRecord.read(lock))
        .containsExactly(
            new ShadowRecord(
                KitHook.HEALTHCHECK, 2, "SHADOW FAIL - device 3: LW-DEVICE-SLOW b", 20),
            new ShadowRecord(KitHook.PROLOG, 1, "SHADOW FAIL - link 2<->5: LW-LINK-SLOW", 30));
  }

  /** Prologs of several jobs end at once: no count is lost. */
  @Test
  void concurrentCountsAreAllKept() throws Exception {
    Path lock = dir.resolve("probes.lock");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> done = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      double at = i;
      done.add(pool.submit(() -> ShadowRecord.add(lock, KitHook.PROLOG, "SHADOW FAIL - x", at)));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    assertThat(ShadowRecord.read(lock))
        .singleElement()
        .extracting(ShadowRecord::count)
        .isEqualTo(200L);
  }

  @Test
  void withoutTheLockDirectoryNothingIsKeptAndNothingFails() {
    Path lock = dir.resolve("missing").resolve("probes.lock");
    ShadowRecord.add(lock, KitHook.NPD, "SHADOW FAIL - x", 1);
    assertThat(Files.exists(lock.getParent())).isFalse();
    assertThat(ShadowRecord.read(lock)).isEmpty();
    ShadowRecord.add(null, KitHook.NPD, "SHADOW FAIL - x", 1);
  }
}
