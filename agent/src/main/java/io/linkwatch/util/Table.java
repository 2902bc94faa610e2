package io.linkwatch.util;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain text table with columns padded to their widest cell, for the one-shot commands. */
public final class Table {
  private final List<String[]> rows = new ArrayList<>();

  public Table(String... header) {
    rows.add(header);
  }

  public Table row(String... cells) {
    rows.add(cells);
    return this;
  }

  public void print(PrintWriter out) {
    int columns = rows.stream().mapToInt(r -> r.length).max().orElse(0);
    int[] width = new int[columns];
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        line.append(String.format("%-" + (width[i] + 2) + "s", r[i]));
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
