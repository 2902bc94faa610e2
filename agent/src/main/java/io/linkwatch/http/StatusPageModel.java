package io.linkwatch.http;

import java.util.List;

/**
 * What the status page's templates ({@code io/linkwatch/http/status/*.mustache}) read: plain text
 * and flags, every string escaped where the template writes it. A null part (or an empty string, or
 * false) is left out of the page; a null table is a section the page does not have.
 */
final class StatusPageModel {
  private StatusPageModel() {}

  /** {@code page.mustache}: the stylesheet and script bodies, and the content. */
  record Page(String css, String script, long historyVersion, long refreshMs, Content content) {}

  /** {@code content.mustache}: what the page's script swaps in on every refresh. */
  record Content(
      String summary,
      String asOf,
      int refreshSeconds,
      String waitingForReference,
      Findings findings,
      List<Matrix> matrices,
      HostTransfer hostTransfer,
      Collectives collectives,
      Devices devices,
      Links links,
      NicPorts nicPorts,
      Peers peers,
      Health health) {}

  /**
   * {@code findings.mustache}: the agent's standing findings, worst first; with none, the verdict
   * in words.
   */
  record Findings(List<FindingRow> rows, boolean any, String verdict) {}

  /**
   * One standing finding; {@code css} is the cell colour of its state.
   *
   * @param repeats how often it came back in its escalation window, and whether that escalated it
   */
  record FindingRow(
      String state,
      String css,
      String subject,
      String code,
      String evidence,
      String action,
      String since,
      int count,
      String repeats) {}

  /** A matrix cell's devices, its {@code data-src} and {@code data-dst}. */
  record Pair(int src, int dst) {}

  /**
   * {@code cell.mustache}: a table cell in the colour {@code state} ({@code ok}, {@code warn},
   * {@code low}, {@code none}, the {@link CellJudge.State} names), which is also its {@code
   * data-state} where {@code judged}; or a matrix's diagonal. {@code pending}: a run is under way;
   * {@code value} the figure, {@code low} its triangle, {@code mark} a second mark after it, {@code
   * sub} a line under it, {@code series} the chart's series id.
   */
  record Cell(
      boolean diagonal,
      String state,
      boolean judged,
      Pair pair,
      String target,
      String title,
      boolean pending,
      String value,
      boolean low,
      String mark,
      String sub,
      String series) {
    static Cell diagonalCell() {
      return new Cell(true, null, false, null, null, null, false, null, false, null, null, null);
    }

    /** No figure: nothing was measured ({@code pending}: not yet). */
    static Cell empty(Pair pair, boolean pending) {
      String none = CellJudge.State.NONE.css;
      return new Cell(false, none, false, pair, null, null, pending, null, false, null, null, null);
    }

    /** No figure, as the last run failed with {@code result}. */
    static Cell failed(Pair pair, String title, String result) {
      String low = CellJudge.State.LOW.css;
      return new Cell(false, low, true, pair, null, title, false, result, false, null, null, null);
    }
  }

  /** {@code matrix.mustache}: a device pair matrix at one size ({@code size} null: none yet). */
  record Matrix(
      String title, String size, String probe, List<Integer> columns, List<MatrixRow> rows) {}

  record MatrixRow(int device, List<Cell> cells) {}

  /** {@code host-transfer.mustache}. */
  record HostTransfer(List<String> columns, List<HostTransferRow> rows) {}

  record HostTransferRow(
      long device,
      long node,
      String size,
      List<Cell> cells,
      String memoryNodes,
      boolean verified,
      String pages) {}

  /** {@code collectives.mustache}. */
  record Collectives(List<CollectiveRow> rows) {}

  /** {@code latency} null: no p50 (then {@code p99} is empty too). */
  record CollectiveRow(
      String probe,
      String devices,
      String size,
      Cell latency,
      String p99,
      String busBandwidth,
      String busSeries) {}

  /** {@code devices.mustache}. */
  record Devices(List<DeviceRow> rows) {}

  /** {@code checked} false: the busy check has not looked at the device yet. */
  record DeviceRow(
      int device,
      String name,
      String memory,
      String localCopy,
      String localSeries,
      boolean checked,
      boolean busy,
      String reasons,
      String checkedBy) {}

  /**
   * {@code peers.mustache}: the probes between servers, as this host sees them.
   *
   * @param summary where the members came from, this host among them, the round and the cover
   * @param counts peers by the verdict of their latest probe within the cover period
   * @param suspects whom this host's evidence names: itself, a switch or a peer
   * @param membershipError why the last membership read failed; null when it did not
   * @param pairs the last two-host run of each probe with each partner ({@code peers.collective})
   */
  record Peers(
      String summary,
      List<PeerCount> counts,
      List<PeerSuspect> suspects,
      boolean anySuspect,
      String membershipError,
      List<PairRow> pairs,
      boolean anyPair) {}

  /**
   * One two-host run: {@code css} {@code ok}, {@code low} (failed) or empty (skipped, nothing
   * judged); {@code figures} the last success's summaries, with how long ago it was measured.
   */
  record PairRow(
      String probe,
      String partner,
      String result,
      String css,
      String when,
      String error,
      String figures) {}

  /** {@code css}: the cell colour of a verdict with peers in it ({@code ok} or {@code low}). */
  record PeerCount(String verdict, int peers, String css) {}

  /** {@code kind}: {@code this host}, {@code switch} or {@code peer}. */
  record PeerSuspect(String kind, String name, String nic, String verdict, String evidence) {}

  /** {@code nic-ports.mustache}. */
  record NicPorts(List<NicPortRow> rows) {}

  /**
   * {@code lost}: down after being up; {@code counted}: an error counter above 0; {@code speed} in
   * Gb/s.
   */
  record NicPortRow(
      String nic,
      int port,
      String linkLayer,
      String state,
      boolean lost,
      String physState,
      String speed,
      String netdev,
      boolean counted,
      String errors) {}

  /** {@code links.mustache}. */
  record Links(List<LinkRow> rows) {}

  /** {@code narrow}: fewer lanes than the link's maximum; {@code counted}: an error counted. */
  record LinkRow(
      String source,
      String device,
      String read,
      String link,
      String type,
      String peer,
      boolean down,
      String up,
      boolean narrow,
      String lanes,
      boolean counted,
      String errors) {}

  /** {@code health.mustache}. */
  record Health(List<HealthRow> rows, String notApplicable) {}

  record HealthRow(
      String probe,
      String target,
      boolean success,
      String result,
      String lastRun,
      String took,
      String error,
      String waiting,
      String nextRun) {}
}
