package io.linkwatch.util;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Set;

/**
 * The JSON codec for the agent's own records: what crosses the worker boundary and the CLI's {@code
 * --json} output. Records map to objects by component name; values of the tagged interfaces (a
 * probe's settings, its measurements) carry their type's simple name under {@code type}, and a name
 * no probe registered is an error, never a silently empty value. Nulls are written, as are NaN and
 * infinities (a failed figure). Durations are decimal seconds, instants ISO-8601 text ({@code
 * 2026-12-04T01:00:00Z}), paths strings.
 *
 * <p>Gson rather than a larger data-binding library: the agent loads its classes once and keeps
 * them for its lifetime, and these records need nothing more (docs/performance.md).
 */
public final class Json {
  private final Gson gson;

  private final Gson pretty;

  private Json(Gson gson) {
    this.gson = gson;
    this.pretty = gson.newBuilder().setPrettyPrinting().create();
  }

  /**
   * A codec whose values of each interface in {@code tagged} carry a {@code type} name from {@code
   * types} (simple class name to class).
   */
  public static Json tagging(Set<Class<?>> tagged, Map<String, Class<?>> types) {
    return new Json(builder(tagged, types, false).create());
  }

  /**
   * The same codec in the style of the JSON people and programs read (the CLI's {@code --json},
   * {@code /api/v1/status}): fields in snake_case ({@code size_bytes}, {@code bytes_per_second})
   * and enum values in lower case ({@code "outcome": "success"}), as Prometheus' own APIs write
   * them. It reads that style back. The worker boundary keeps {@link #tagging}'s component names.
   */
  public static Json snakeCase(Set<Class<?>> tagged, Map<String, Class<?>> types) {
    return new Json(builder(tagged, types, true).create());
  }

  private static GsonBuilder builder(
      Set<Class<?>> tagged, Map<String, Class<?>> types, boolean snake) {
    GsonBuilder b =
        new GsonBuilder()
            .serializeNulls()
            .serializeSpecialFloatingPointValues()
            .disableHtmlEscaping()
            .registerTypeHierarchyAdapter(Path.class, new PathAdapter().nullSafe())
            .registerTypeAdapter(Duration.class, new DurationAdapter().nullSafe())
            .registerTypeAdapter(Instant.class, new InstantAdapter().nullSafe())
            .registerTypeAdapterFactory(new TypeTags(tagged, types, snake));
    if (snake) {
      b.setFieldNamingPolicy(com.google.gson.FieldNamingPolicy.LOWER_CASE_WITH_UNDERSCORES)
          .registerTypeAdapterFactory(new LowerCaseEnums());
    }
    return b;
  }

  /**
   * This codec with {@code factory} before its own adapters, for a document that writes some type
   * its own way ({@code StatusCodec}'s figures).
   */
  public Json with(TypeAdapterFactory factory) {
    return new Json(gson.newBuilder().registerTypeAdapterFactory(factory).create());
  }

  /**
   * A record component that is left out of the object when it is null, where the codec otherwise
   * writes nulls: {@code @JsonAdapter(value = Json.OmittedWhenNull.class, nullSafe = false)}. For a
   * field that only some entries have (a target's {@code waiting_for_idle_since}), so that its
   * presence means what it says.
   */
  public static final class OmittedWhenNull implements TypeAdapterFactory {
    @Override
    public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> token) {
      TypeAdapter<T> plain = gson.getAdapter(token);
      return new TypeAdapter<T>() {
        @Override
        public void write(JsonWriter out, T value) throws IOException {
          if (value != null) {
            plain.write(out, value);
            return;
          }
          // The writer holds the field's name until a value comes; a null it does not serialize
          // drops the name with it.
          boolean nulls = out.getSerializeNulls();
          out.setSerializeNulls(false);
          out.nullValue();
          out.setSerializeNulls(nulls);
        }

        @Override
        public T read(JsonReader in) throws IOException {
          return plain.read(in);
        }
      };
    }
  }

  /** {@code p50Seconds} as {@code p50_seconds}. */
  static String snake(String name) {
    StringBuilder out = new StringBuilder(name.length() + 4);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0) {
          out.append('_');
        }
        out.append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * A value as a tree with {@code schema_version} first, for documents whose shape is versioned: a
   * program reading them checks the version it knows.
   */
  public String writePrettyVersioned(Object value, int schemaVersion) {
    com.google.gson.JsonObject versioned = new com.google.gson.JsonObject();
    versioned.addProperty("schema_version", schemaVersion);
    gson.toJsonTree(value)
        .getAsJsonObject()
        .entrySet()
        .forEach(e -> versioned.add(e.getKey(), e.getValue()));
    return pretty.toJson(versioned);
  }

  /** Enum values written in lower case, read in any case. */
  private static final class LowerCaseEnums implements TypeAdapterFactory {
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> token) {
      Class<? super T> raw = token.getRawType();
      if (!Enum.class.isAssignableFrom(raw) || raw == Enum.class) {
        return null;
      }
      Class<? extends Enum> type =
          (Class<? extends Enum>) (raw.isEnum() ? raw : raw.getSuperclass());
      return (TypeAdapter<T>)
          new TypeAdapter<Enum>() {
            @Override
            public void write(JsonWriter out, Enum value) throws IOException {
              if (value == null) {
                out.nullValue();
              } else {
                out.value(value.name().toLowerCase(java.util.Locale.ROOT));
              }
            }

            @Override
            public Enum read(JsonReader in) throws IOException {
              if (in.peek() == JsonToken.NULL) {
                in.nextNull();
                return null;
              }
              return Enum.valueOf(type, in.nextString().toUpperCase(java.util.Locale.ROOT));
            }
          };
    }
  }

  public String write(Object value) {
    return gson.toJson(value);
  }

  /** Indented, for people reading the CLI's output. */
  public String writePretty(Object value) {
    return pretty.toJson(value);
  }

  public <T> T read(String json, Class<T> type) throws IOException {
    return read(new StringReader(json), type);
  }

  /** A value of a tree already parsed; the wrong shape is an {@link IOException}. */
  public <T> T read(com.google.gson.JsonElement tree, Class<T> type) throws IOException {
    try {
      T value = gson.fromJson(tree, type);
      if (value == null) {
        throw new IOException("no JSON value");
      }
      return value;
    } catch (JsonParseException | IllegalArgumentException | IllegalStateException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** Reads one value; malformed input or a value of the wrong shape is an {@link IOException}. */
  public <T> T read(Reader json, Class<T> type) throws IOException {
    try {
      T value = gson.fromJson(json, type);
      if (value == null) {
        throw new IOException("no JSON value");
      }
      return value;
    } catch (JsonParseException | IllegalArgumentException | IllegalStateException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /**
   * Writes a tagged value as its {@code type} name followed by its record components, and reads it
   * back through the canonical constructor. Strict: an unknown name or field is an error. Written
   * field by field (not through a tree) so that NaN figures pass as they do everywhere else.
   */
  private static final class TypeTags implements TypeAdapterFactory {
    private static final String TYPE = "type";
    private final Set<Class<?>> tagged;
    private final Map<String, Class<?>> types;
    private final boolean snake;

    TypeTags(Set<Class<?>> tagged, Map<String, Class<?>> types, boolean snake) {
      this.snake = snake;
      this.tagged = Set.copyOf(tagged);
      this.types = Map.copyOf(types);
      types.values().stream()
          .filter(t -> !t.isRecord())
          .findFirst()
          .ifPresent(
              t -> {
                throw new IllegalStateException(t + " is tagged in JSON but is not a record");
              });
    }

    @Override
    public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> token) {
      Class<? super T> raw = token.getRawType();
      Class<?> base = tagged.stream().filter(b -> b.isAssignableFrom(raw)).findFirst().orElse(null);
      if (base == null) {
        return null;
      }
      return new TypeAdapter<T>() {
        @Override
        public void write(JsonWriter out, T value) throws IOException {
          if (value == null) {
            out.nullValue();
            return;
          }
          out.beginObject().name(TYPE).value(value.getClass().getSimpleName());
          for (RecordComponent c : value.getClass().getRecordComponents()) {
            out.name(snake ? snake(c.getName()) : c.getName());
            adapter(gson, c).write(out, get(c, value));
          }
          out.endObject();
        }

        @Override
        public T read(JsonReader in) throws IOException {
          if (in.peek() == JsonToken.NULL) {
            in.nextNull();
            return null;
          }
          in.beginObject();
          if (!in.hasNext() || !in.nextName().equals(TYPE)) {
            throw new JsonParseException(
                base.getSimpleName() + " must start with its '" + TYPE + "' name");
          }
          String name = in.nextString();
          Class<?> type = types.get(name);
          if (type == null || !raw.isAssignableFrom(type)) {
            throw new JsonParseException(
                "unknown "
                    + base.getSimpleName()
                    + " type '"
                    + name
                    + "' (known: "
                    + known()
                    + ")");
          }
          RecordComponent[] components = type.getRecordComponents();
          Object[] values = new Object[components.length];
          boolean[] seen = new boolean[components.length];
          while (in.hasNext()) {
            String field = in.nextName();
            int i = indexOf(components, field, snake);
            if (i < 0) {
              throw new JsonParseException(name + " has no field '" + field + "'");
            }
            values[i] = adapter(gson, components[i]).read(in);
            seen[i] = true;
          }
          in.endObject();
          for (int i = 0; i < components.length; i++) {
            if (!seen[i] || values[i] == null && components[i].getType().isPrimitive()) {
              values[i] = defaultValue(components[i].getType());
            }
          }
          @SuppressWarnings("unchecked") // type is a registered subtype of T, checked above
          T value = (T) construct(type, components, values);
          return value;
        }

        private String known() {
          return String.join(
              ", ",
              types.entrySet().stream()
                  .filter(e -> base.isAssignableFrom(e.getValue()))
                  .map(Map.Entry::getKey)
                  .sorted()
                  .toList());
        }
      };
    }

    @SuppressWarnings("unchecked")
    private static TypeAdapter<Object> adapter(Gson gson, RecordComponent c) {
      return (TypeAdapter<Object>) gson.getAdapter(TypeToken.get(c.getGenericType()));
    }

    private static int indexOf(RecordComponent[] components, String name, boolean snake) {
      for (int i = 0; i < components.length; i++) {
        String n = components[i].getName();
        if ((snake ? snake(n) : n).equals(name)) {
          return i;
        }
      }
      return -1;
    }

    private static Object get(RecordComponent c, Object value) {
      try {
        Method accessor = c.getAccessor();
        accessor.setAccessible(true);
        return accessor.invoke(value);
      } catch (ReflectiveOperationException e) {
        throw new JsonParseException("cannot read " + c, e);
      }
    }

    /**
     * What an absent field reads as: null, a primitive's zero, or NaN for a floating-point figure
     * (not measured, which a zero would contradict: a bandwidth of 0 is a finding).
     */
    private static Object defaultValue(Class<?> type) {
      if (type == double.class) {
        return Double.NaN;
      }
      if (type == float.class) {
        return Float.NaN;
      }
      return type.isPrimitive() ? Array.get(Array.newInstance(type, 1), 0) : null;
    }

    private static Object construct(Class<?> type, RecordComponent[] components, Object[] values) {
      Class<?>[] parameters = new Class<?>[components.length];
      for (int i = 0; i < components.length; i++) {
        parameters[i] = components[i].getType();
      }
      try {
        Constructor<?> canonical = type.getDeclaredConstructor(parameters);
        canonical.setAccessible(true);
        return canonical.newInstance(values);
      } catch (InvocationTargetException e) {
        throw new JsonParseException(type.getSimpleName() + ": " + e.getCause().getMessage(), e);
      } catch (ReflectiveOperationException e) {
        throw new JsonParseException("cannot make a " + type.getSimpleName(), e);
      }
    }
  }

  private static final class PathAdapter extends TypeAdapter<Path> {
    @Override
    public void write(JsonWriter out, Path value) throws IOException {
      out.value(value.toString());
    }

    @Override
    public Path read(JsonReader in) throws IOException {
      return Path.of(in.nextString());
    }
  }

  /** ISO-8601 instants, as {@link Instant#toString()} writes them. */
  private static final class InstantAdapter extends TypeAdapter<Instant> {
    @Override
    public void write(JsonWriter out, Instant value) throws IOException {
      out.value(value.toString());
    }

    @Override
    public Instant read(JsonReader in) throws IOException {
      String text = in.nextString();
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException e) {
        throw new JsonParseException("'" + text + "' is not an ISO-8601 instant", e);
      }
    }
  }

  /** Decimal seconds, exact to the nanosecond: {@code 2.5} is 2.5 s. */
  private static final class DurationAdapter extends TypeAdapter<Duration> {
    @Override
    public void write(JsonWriter out, Duration value) throws IOException {
      out.value(BigDecimal.valueOf(value.getSeconds()).add(BigDecimal.valueOf(value.getNano(), 9)));
    }

    @Override
    public Duration read(JsonReader in) throws IOException {
      BigDecimal seconds = new BigDecimal(in.nextString());
      return Duration.ofSeconds(
          seconds.longValue(), seconds.remainder(BigDecimal.ONE).movePointRight(9).longValue());
    }
  }
}
