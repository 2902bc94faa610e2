package io.linkwatch.runtime.topology;

import io.linkwatch.runtime.LinkType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parsed output of {@code npu-smi info -t topo}: a header of device labels ({@code NPU<n>} or
 * {@code Phy-ID<n>}), optionally followed by a two-word {@code CPU Affinity} column; one row per
 * device with a link token per cell ({@code X} on the diagonal) and, when the column exists, a CPU
 * list such as {@code 0-63,128-191}; then a {@code Legend:} block, which is ignored.
 *
 * <p>Rows are indexed in the order printed; {@link #logicalIds()} maps a row to the logical device
 * id used by the rest of the agent. Tokens this version does not know become {@link
 * LinkType#UNKNOWN} with one {@link #warnings() warning} each. Shape errors (no header, a row with
 * the wrong number of cells, missing rows) throw {@link NpuSmiTopologyException}.
 */
public final class NpuSmiTopology {
  /** The kind of device label in the header. */
  public enum LabelKind {
    /** {@code NPU<n>}: n is the logical device id (the Ascend 950 npu-smi reference says so). */
    NPU,
    /** {@code Phy-ID<n>}: n is a physical chip id (seen in A3 containers). */
    PHY_ID
  }

  /** The text npu-smi prints instead of a matrix when the device cannot report its topology. */
  public static final String UNSUPPORTED_MESSAGE = "This device does not support querying topo.";

  private static final String UNSUPPORTED_MARKER = "does not support querying topo";
  private static final Pattern LABEL =
      Pattern.compile("(NPU|Phy-ID)(\\d+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern CPU_LIST = Pattern.compile("\\d[\\d,\\-]*");
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  private static final String AFFINITY_HEADER = "CPU Affinity";
  private static final String SOURCE = "npu-smi";

  private final boolean unsupported;
  private final LabelKind labelKind;
  private final List<String> labels;
  private final List<Integer> labelIds;
  private final List<List<LinkType>> matrix;
  private final boolean hasCpuAffinityColumn;
  private final List<String> cpuAffinity;
  private final List<String> warnings;

  private NpuSmiTopology(
      boolean unsupported,
      LabelKind labelKind,
      List<String> labels,
      List<Integer> labelIds,
      List<List<LinkType>> matrix,
      boolean hasCpuAffinityColumn,
      List<String> cpuAffinity,
      List<String> warnings) {
    this.unsupported = unsupported;
    this.labelKind = labelKind;
    this.labels = List.copyOf(labels);
    this.labelIds = List.copyOf(labelIds);
    List<List<LinkType>> rows = new ArrayList<>();
    for (List<LinkType> row : matrix) {
      rows.add(List.copyOf(row));
    }
    this.matrix = List.copyOf(rows);
    this.hasCpuAffinityColumn = hasCpuAffinityColumn;
    // May hold nulls (a row with a blank affinity cell), so not List.copyOf.
    this.cpuAffinity = Collections.unmodifiableList(new ArrayList<>(cpuAffinity));
    this.warnings = List.copyOf(warnings);
  }

  /**
   * Parses the whole standard output of {@code npu-smi info -t topo}.
   *
   * @throws NpuSmiTopologyException when the output has no header or a row of the wrong shape
   */
  public static NpuSmiTopology parse(String output) {
    String[] lines = output.split("\\R", -1);
    for (String line : lines) {
      if (line.toLowerCase(Locale.ROOT).contains(UNSUPPORTED_MARKER.toLowerCase(Locale.ROOT))) {
        return new NpuSmiTopology(
            true, null, List.of(), List.of(), List.of(), false, List.of(), List.of());
      }
    }

    int headerLine = -1;
    for (int i = 0; i < lines.length; i++) {
      if (!lines[i].isBlank()) {
        headerLine = i;
        break;
      }
    }
    if (headerLine < 0 || isLegend(lines[headerLine])) {
      int at = headerLine < 0 ? Math.max(1, lines.length) : headerLine + 1;
      throw new NpuSmiTopologyException(
          at, "no header line of NPU<n> or Phy-ID<n> labels in the topology output");
    }

    // Header: labels, then optionally "CPU Affinity".
    int headerNo = headerLine + 1;
    String[] head = split(lines[headerLine]);
    List<String> labels = new ArrayList<>();
    List<Integer> ids = new ArrayList<>();
    LabelKind kind = null;
    int k = 0;
    for (; k < head.length; k++) {
      Matcher m = LABEL.matcher(head[k]);
      if (!m.matches()) {
        break;
      }
      LabelKind thisKind = m.group(1).equalsIgnoreCase("NPU") ? LabelKind.NPU : LabelKind.PHY_ID;
      if (kind != null && kind != thisKind) {
        throw new NpuSmiTopologyException(
            headerNo,
            "header mixes NPU<n> and Phy-ID<n> labels: '" + lines[headerLine].strip() + "'");
      }
      kind = thisKind;
      int id;
      try {
        id = Integer.parseInt(m.group(2));
      } catch (NumberFormatException e) {
        throw new NpuSmiTopologyException(headerNo, "device id out of range in '" + head[k] + "'");
      }
      if (ids.contains(id)) {
        throw new NpuSmiTopologyException(headerNo, "device label '" + head[k] + "' appears twice");
      }
      labels.add(head[k]);
      ids.add(id);
    }
    if (labels.isEmpty()) {
      throw new NpuSmiTopologyException(
          headerNo,
          "expected a header of NPU<n> or Phy-ID<n> labels, found '"
              + lines[headerLine].strip()
              + "'");
    }
    String rest = String.join(" ", Arrays.asList(head).subList(k, head.length));
    boolean affinityColumn;
    if (rest.isEmpty()) {
      affinityColumn = false;
    } else if (rest.equalsIgnoreCase(AFFINITY_HEADER)) {
      affinityColumn = true;
    } else {
      throw new NpuSmiTopologyException(
          headerNo,
          "unexpected header column '"
              + rest
              + "' (expected device labels, then optionally 'CPU Affinity')");
    }

    // Rows, up to the Legend block.
    int n = labels.size();
    List<List<LinkType>> matrix = new ArrayList<>();
    List<String> affinity = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    int endNo = lines.length + 1;
    for (int i = headerLine + 1; i < lines.length; i++) {
      String line = lines[i];
      int lineNo = i + 1;
      if (line.isBlank()) {
        continue;
      }
      if (isLegend(line)) {
        endNo = lineNo;
        break;
      }
      int row = matrix.size();
      if (row >= n) {
        throw new NpuSmiTopologyException(
            lineNo,
            "more rows than the "
                + n
                + " devices in the header on line "
                + headerNo
                + ": '"
                + line.strip()
                + "'");
      }
      String[] cells = split(line);
      if (!cells[0].equalsIgnoreCase(labels.get(row))) {
        throw new NpuSmiTopologyException(
            lineNo, "expected the row of " + labels.get(row) + ", found '" + cells[0] + "'");
      }
      int count = cells.length - 1;
      boolean rowHasAffinity = affinityColumn && count == n + 1;
      if (count != n && !rowHasAffinity) {
        throw new NpuSmiTopologyException(
            lineNo,
            "row "
                + labels.get(row)
                + " has "
                + count
                + " cells, expected "
                + n
                + " link cells"
                + (affinityColumn ? " plus CPU Affinity" : ""));
      }
      List<LinkType> links = new ArrayList<>(n);
      for (int col = 0; col < n; col++) {
        String token = cells[col + 1];
        String pair = labels.get(row) + "->" + labels.get(col);
        if (CPU_LIST.matcher(token).matches()) {
          throw new NpuSmiTopologyException(
              lineNo,
              "row "
                  + labels.get(row)
                  + " has '"
                  + token
                  + "' where the link to "
                  + labels.get(col)
                  + " belongs; the row is missing a cell");
        }
        Optional<LinkType> type = LinkType.fromToken(token);
        if (row == col) {
          if (type.orElse(null) != LinkType.SELF) {
            warnings.add(
                "line " + lineNo + ": " + pair + " is '" + token + "', expected X; using X");
          }
          links.add(LinkType.SELF);
        } else if (type.isEmpty()) {
          warnings.add(
              "line "
                  + lineNo
                  + ": unknown link token '"
                  + token
                  + "' for "
                  + pair
                  + "; using unknown");
          links.add(LinkType.UNKNOWN);
        } else if (type.get() == LinkType.SELF) {
          warnings.add(
              "line " + lineNo + ": " + pair + " is X between different devices; using unknown");
          links.add(LinkType.UNKNOWN);
        } else {
          links.add(type.get());
        }
      }
      matrix.add(links);
      affinity.add(rowHasAffinity ? cells[n + 1] : null);
    }
    if (matrix.size() != n) {
      throw new NpuSmiTopologyException(
          Math.min(endNo, lines.length),
          "expected "
              + n
              + " device rows after the header on line "
              + headerNo
              + ", found "
              + matrix.size());
    }
    return new NpuSmiTopology(false, kind, labels, ids, matrix, affinityColumn, affinity, warnings);
  }

  private static boolean isLegend(String line) {
    return line.strip().toLowerCase(Locale.ROOT).startsWith("legend");
  }

  private static String[] split(String line) {
    return WHITESPACE.split(line.strip());
  }

  /** True when npu-smi printed {@value #UNSUPPORTED_MESSAGE}; then there are no devices. */
  public boolean unsupported() {
    return unsupported;
  }

  /** The number of devices (rows). */
  public int size() {
    return labels.size();
  }

  /** The kind of labels in the header; empty when {@link #unsupported()}. */
  public Optional<LabelKind> labelKind() {
    return Optional.ofNullable(labelKind);
  }

  /** The device labels as printed, in row order, e.g. {@code NPU0} or {@code Phy-ID2}. */
  public List<String> labels() {
    return labels;
  }

  /** The number in each label, in row order ({@code Phy-ID2} gives 2). */
  public List<Integer> labelIds() {
    return labelIds;
  }

  /**
   * The logical device id of each row. With {@code NPU<n>} labels it is n. With {@code Phy-ID<n>}
   * labels n is a physical chip id, which the agent's runtime does not number by; npu-smi prints
   * devices in logical order, so row i is logical device i. (The Ascend 950 npu-smi reference says
   * the labels are logical ids; an A3 container showed {@code Phy-ID12 Phy-ID13}, and whether 910B
   * labels are logical or physical is not documented.)
   */
  public List<Integer> logicalIds() {
    if (labelKind == LabelKind.NPU) {
      return labelIds;
    }
    List<Integer> ids = new ArrayList<>(labels.size());
    for (int i = 0; i < labels.size(); i++) {
      ids.add(i);
    }
    return List.copyOf(ids);
  }

  /** The link from row {@code row} to column {@code col}; {@link LinkType#SELF} on the diagonal. */
  public LinkType link(int row, int col) {
    return matrix.get(row).get(col);
  }

  /** The whole matrix, row by row, in printed order. */
  public List<List<LinkType>> matrix() {
    return matrix;
  }

  /** Whether the header has a {@code CPU Affinity} column (A3 containers omit it). */
  public boolean hasCpuAffinityColumn() {
    return hasCpuAffinityColumn;
  }

  /** The CPU list of row {@code row}, e.g. {@code 0-23,96-119}; empty without the column. */
  public Optional<String> cpuAffinity(int row) {
    return Optional.ofNullable(cpuAffinity.get(row));
  }

  /** One line per cell that was not understood (unknown tokens, a diagonal other than X). */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * The agent's view: source {@code npu-smi}, keys {@code "src->dst"} in {@link #logicalIds()
   * logical ids} for every pair of different devices (the diagonal is left out, as {@link
   * RuntimeTopologySource} does), and CPU affinity by logical id. {@link Topology#NONE} when {@link
   * #unsupported()}.
   */
  public Topology toTopology() {
    if (unsupported) {
      return Topology.NONE;
    }
    List<Integer> logical = logicalIds();
    Map<String, LinkType> links = new HashMap<>();
    Map<Integer, String> affinity = new HashMap<>();
    for (int r = 0; r < size(); r++) {
      for (int c = 0; c < size(); c++) {
        if (r != c) {
          links.put(logical.get(r) + "->" + logical.get(c), link(r, c));
        }
      }
      String cpus = cpuAffinity.get(r);
      if (cpus != null) {
        affinity.put(logical.get(r), cpus);
      }
    }
    return new Topology(SOURCE, links, affinity);
  }

  /** The logical ids as a set, for checks against a runtime's device count. */
  Set<Integer> logicalIdSet() {
    return new HashSet<>(logicalIds());
  }

  @Override
  public String toString() {
    return unsupported ? "NpuSmiTopology[unsupported]" : "NpuSmiTopology" + labels;
  }
}
