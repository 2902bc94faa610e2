package io.linkwatch.http;

import at.favre.lib.crypto.bcrypt.BCrypt;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP basic auth against the web config's bcrypt hashes, on every path. A bcrypt check takes tens
 * of milliseconds by design, so it runs off the event loop, and a pair that passed is remembered
 * (as a SHA-256, compared in constant time) so a scrape every 15 s does not pay for it each time.
 * An unknown user is checked against a dummy hash, so the answer takes as long as for a known one.
 * A failure is 401 with {@code WWW-Authenticate}, logged with the user and address, never the
 * password.
 */
final class BasicAuth {
  private static final Logger log = LoggerFactory.getLogger(BasicAuth.class);
  private static final String CHALLENGE = "Basic realm=\"linkwatch\", charset=\"UTF-8\"";

  private final Supplier<Map<String, String>> users;

  /** user -> SHA-256 of "user:password" that passed, for the hash it passed against. */
  private final Map<String, Passed> passed = new ConcurrentHashMap<>();

  private record Passed(String hash, byte[] digest) {}

  /**
   * @param users user to bcrypt hash, read at each request so a reloaded web config takes effect
   */
  BasicAuth(Supplier<Map<String, String>> users) {
    this.users = users;
  }

  void handle(RoutingContext ctx) {
    Map<String, String> current = users.get();
    if (current.isEmpty()) {
      ctx.next();
      return;
    }
    String[] given = credentials(ctx.request().getHeader("Authorization"));
    if (given == null) {
      deny(ctx, null);
      return;
    }
    String user = given[0];
    String hash = current.get(user);
    byte[] digest = sha256(user + ":" + given[1]);
    Passed before = passed.get(user);
    if (hash != null
        && before != null
        && before.hash().equals(hash)
        && MessageDigest.isEqual(before.digest(), digest)) {
      ctx.next();
      return;
    }
    ctx.vertx()
        .executeBlocking(
            () ->
                BCrypt.verifyer()
                    .verify(
                        given[1].toCharArray(), (hash == null ? Dummy.HASH : hash).toCharArray())
                    .verified)
        .onComplete(
            result -> {
              if (result.succeeded() && result.result() && hash != null) {
                passed.put(user, new Passed(hash, digest));
                ctx.next();
              } else {
                deny(ctx, user);
              }
            });
  }

  /** {user, password} from a Basic header, or null. */
  private static String[] credentials(String header) {
    if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      return null;
    }
    String decoded;
    try {
      decoded =
          new String(
              Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
    int colon = decoded.indexOf(':');
    return colon < 0
        ? null
        : new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)};
  }

  private static void deny(RoutingContext ctx, String user) {
    log.warn(
        "http: {} {} from {}: {}",
        ctx.request().method(),
        ctx.request().path(),
        ctx.request().remoteAddress(),
        user == null ? "no credentials" : "wrong user or password for user '" + user + "'");
    ctx.response()
        .setStatusCode(401)
        .putHeader("WWW-Authenticate", CHALLENGE)
        .putHeader("Content-Type", "text/plain")
        .end("unauthorized\n");
  }

  /**
   * The hash an unknown user is checked against. Made on first use: an agent without users never
   * loads bcrypt, nor spends the tens of milliseconds of a hash at start.
   */
  private static final class Dummy {
    static final String HASH =
        new String(
            BCrypt.withDefaults().hash(10, "not a password".toCharArray()), StandardCharsets.UTF_8);
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
