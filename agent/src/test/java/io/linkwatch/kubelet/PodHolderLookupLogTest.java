package io.linkwatch.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.linkwatch.testing.LogCapture;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Off Kubernetes (no kubelet socket, ever) a busy device leaves nothing in the journal. */
class PodHolderLookupLogTest {
  @RegisterExtension LogCapture logs = new LogCapture(PodHolderLookup.class.getName());

  @TempDir Path dir;

  @Test
  void aNodeWithoutAKubeletLogsNothingAboveDebug() throws Exception {
    List<PodLookup> seen = new ArrayList<>();
    PodResourcesClient client =
        new PodResourcesClient(dir.resolve("kubelet.sock"), Duration.ofSeconds(1));
    try (PodHolderLookup lookup =
        new PodHolderLookup(
            client, Duration.ofSeconds(1), List::of, seen::add, Clock.systemUTC())) {
      lookup.lookup();
      lookup.lookup();
    }
    assertThat(seen).extracting(PodLookup::result).containsOnly(PodLookup.Result.ABSENT);
    assertThat(logs.events()).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.INFO)).isEmpty();
    assertThat(logs.events())
        .extracting(e -> e.getFormattedMessage())
        .containsExactly(
            "Pod resources: no socket at "
                + dir.resolve("kubelet.sock")
                + " (not a Kubernetes node)");
  }
}
