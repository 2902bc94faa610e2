package io.linkwatch.docs;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.ext.heading.anchor.IdGenerator;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;

/**
 * The links of a tree of Markdown files, checked as GitHub renders them: a relative link names a
 * file or folder that exists inside the tree, and a {@code #anchor} names a heading of the target
 * file (ids made from the heading's text as GitHub makes them, {@code -1}, {@code -2} for repeats).
 */
final class MarkdownLinks {
  private static final Parser PARSER =
      Parser.builder().extensions(List.of(TablesExtension.create())).build();

  /** Folders that hold build output or copies, never docs a reader follows. */
  private static final Set<String> SKIPPED = Set.of(".git", "target", "build", "node_modules");

  /** A link from {@code file} to {@code target} as written. */
  record Found(Path file, String target) {}

  private final Path root;
  private final Map<Path, Set<String>> anchors = new HashMap<>();

  MarkdownLinks(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** Every Markdown file under the root, build output left out. */
  List<Path> files() throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(p -> p.toString().endsWith(".md"))
          .filter(
              p -> {
                for (Path part : root.relativize(p)) {
                  if (SKIPPED.contains(part.toString())) {
                    return false;
                  }
                }
                return true;
              })
          .sorted()
          .toList();
    }
  }

  /** The links and images of one file, as written. */
  static List<String> linksOf(String markdown) {
    List<String> out = new ArrayList<>();
    PARSER
        .parse(markdown)
        .accept(
            new AbstractVisitor() {
              @Override
              public void visit(Link link) {
                out.add(link.getDestination());
                visitChildren(link);
              }

              @Override
              public void visit(Image image) {
                out.add(image.getDestination());
                visitChildren(image);
              }
            });
    return out;
  }

  /** The ids GitHub gives the headings of one file. */
  static Set<String> anchorsOf(String markdown) {
    IdGenerator ids = IdGenerator.builder().build();
    Set<String> out = new HashSet<>();
    PARSER
        .parse(markdown)
        .accept(
            new AbstractVisitor() {
              @Override
              public void visit(Heading heading) {
                StringBuilder text = new StringBuilder();
                heading.accept(
                    new AbstractVisitor() {
                      @Override
                      public void visit(Text t) {
                        text.append(t.getLiteral());
                      }

                      @Override
                      public void visit(Code c) {
                        text.append(c.getLiteral());
                      }
                    });
                out.add(ids.generateId(text.toString()));
              }
            });
    return out;
  }

  /** Every broken link in the tree, one line each naming the file, the link and what is wrong. */
  List<String> broken() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Path file : files()) {
      for (String target : linksOf(Files.readString(file))) {
        String problem = check(file, target);
        if (problem != null) {
          problems.add(root.relativize(file) + ": " + target + ": " + problem);
        }
      }
    }
    return problems;
  }

  /** The files under the root that {@code file} links to. */
  Set<Path> linkedFrom(Path file) throws IOException {
    Set<Path> out = new HashSet<>();
    for (String target : linksOf(Files.readString(file))) {
      if (isExternal(target)) {
        continue;
      }
      String path = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
      if (!path.isEmpty()) {
        out.add(file.getParent().resolve(decode(path)).normalize());
      }
    }
    return out;
  }

  private String check(Path file, String target) throws IOException {
    if (isExternal(target)) {
      return null;
    }
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path resolved = path.isEmpty() ? file : file.getParent().resolve(decode(path)).normalize();
    if (!resolved.startsWith(root)) {
      return "points outside the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file " + root.relativize(resolved);
    }
    if (anchor != null && resolved.toString().endsWith(".md")) {
      Set<String> known =
          anchors.computeIfAbsent(
              resolved,
              p -> {
                try {
                  return anchorsOf(Files.readString(p));
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      if (!known.contains(anchor)) {
        return "no heading with the anchor #" + anchor + " in " + root.relativize(resolved);
      }
    }
    return null;
  }

  private static boolean isExternal(String target) {
    return URI.create(target.replace(" ", "%20")).getScheme() != null;
  }

  /** A link's percent-escapes ({@code %20}); a {@code +} stays a plus, as in a URL path. */
  private static String decode(String path) {
    return java.net.URLDecoder.decode(
        path.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
  }
}
