package io.linkwatch.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.verdict.ExpectedFigures;
import io.linkwatch.verdict.Verdict;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A check judges its own runs through the same verdict as the agent's status: its document must be
 * in the status' shape, figures included, or the verdict would find none to judge.
 */
class LinkCheckDocumentTest {
  @Test
  void aCheckedFigureUnderItsFloorIsJudgedFromTheDocument() {
    long size = 256L << 20;
    List<ProbeRun> runs =
        List.of(
            run("topology", "dev0", new DeviceInfo(0, "Ascend910_9382", 2, null, "", 64L << 30)),
            run("p2p", "0->1", new P2pBandwidth(0, 1, "SIO", size, 10e9, 0.03)));
    JsonObject document = LinkCheck.document(runs, Optional.empty());

    assertThat(document.get("schema_version").getAsInt())
        .isEqualTo(io.linkwatch.status.StatusDocument.SCHEMA_VERSION);
    Verdict v = Verdict.judge(document, ExpectedFigures.SHIPPED);
    assertThat(v.findings())
        .extracting(Verdict.Finding::line)
        .anyMatch(l -> l.startsWith("p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 10.0 GB/s"));
  }

  private static ProbeRun run(String probe, String target, Measurement figure) {
    return ProbeRun.of(probe, List.of(TargetResult.success(target, 0.1, List.of(figure))));
  }
}
