package io.linkwatch.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.linkwatch.probe.p2p.P2pBandwidth;
import io.linkwatch.probe.result.DeviceInfo;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.probe.result.ProbeRun;
import io.linkwatch.probe.result.TargetResult;
import io.linkwatch.status.StatusCodec;
import io.linkwatch.status.StatusDocument;
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
    StatusDocument document = LinkCheck.document(runs, Optional.empty());

    assertThat(document.schemaVersion())
        .isEqualTo(io.linkwatch.status.StatusDocument.SCHEMA_VERSION);
    Verdict v = Verdict.judge(document, io.linkwatch.config.ExpectedFigureTable.SHIPPED);
    assertThat(v.findings())
        .extracting(Verdict.Finding::line)
        .anyMatch(l -> l.startsWith("p2p 0->1 SIO 256MiB: LW-BELOW-FLOOR 10.0 GB/s"));
  }

  /**
   * Where the product has no expected figures, the host's own agent is the reference: a pair the
   * check measures well under what the agent last served warns, one near it does not.
   */
  @Test
  void aPairWellUnderWhatThisHostsAgentMeasuredWarns() throws Exception {
    long size = 256L << 20;
    String served =
        """
        {"schema_version": 2, "targets": [{"probe": "p2p", "target": "0->1", "result": "success",
          "measurements": [{"type": "P2pBandwidth", "src": 0, "dst": 1, "link": "HCCS",
                            "size_bytes": 268435456, "bytes_per_second": 160e9,
                            "seconds_per_copy": 0.0017}]}]}
        """;
    Optional<StatusDocument> agent = Optional.of(StatusCodec.decode(served));
    List<Verdict.Finding> low =
        LinkCheck.belowHostBaseline(
            agent, List.of(run("p2p", "0->1", new P2pBandwidth(0, 1, "HCCS", size, 100e9, 0.003))));
    assertThat(low)
        .extracting(Verdict.Finding::line)
        .containsExactly(
            "p2p 0->1 HCCS 256MiB: LW-BELOW-HOST 100.0 GB/s, this host's agent measured 160.0 GB/s");
    assertThat(
            LinkCheck.belowHostBaseline(
                agent,
                List.of(run("p2p", "0->1", new P2pBandwidth(0, 1, "HCCS", size, 150e9, 0.002)))))
        .isEmpty();
    // Another size is another figure: nothing to compare with.
    assertThat(
            LinkCheck.belowHostBaseline(
                agent,
                List.of(run("p2p", "0->1", new P2pBandwidth(0, 1, "HCCS", 1L << 20, 1e9, 0.001)))))
        .isEmpty();
  }

  private static ProbeRun run(String probe, String target, Measurement figure) {
    return ProbeRun.of(probe, List.of(TargetResult.success(target, 0.1, List.of(figure))));
  }
}
