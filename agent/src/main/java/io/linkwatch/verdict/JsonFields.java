package io.linkwatch.verdict;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * Lenient reads of the status document's fields: a field that is missing, null or of another type
 * reads as empty, so a document from another version of the agent gives a verdict on what it has
 * instead of an exception.
 */
public final class JsonFields {
  private JsonFields() {}

  /** The array under {@code key}, or an empty one. */
  public static JsonArray array(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e != null && e.isJsonArray() ? e.getAsJsonArray() : new JsonArray();
  }

  /** The text under {@code key}, or {@code ""}. */
  public static String string(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e == null || e.isJsonNull() ? "" : e.getAsString();
  }

  /** Whether {@code key} holds a number. */
  public static boolean isNumber(JsonObject o, String key) {
    JsonElement e = o.get(key);
    return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber();
  }
}
