package io.linkwatch.http;

import io.linkwatch.peer.collective.LeaseDesk;
import io.linkwatch.peer.collective.LeaseWire;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.concurrent.Callable;

/**
 * The lease a peer asks for before a two-host run ({@link LeaseWire} has the documents), behind the
 * same TLS and auth as the rest of the API. Every answer is quick: the run under a lease goes on in
 * the background ({@link LeaseDesk#start}), and the prober asks for its outcome.
 */
final class PeerLeaseApi {
  private PeerLeaseApi() {}

  /** A lease document is a few kilobytes (the HCCL blob is 4,108 bytes, base64). */
  private static final long BODY_LIMIT = 64 * 1024;

  /**
   * Reads the bodies of the lease paths. Goes before the login, whose password check may finish on
   * another thread after the request's body has arrived: a body handler placed after it finds the
   * request ended. The limit keeps an unauthenticated body small.
   */
  static void bodies(Router router) {
    router.route("/api/v1/peer/lease*").handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT));
  }

  static void routes(Router router, LeaseDesk desk) {
    router
        .post("/api/v1/peer/lease")
        .blockingHandler(
            ctx ->
                answer(
                    ctx,
                    () -> {
                      Object a = desk.request(read(ctx, LeaseWire.Request.class));
                      return new Reply(a instanceof LeaseWire.Refusal ? 409 : 200, a);
                    }),
            false);
    router
        .post("/api/v1/peer/lease/:id/run")
        .blockingHandler(
            ctx ->
                answer(
                    ctx,
                    () -> {
                      desk.start(ctx.pathParam("id"), read(ctx, LeaseWire.Run.class));
                      return new Reply(202, LeaseDesk.RUNNING);
                    }),
            false);
    router
        .get("/api/v1/peer/lease/:id")
        .blockingHandler(
            ctx ->
                answer(
                    ctx,
                    () -> {
                      Object o = desk.outcome(ctx.pathParam("id"));
                      return new Reply(o == LeaseDesk.RUNNING ? 202 : 200, o);
                    }),
            false);
    router
        .delete("/api/v1/peer/lease/:id")
        .blockingHandler(
            ctx -> {
              desk.release(ctx.pathParam("id"));
              ctx.response().setStatusCode(204).end();
            },
            false);
  }

  /** A status and a document (or a line of text). */
  private record Reply(int status, Object body) {}

  private static <T> T read(RoutingContext ctx, Class<T> type) {
    return LeaseWire.read(ctx.body().asString(), type);
  }

  private static void answer(RoutingContext ctx, Callable<Reply> reply) {
    try {
      send(ctx, reply.call());
    } catch (LeaseDesk.NoSuchLease e) {
      text(ctx, 404, e.getMessage());
    } catch (IllegalArgumentException e) {
      text(ctx, 400, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      text(ctx, 503, "interrupted");
    } catch (Exception e) {
      text(ctx, 500, e.toString());
    }
  }

  private static void send(RoutingContext ctx, Reply r) {
    if (r.body() instanceof String s) {
      text(ctx, r.status(), s);
      return;
    }
    ctx.response()
        .setStatusCode(r.status())
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-store")
        .end(LeaseWire.write(r.body()));
  }

  private static void text(RoutingContext ctx, int status, String line) {
    ctx.response().setStatusCode(status).putHeader("Content-Type", "text/plain").end(line + "\n");
  }
}
