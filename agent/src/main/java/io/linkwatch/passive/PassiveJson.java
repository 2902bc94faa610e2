package io.linkwatch.passive;

import io.linkwatch.util.Json;
import java.util.Map;
import java.util.Set;

/** The JSON codec of what crosses the watcher boundary: plain records, no tagged types. */
final class PassiveJson {
  static final Json JSON = Json.tagging(Set.of(), Map.of());

  private PassiveJson() {}
}
