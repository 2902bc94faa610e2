package io.linkwatch.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.host.HostBuffer;
import io.linkwatch.host.HostPaths;
import io.linkwatch.probe.devicememory.DeviceMemorySettings;
import io.linkwatch.probe.hosttransfer.HostTransferSettings;
import io.linkwatch.probe.p2p.P2pBidirectionalSettings;
import io.linkwatch.probe.p2p.P2pSettings;
import io.linkwatch.probe.result.Outcome;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.runtime.DeviceBuffer;
import io.linkwatch.runtime.DeviceRuntime;
import io.linkwatch.runtime.topology.RuntimeTopologySource;
import io.linkwatch.testing.SimControl;
import io.linkwatch.testing.SimFace;
import io.linkwatch.testing.SimFace.Call;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A synchronous copy that corrupts data ({@code corrupt aclrtMemcpy}) is the path every integrity
 * check reads back through. Checking against the written pattern catches it in every probe that
 * copies data; comparing two readbacks, as the checks once did, does not.
 */
class ReadbackCorruptionTest {
  private SimControl control;

  @BeforeEach
  void openControl() {
    control = SimControl.open();
  }

  @AfterEach
  void removeFaults() {
    control.close();
  }

  private static ProbeRun run(SimFace face, ProbeSettings settings) {
    try (DeviceRuntime runtime = face.open()) {
      long live = runtime.liveAllocations().orElseThrow();
      ProbeRun run =
          settings
              .newProbe()
              .run(
                  new ProbeContext(
                      runtime, new RuntimeTopologySource(), HostPaths.system(), Progress.NONE));
      assertThat(runtime.liveAllocations()).contains(live);
      return run;
    }
  }

  private static void assertEveryTargetMismatches(ProbeRun run) {
    assertThat(run.targets()).isNotEmpty();
    assertThat(run.targets())
        .allSatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo(Outcome.ERROR);
              assertThat(t.error()).contains("data mismatch");
            });
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void p2pFailsWithADataMismatch(SimFace face) {
    control.set("corrupt " + face.symbol(Call.READBACK));
    assertEveryTargetMismatches(
        run(face, new P2pSettings(List.of(1L << 20), 0, 1, face.firstPairs())));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void hostTransferFailsWithADataMismatch(SimFace face) {
    control.set("corrupt " + face.symbol(Call.READBACK));
    assertEveryTargetMismatches(
        run(
            face,
            new HostTransferSettings(
                List.of(1L << 20), 0, 1, List.of(0), List.of(0), List.of("pinned", "pageable"))));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void deviceMemoryFailsWithADataMismatch(SimFace face) {
    control.set("corrupt " + face.symbol(Call.READBACK));
    assertEveryTargetMismatches(run(face, new DeviceMemorySettings(1L << 20, 0, 1, List.of())));
  }

  @ParameterizedTest
  @EnumSource(SimFace.class)
  void p2pBidirectionalFailsWithADataMismatch(SimFace face) {
    control.set("corrupt " + face.symbol(Call.READBACK));
    assertEveryTargetMismatches(
        run(
            face,
            new P2pBidirectionalSettings(
                List.of(1L << 20), 0, 1, face.firstPairs().subList(0, 1))));
  }

  /** The failure the pattern check prevents: two corrupting readbacks agree with each other. */
  @ParameterizedTest
  @EnumSource(SimFace.class)
  void twoReadbacksThroughTheCorruptingCopyAgree(SimFace face) {
    try (DeviceRuntime runtime = face.open();
        DeviceBuffer src = runtime.allocate(0, 1 << 20);
        DeviceBuffer dst = runtime.allocate(0, 1 << 20);
        HostBuffer a = runtime.allocatePinned(DataCheck.BLOCK);
        HostBuffer b = runtime.allocatePinned(DataCheck.BLOCK)) {
      DataCheck check = new DataCheck(runtime);
      DataCheck.Pattern written = check.fill(src, 7);
      runtime.copy(dst, 0, src, 0, 1 << 20);
      control.set("corrupt " + face.symbol(Call.READBACK));
      byte[] ea = new byte[DataCheck.BLOCK];
      byte[] eb = new byte[DataCheck.BLOCK];
      runtime.copy(a, 0, src, 0, DataCheck.BLOCK);
      runtime.copy(b, 0, dst, 0, DataCheck.BLOCK);
      a.read(0, ea, DataCheck.BLOCK);
      b.read(0, eb, DataCheck.BLOCK);

      assertThat(ea).as("a readback comparison sees no difference").isEqualTo(eb);
      assertThat(check.verify(dst, 1 << 20, written)).startsWith("data mismatch in the block");
    }
  }
}
