package io.linkwatch.runtime.topology;

import static io.linkwatch.runtime.topology.TopologyFixtures.EIGHT_HCCS;
import static io.linkwatch.runtime.topology.TopologyFixtures.fixture;
import static io.linkwatch.runtime.topology.TopologyFixtures.links;
import static io.linkwatch.runtime.topology.TopologyFixtures.runtimeWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.runtime.LinkType;
import io.linkwatch.runtime.topology.TopologyFixtures.LogCatcher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandTopologySourceTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @TempDir Path dir;
  private LogCatcher log;

  @BeforeEach
  void catchLog() {
    log = new LogCatcher(CommandTopologySource.class);
  }

  @AfterEach
  void releaseLog() {
    log.close();
  }

  /** An executable shell script in the temp dir that prints {@code fixture} to stdout. */
  private Path printing(String fixtureName) throws IOException {
    Path data = dir.resolve(fixtureName);
    Files.writeString(data, fixture(fixtureName));
    return script("print.sh", "cat '" + data + "'");
  }

  private Path script(String name, String body) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  private static CommandTopologySource source(Path script, Duration timeout) {
    return new CommandTopologySource(List.of(script.toString()), timeout);
  }

  @Test
  void defaults() {
    CommandTopologySource source = new CommandTopologySource();
    assertThat(source.command()).containsExactly("npu-smi", "info", "-t", "topo");
    assertThat(source.timeout()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void parsesWhatTheCommandPrints() throws IOException {
    Topology t = source(printing("910b3-8npu-hccs.txt"), TIMEOUT).load(runtimeWith(8));

    assertThat(t.source()).isEqualTo("npu-smi");
    assertThat(t.links()).isEqualTo(links(EIGHT_HCCS, List.of(0, 1, 2, 3, 4, 5, 6, 7)));
    assertThat(t.affinity(0)).contains("0-23,96-119");
    assertThat(t.affinity(6)).contains("72-95,168-191");
    assertThat(log.events()).isEmpty();
  }

  @Test
  void passesArgumentsWithoutAShell() throws IOException {
    Path data = dir.resolve("two die.txt");
    Files.writeString(data, fixture("a3-2die-sio.txt"));

    Topology t = new CommandTopologySource(List.of("cat", data.toString()), TIMEOUT).load(null);

    assertThat(t.links()).isEqualTo(Map.of("0->1", LinkType.SIO, "1->0", LinkType.SIO));
  }

  @Test
  void unknownTokenIsLoggedOnceAndKept() throws IOException {
    Topology t = source(printing("pcie-4npu-unknown-token.txt"), TIMEOUT).load(runtimeWith(4));

    assertThat(t.link(1, 2)).isEqualTo(LinkType.UNKNOWN);
    assertThat(t.link(0, 1)).isEqualTo(LinkType.PIX);
    assertThat(log.warnings()).singleElement().asString().contains("XLINK");
  }

  @Test
  void nonZeroExit() throws IOException {
    Path script = script("fail.sh", "echo 'dcmi model initialized failed' >&2\nexit 1");

    Topology t = source(script, TIMEOUT).load(runtimeWith(2));

    assertThat(t).isSameAs(Topology.NONE);
    assertThat(log.warnings())
        .singleElement()
        .asString()
        .contains(script.toString(), "exit status 1", "dcmi model initialized failed");
  }

  @Test
  void missingCommand() {
    Path missing = dir.resolve("no-such-npu-smi");

    Topology t = new CommandTopologySource(List.of(missing.toString(), "info"), TIMEOUT).load(null);

    assertThat(t).isSameAs(Topology.NONE);
    assertThat(log.warnings())
        .singleElement()
        .asString()
        .contains(missing + " info", "cannot start it");
    assertThat(log.events().get(0).getThrowableProxy()).isNull();
  }

  @Test
  void timeoutKillsTheCommand() throws IOException {
    Path script = script("hang.sh", "echo '       NPU0'\nsleep 30");

    long start = System.nanoTime();
    Topology t = source(script, Duration.ofMillis(300)).load(null);
    long tookMs = (System.nanoTime() - start) / 1_000_000;

    assertThat(t).isSameAs(Topology.NONE);
    assertThat(tookMs).isLessThan(5_000);
    assertThat(log.warnings()).singleElement().asString().contains("no answer within 300 ms");
  }

  @Test
  void outputThatDoesNotParse() throws IOException {
    Path script = script("garbage.sh", "echo '      NPU0   NPU1'\necho 'NPU0  X'");

    Topology t = source(script, TIMEOUT).load(null);

    assertThat(t).isSameAs(Topology.NONE);
    assertThat(log.warnings())
        .singleElement()
        .asString()
        .contains("cannot parse its output: line 2: row NPU0 has 1 cells, expected 2");
  }

  @Test
  void unsupportedDevice() throws IOException {
    Topology t = source(printing("unsupported.txt"), TIMEOUT).load(runtimeWith(1));

    assertThat(t).isSameAs(Topology.NONE);
    assertThat(log.warnings())
        .singleElement()
        .asString()
        .contains("does not support querying topo");
  }

  @Test
  void tableThatDoesNotMatchTheRuntimeIsRejected() throws IOException {
    // e.g. npu-smi shows all 8 NPUs while ASCEND_RT_VISIBLE_DEVICES=0,1 leaves the runtime 2.
    Topology t = source(printing("910b3-8npu-hccs.txt"), TIMEOUT).load(runtimeWith(2));

    assertThat(t).isSameAs(Topology.NONE);
    assertThat(log.warnings()).singleElement().asString().contains("runtime sees 2 device(s)");
  }

  @Test
  void phyIdRowsMatchARuntimeOfTheSameSize() throws IOException {
    Topology t = source(printing("a3-container-4die.txt"), TIMEOUT).load(runtimeWith(4));

    assertThat(t.link(0, 1)).isEqualTo(LinkType.SIO);
    assertThat(t.link(3, 2)).isEqualTo(LinkType.SIO);
    assertThat(t.link(0, 3)).isEqualTo(LinkType.HCCS);
    assertThat(t.links()).hasSize(12);
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> new CommandTopologySource(List.of(), TIMEOUT))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CommandTopologySource(List.of("npu-smi"), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
