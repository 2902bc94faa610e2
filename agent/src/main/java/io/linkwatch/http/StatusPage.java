package io.linkwatch.http;

import static io.linkwatch.http.StatusFormat.gbps;
import static io.linkwatch.http.StatusFormat.size;

import io.linkwatch.history.SeriesId;
import io.linkwatch.http.CellJudge.Judgement;
import io.linkwatch.http.CellJudge.State;
import io.linkwatch.http.StatusPageModel.Cell;
import io.linkwatch.http.StatusPageModel.Content;
import io.linkwatch.http.StatusPageModel.Matrix;
import io.linkwatch.http.StatusPageModel.MatrixRow;
import io.linkwatch.http.StatusPageModel.Pair;
import io.linkwatch.probe.result.Judged;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.status.StatusDocument;
import io.linkwatch.status.TargetEntry;
import io.linkwatch.verdict.Expectations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The status page at {@code /}: the agent's last results as HTML tables that read without
 * JavaScript, rendered from the same document as {@code /api/v1/status}, so it shows nothing the
 * API does not and costs what one status request costs. A small inline script fetches the page
 * again every few seconds and swaps its tables in place (one renderer, no second copy of it in
 * JavaScript); nothing here starts device work.
 *
 * <p>This class builds the page's model ({@link StatusPageModel}); the templates, stylesheet and
 * script under {@code io/linkwatch/http/status} ({@link StatusTemplates}) make it HTML.
 *
 * <p>The p2p matrix is a heatmap: every cell prints its GB/s, with the link type, and is coloured
 * by the expected-figures table where it has a row for the product, link and size (OK, warn, low),
 * and otherwise by the figure's ratio to the median of the series' earlier figures in the agent's
 * history ({@link CellJudge}, with the bands of the table's seeds). The palette is colour-blind
 * safe (blue, yellow, vermillion, after Okabe and Ito) and a low cell is also marked with a
 * triangle, so colour is never the only sign.
 *
 * <p>Every charted figure's cell holds an empty {@code span class="spark" data-series="ID"}; the
 * script draws the series' last 24 hours into it as a small SVG line from {@code /api/v1/history},
 * which it fetches again only when the page's {@code data-history-version} changes.
 *
 * <pre>
 * src \ dst   0                1
 * 0           —                119.7 SIO  (ok)
 * 1           59.3 SIO ▼ (low) —
 * </pre>
 */
final class StatusPage {
  /** How often the page's script fetches it again, unless {@code ?refresh=N} says otherwise. */
  static final int REFRESH_SECONDS = 5;

  private static final Comparator<List<Integer>> PAIR_ORDER =
      Comparator.<List<Integer>>comparingInt(l -> l.get(0)).thenComparingInt(l -> l.get(1));

  private final CellJudge judge;
  private final Expectations expected;

  StatusPage(Expectations expected) {
    this.judge = new CellJudge(expected.figures());
    this.expected = expected;
  }

  /**
   * The whole page for {@code status} (the {@code /api/v1/status} document), its cells judged
   * against {@code history} where no expected figure applies.
   */
  String render(StatusDocument status, HistoryReferences history, Instant now, int refreshSeconds) {
    StatusFacts facts = StatusFacts.of(status, history.get(), expected.inactiveLinks());
    return StatusTemplates.render(
        history.version(),
        refreshSeconds,
        content(facts, status, now, refreshSeconds, history.step()));
  }

  private Content content(
      StatusFacts facts,
      StatusDocument status,
      Instant now,
      int refreshSeconds,
      java.time.Duration historyStep) {
    List<Matrix> matrices = new ArrayList<>();
    for (ProbeKind.PairMatrix m : ProbeKind.pairMatrices()) {
      matrices.addAll(matrix(facts, m.probe(), m.title()));
    }
    FigureTables figures = new FigureTables(judge, facts);
    long unjudged =
        matrices.stream()
            .flatMap(m -> m.rows().stream())
            .flatMap(r -> r.cells().stream())
            .filter(c -> c.judged() && State.NONE.css.equals(c.state()))
            .count();
    return new Content(
        facts.names().isEmpty() ? "no device inventory yet" : summary(facts),
        now.toString().replaceFirst("\\.\\d+Z$", "Z"),
        refreshSeconds,
        unjudged == 0
            ? null
            : unjudged
                + " grey cells have no reference yet: with no expected row for the product a"
                + " figure is judged against its series' earlier figures, and the history keeps"
                + " one a step ("
                + io.linkwatch.util.Durations.format(historyStep)
                + ", web.history_step): colours appear one step after the first figure.",
        FindingsTable.of(status, now, expected),
        matrices,
        figures.hostTransfer(),
        figures.collectives(),
        StateTables.devices(status, facts),
        StateTables.links(status),
        StateTables.nicPorts(status),
        StateTables.peers(status, now),
        StateTables.health(status, now));
  }

  /** {@code 2 x Ascend910_93}: how many devices of each name. */
  private static String summary(StatusFacts facts) {
    Map<String, Integer> byName = new TreeMap<>();
    facts.names().values().forEach(n -> byName.merge(n, 1, Integer::sum));
    StringBuilder b = new StringBuilder();
    byName.forEach(
        (n, c) -> b.append(b.length() > 0 ? ", " : "").append(c).append(" x ").append(n));
    return b.toString();
  }

  /**
   * A device pair's copy figure, from either end, as its type says it is judged: {@code bothWays}
   * for a figure of both directions at once, which fills both of its cells.
   */
  private record PairFigure(
      String target,
      int a,
      int b,
      long sizeBytes,
      double bytesPerSecond,
      String link,
      boolean bothWays) {
    static PairFigure of(TargetEntry.Figure f) {
      if (!(f.measurement() instanceof Judged m) || !m.judged().pair()) {
        return null;
      }
      Judged.Figure j = m.judged();
      return new PairFigure(
          f.target(), j.device(), j.peer(), j.sizeBytes(), j.value(), j.over(), j.bothWays());
    }
  }

  /** A probe's device pair matrix (one way or both ways at once), one table per size. */
  private List<Matrix> matrix(StatusFacts facts, String probe, String title) {
    // size -> (a, b) -> figure and its target
    Map<Long, Map<List<Integer>, PairFigure>> bySize = new TreeMap<>();
    for (TargetEntry.Figure figure : facts.figures()) {
      PairFigure f = figure.probe().equals(probe) ? PairFigure.of(figure) : null;
      if (f == null) {
        continue;
      }
      Map<List<Integer>, PairFigure> pairs =
          bySize.computeIfAbsent(f.sizeBytes(), k -> new TreeMap<>(PAIR_ORDER));
      pairs.put(List.of(f.a(), f.b()), f);
      if (f.bothWays()) {
        pairs.put(List.of(f.b(), f.a()), f);
      }
    }
    Map<String, TargetEntry> failed = facts.unsuccessful(probe);
    if (bySize.isEmpty() && failed.isEmpty()) {
      return List.of();
    }
    if (bySize.isEmpty()) {
      bySize.put(-1L, Map.of());
    }
    TreeSet<Integer> devices = new TreeSet<>(facts.names().keySet());
    bySize.values().forEach(m -> m.keySet().forEach(devices::addAll));
    List<Matrix> out = new ArrayList<>();
    for (var e : bySize.entrySet()) {
      List<MatrixRow> rows = new ArrayList<>();
      for (int s : devices) {
        List<Cell> cells = new ArrayList<>();
        for (int d : devices) {
          cells.add(
              pairCell(facts, probe, e.getValue().get(List.of(s, d)), failed, s, d, e.getKey()));
        }
        rows.add(new MatrixRow(s, cells));
      }
      String sized = e.getKey() >= 0 ? size(e.getKey()) : null;
      out.add(new Matrix(title, sized, probe, List.copyOf(devices), rows));
    }
    return out;
  }

  /** The matrix cell {@code s} to {@code d}: its figure {@code f} if there is one. */
  private Cell pairCell(
      StatusFacts facts,
      String probe,
      PairFigure f,
      Map<String, TargetEntry> failed,
      int s,
      int d,
      long size) {
    String target = target(facts, probe, failed, s, d);
    TargetEntry bad = failed.get(target);
    Pair pair = new Pair(s, d);
    if (s == d) {
      return Cell.diagonalCell();
    } else if (f != null) {
      double bps = f.bytesPerSecond();
      String link = f.link() == null ? "" : f.link();
      String series = SeriesId.id(probe, f.target(), "bandwidth", size);
      Judgement j = judge.judge(facts, series, bps, false, facts.names().get(s), link, probe, size);
      String down = facts.downLink(s, d);
      if (down != null) {
        // The pair's own link is down: the copies took another path, and a history made of
        // that path's figures would paint them as fine.
        j = new Judgement(CellJudge.State.LOW, down + " reads down: " + j.why());
      }
      return figureCell(j, gbps(bps), link, bad, f.target(), pair, series);
    } else if (bad != null) {
      return Cell.failed(pair, StatusFacts.why(bad), bad.resultLabel());
    }
    return Cell.empty(pair, facts.targets().contains(probe + "|" + target));
  }

  /**
   * The target a cell stands for: {@code s->d} where the probe runs one-way pairs, else the
   * both-ways pair {@code a<->b}; a probe runs one kind, so the other is never among its targets.
   */
  private static String target(
      StatusFacts facts, String probe, Map<String, TargetEntry> failed, int s, int d) {
    String oneWay = s + "->" + d;
    return failed.containsKey(oneWay) || facts.targets().contains(probe + "|" + oneWay)
        ? oneWay
        : Math.min(s, d) + "<->" + Math.max(s, d);
  }

  /**
   * A judged figure's cell: {@code value} with {@code sub} under it, and the last run's trouble
   * ({@code bad}, or null) in its title and as a mark.
   */
  static Cell figureCell(
      Judgement j,
      String value,
      String sub,
      TargetEntry bad,
      String target,
      Pair pair,
      String series) {
    boolean waiting = bad != null && bad.waiting();
    return new Cell(
        false,
        j.state().css,
        true,
        pair,
        target,
        j.why() + (bad != null ? "; last run: " + StatusFacts.why(bad) : ""),
        false,
        value,
        j.state() == State.LOW,
        bad == null ? null : waiting ? "(waiting)" : "!",
        sub,
        series);
  }
}
