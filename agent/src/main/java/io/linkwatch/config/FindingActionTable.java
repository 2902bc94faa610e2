package io.linkwatch.config;

import io.linkwatch.verdict.FindingAction;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The shipped actions table, kept as data: {@code finding-actions.yaml} beside this class, one row
 * per finding code in the form of the config's {@code finding_actions:} list and read by the same
 * {@link FindingActionReader}, so an operator can copy a row to change it. Its codes are the one
 * list of the codes the verdict names; an operator's row for another code is a config error. A row
 * it cannot read fails the agent's start, as a config error would (a test reads it on every build).
 */
public final class FindingActionTable {
  static final String RESOURCE = "finding-actions.yaml";

  /** Every shipped row, in the file's order. */
  public static final List<FindingAction> SHIPPED = load();

  /** Every finding code, in the file's order. */
  public static final Set<String> CODES = codes(SHIPPED);

  private FindingActionTable() {}

  private static List<FindingAction> load() {
    return ConfigLoader.parseYaml(
        RESOURCE + " (shipped)",
        ExpectedFigureTable.resourceText(RESOURCE),
        (root, problems) -> {
          List<FindingAction> rows =
              FindingActionReader.readAll(root.mappings("finding_actions"), Set.of(), RESOURCE);
          root.rejectUnknown();
          return List.copyOf(rows);
        });
  }

  private static Set<String> codes(List<FindingAction> rows) {
    Set<String> out = new LinkedHashSet<>();
    rows.forEach(r -> out.add(r.code()));
    return java.util.Collections.unmodifiableSet(out);
  }
}
