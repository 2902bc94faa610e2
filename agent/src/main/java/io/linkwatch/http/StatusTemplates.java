package io.linkwatch.http;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The status page's templates, stylesheet and script, from {@code io/linkwatch/http/status} on the
 * class path: {@code page.mustache} and its partials, {@code status.css} and {@code status.js}. The
 * templates are compiled once, when the class loads; a compiled template renders on any thread.
 *
 * <p>A template's line breaks, and the indentation after each, are dropped as it loads, so the
 * templates can be indented while the page stays one line of HTML with no whitespace text between
 * its cells (what the page's tests and its script read).
 */
final class StatusTemplates {
  private static final String ROOT = "io/linkwatch/http/status";

  private static final String CSS = resource("status.css");
  private static final String SCRIPT = resource("status.js");
  private static final Mustache PAGE = new Factory().compile("page.mustache");

  private StatusTemplates() {}

  /** The page, with the stylesheet and the script that {@code content} does not carry. */
  static String render(long historyVersion, int refreshSeconds, StatusPageModel.Content content) {
    StringWriter out = new StringWriter(16 * 1024);
    PAGE.execute(
        out,
        new StatusPageModel.Page(CSS, SCRIPT, historyVersion, refreshSeconds * 1000L, content));
    // The joined lines end without a line break; the page, as a text file, ends with one.
    return out.append('\n').toString();
  }

  private static String resource(String name) {
    try (InputStream in =
        StatusTemplates.class.getClassLoader().getResourceAsStream(ROOT + "/" + name)) {
      if (in == null) {
        throw new IllegalStateException(ROOT + "/" + name + " is not on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Joins every template's lines as it loads, and escapes as the page always has. */
  private static final class Factory extends DefaultMustacheFactory {
    Factory() {
      super(ROOT);
    }

    @Override
    public Reader getReader(String resourceName) {
      StringWriter text = new StringWriter();
      try (Reader in = super.getReader(resourceName)) {
        in.transferTo(text);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new StringReader(text.toString().replaceAll("\\R[ \\t]*", ""));
    }

    /**
     * The five characters that matter in text and in double-quoted attributes; mustache.java's own
     * escaper also writes {@code =} and {@code `} as references, which the page never did.
     */
    @Override
    public void encode(String value, Writer writer) {
      try {
        for (int i = 0; i < value.length(); i++) {
          char c = value.charAt(i);
          switch (c) {
            case '<' -> writer.write("&lt;");
            case '>' -> writer.write("&gt;");
            case '&' -> writer.write("&amp;");
            case '"' -> writer.write("&quot;");
            case '\'' -> writer.write("&#39;");
            default -> writer.write(c);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
