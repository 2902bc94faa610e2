package io.linkwatch.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An agent of another version writes its status in another shape: its figures would read as
 * missing, so the client refuses the document and says why instead.
 */
class AgentStatusClientTest {
  private static String fetchError(String body) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/api/v1/status",
        exchange -> {
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, bytes.length);
          exchange.getResponseBody().write(bytes);
          exchange.close();
        });
    server.start();
    String base = "http://127.0.0.1:" + server.getAddress().getPort();
    try {
      AgentStatusClient client = new AgentStatusClient(base, Duration.ofSeconds(5));
      if (body.contains(
          "\"schema_version\": " + io.linkwatch.status.StatusDocument.SCHEMA_VERSION + ",")) {
        assertThat(client.fetch().targets()).isEmpty();
        return "";
      }
      return assertThatThrownBy(client::fetch)
          .isInstanceOf(IOException.class)
          .actual()
          .getMessage()
          .replace(base, "BASE");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aDocumentWithoutASchemaVersionIsTheOldShapeAndRefused() throws Exception {
    assertThat(fetchError("{\"targets\": []}"))
        .isEqualTo(
            "the agent at BASE writes status schema 1 (no schema_version), this linkwatch reads "
                + io.linkwatch.status.StatusDocument.SCHEMA_VERSION
                + ": run the same linkwatch version on both sides");
  }

  @Test
  void anotherSchemaVersionIsRefusedAndTheCurrentOneRead() throws Exception {
    assertThat(fetchError("{\"schema_version\": 99, \"targets\": []}"))
        .startsWith("the agent at BASE writes status schema 99, this linkwatch reads");
    assertThat(
            fetchError(
                "{\"schema_version\": "
                    + io.linkwatch.status.StatusDocument.SCHEMA_VERSION
                    + ", \"targets\": []}"))
        .isEmpty();
  }
}
