package io.linkwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.testing.JavaProcess;
import java.net.BindException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A listen address that cannot be bound gets the hint that fits why, not always "stop it". */
class ListenHintTest {
  @TempDir Path dir;

  @Test
  void eachCauseHasItsOwnHint() {
    assertThat(RunCommand.listenHint(new BindException("Address already in use"), 10187))
        .isEqualTo("stop what uses it or choose another HOST:PORT with --listen");
    assertThat(
            RunCommand.listenHint(
                new BindException("bind(..) failed: Cannot assign requested address"), 10187))
        .startsWith("the address is not one of this host's");
    assertThat(RunCommand.listenHint(new BindException("Permission denied"), 80))
        .isEqualTo(
            "a port below 1024 needs root or CAP_NET_BIND_SERVICE: choose a port from 1024 with"
                + " --listen (the default is 10187)");
    assertThat(RunCommand.listenHint(new UnknownHostException("nosuch.invalid"), 10187))
        .startsWith("check the host name");
    assertThat(RunCommand.listenHint(new IllegalStateException("other"), 10187)).isNull();
  }

  @Test
  void anAddressOfNoInterfaceHereSaysSoInOneLine() throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), "backend: sim\n");
    // TEST-NET-1 (RFC 5737): assigned to no host.
    JavaProcess.Result r =
        JavaProcess.run(
            Map.of(),
            Duration.ofSeconds(60),
            "run",
            "--config",
            config.toString(),
            "--listen",
            "192.0.2.1:10187");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().lines())
        .containsExactly(
            "linkwatch: --listen 192.0.2.1:10187: cannot listen there (Cannot assign requested"
                + " address); the address is not one of this host's: give one of its addresses,"
                + " 0.0.0.0 for all or 127.0.0.1 for this host only, with --listen");
  }
}
