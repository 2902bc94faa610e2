package io.linkwatch.status;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import io.linkwatch.probe.result.Measurement;
import io.linkwatch.registry.ProbeKind;
import io.linkwatch.util.Json;
import java.io.IOException;
import java.util.Arrays;

/**
 * The status document's one JSON spelling: the user-facing codec of every probe's figures ({@code
 * probe --json}'s snake_case, lower-case enum values), with a figure JSON cannot carry written as
 * its type and summary ({@link UnencodedFigure}). {@code /api/v1/status} and {@code check --json}
 * write with it; {@code linkwatch status} and {@code check} read the agent's document back with it.
 */
public final class StatusCodec {
  private static final Json JSON = ProbeKind.USER_JSON.with(new Figures());

  private StatusCodec() {}

  /** A status document from another version of the agent, whose fields would read as missing. */
  public static final class OtherSchema extends IOException {
    private static final long serialVersionUID = 1L;
    private final String found;

    OtherSchema(String found) {
      super(
          "status schema "
              + found
              + ", this linkwatch reads "
              + StatusDocument.SCHEMA_VERSION
              + ": run the same linkwatch version on both sides");
      this.found = found;
    }

    /** The version the document carried, e.g. {@code 1 (no schema_version)}. */
    public String found() {
      return found;
    }
  }

  /** Indented, as {@code /api/v1/status} serves it. */
  public static String encode(StatusDocument document) {
    return JSON.writePretty(document);
  }

  /** Any value of the document's parts (a check's output, which carries its targets), indented. */
  public static String encodePart(Object value) {
    return JSON.writePretty(value);
  }

  /**
   * The agent's document, checked to be of this version's shape.
   *
   * @throws OtherSchema when it carries another {@code schema_version}, or none
   * @throws IOException when it is not JSON or not of the document's shape
   */
  public static StatusDocument decode(String json) throws IOException {
    JsonElement tree;
    try {
      tree = JsonParser.parseString(json);
    } catch (JsonParseException e) {
      throw new IOException("unreadable status: not JSON: " + e.getMessage(), e);
    }
    if (!tree.isJsonObject()) {
      throw new IOException("unreadable status: not a JSON object: " + abbreviated(json));
    }
    JsonElement version = tree.getAsJsonObject().get("schema_version");
    if (version == null) {
      throw new OtherSchema("1 (no schema_version)");
    }
    if (!version.isJsonPrimitive()
        || !version.getAsJsonPrimitive().isNumber()
        || version.getAsInt() != StatusDocument.SCHEMA_VERSION) {
      throw new OtherSchema(version.toString());
    }
    try {
      return JSON.read(tree, StatusDocument.class);
    } catch (IOException e) {
      throw new IOException("unreadable status document: " + e.getMessage(), e);
    }
  }

  /**
   * A document of this shape whatever its version says, absent fields empty: for documents written
   * by hand (tests, fixtures) and by this same process.
   */
  public static StatusDocument read(String json) throws IOException {
    return JSON.read(json, StatusDocument.class);
  }

  /** One of the outputs spelled with this codec ({@code probe --json}'s, a check's), read back. */
  public static <T> T readPart(String json, Class<T> type) throws IOException {
    return JSON.read(json, type);
  }

  private static String abbreviated(String s) {
    return s.length() <= 60 ? s : s.substring(0, 59) + "…";
  }

  /**
   * Every measurement as the registry's codec writes it, except a figure JSON cannot carry: {@code
   * {"type": "P2pBandwidth", "summary": "..."}} both ways.
   */
  private static final class Figures implements TypeAdapterFactory {
    private static final String SUMMARY = "summary";

    @Override
    public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> token) {
      if (!Measurement.class.isAssignableFrom(token.getRawType())) {
        return null;
      }
      TypeAdapter<T> registered = gson.getDelegateAdapter(this, token);
      return new TypeAdapter<T>() {
        @Override
        public void write(JsonWriter out, T value) throws IOException {
          if (value instanceof UnencodedFigure u) {
            out.beginObject().name("type").value(u.type()).name(SUMMARY).value(u.summary());
            out.endObject();
          } else {
            registered.write(out, value);
          }
        }

        @Override
        public T read(JsonReader in) throws IOException {
          JsonElement tree = JsonParser.parseReader(in);
          if (unencoded(tree)) {
            JsonObject o = tree.getAsJsonObject();
            @SuppressWarnings("unchecked") // only asked for as Measurement, which it is
            T figure =
                (T) new UnencodedFigure(o.get("type").getAsString(), o.get(SUMMARY).getAsString());
            return figure;
          }
          return registered.fromJsonTree(tree);
        }
      };
    }

    /** A type and a summary, where the type has no summary field of its own. */
    private static boolean unencoded(JsonElement tree) {
      if (!tree.isJsonObject()) {
        return false;
      }
      JsonObject o = tree.getAsJsonObject();
      if (o.size() != 2 || !o.has(SUMMARY) || !o.has("type")) {
        return false;
      }
      Class<?> type = ProbeKind.jsonType(o.get("type").getAsString()).orElse(null);
      return type == null
          || !type.isRecord()
          || Arrays.stream(type.getRecordComponents()).noneMatch(c -> c.getName().equals(SUMMARY));
    }
  }
}
