package io.linkwatch.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README is a front door and the reference lives in {@code docs/}, one topic a file: every
 * relative link and anchor in the repository's Markdown resolves, and every topic is reachable from
 * the README.
 */
class DocsLinksTest {
  /** Tests run in agent/; the repository is its parent. */
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  @Test
  void everyRelativeLinkAndAnchorResolves() throws Exception {
    MarkdownLinks links = new MarkdownLinks(REPO);
    assertThat(links.files())
        .as("the checker sees the README and the docs")
        .contains(REPO.resolve("README.md"), REPO.resolve("docs/metrics.md"));
    assertThat(links.broken()).isEmpty();
  }

  @Test
  void everyTopicInDocsIsLinkedFromTheReadme() throws Exception {
    Set<Path> linked = new MarkdownLinks(REPO).linkedFrom(REPO.resolve("README.md"));
    List<Path> topics;
    try (Stream<Path> docs = Files.list(REPO.resolve("docs"))) {
      topics = docs.filter(p -> p.toString().endsWith(".md")).sorted().toList();
    }
    assertThat(topics).hasSizeGreaterThan(10);
    assertThat(topics).allSatisfy(t -> assertThat(linked).as("README links %s", t).contains(t));
  }

  @Test
  void aMissingFileOrHeadingIsReported(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("docs"));
    Files.writeString(
        dir.resolve("docs/a.md"),
        """
        # Busy devices: measuring only in idle windows

        ## NVIDIA GPUs (backend `cuda`)

        ## Notes

        ## Notes
        """);
    Files.writeString(
        dir.resolve("README.md"),
        """
        [ok](docs/a.md#busy-devices-measuring-only-in-idle-windows)
        [code in a heading](docs/a.md#nvidia-gpus-backend-cuda)
        [a repeated heading](docs/a.md#notes-1)
        [gone](docs/b.md)
        [wrong anchor](docs/a.md#busy-devices)
        [outside](../elsewhere.md)
        [web](https://example.org/x.md#y)

        | in | a table |
        |---|---|
        | [cell](docs/c.md) | x |

        ![picture](docs/missing.png)
        """);
    assertThat(new MarkdownLinks(dir).broken())
        .containsExactly(
            "README.md: docs/b.md: no such file docs/b.md",
            "README.md: docs/a.md#busy-devices: no heading with the anchor #busy-devices in docs/a.md",
            "README.md: ../elsewhere.md: points outside the repository",
            "README.md: docs/c.md: no such file docs/c.md",
            "README.md: docs/missing.png: no such file docs/missing.png");
  }
}
