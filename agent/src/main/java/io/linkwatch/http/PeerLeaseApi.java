package io.linkwatch.http;

import io.linkwatch.peer.collective.LeaseDesk;
import io.linkwatch.peer.collective.LeaseWire;
import io.vertx.core.WorkerExecutor;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The lease a peer asks for before a two-host run ({@link LeaseWire} has the documents), behind the
 * same TLS and auth as the rest of the API. The run under a lease takes as long as the run, up to
 * {@code peers.collective.deadline}: it waits on its own worker thread, so it delays neither a
 * scrape nor the status page.
 */
final class PeerLeaseApi {
  private PeerLeaseApi() {}

  /** A lease document is a few kilobytes (the HCCL blob is 4,108 bytes, base64). */
  private static final long BODY_LIMIT = 64 * 1024;

  static void routes(Router router, LeaseDesk desk, WorkerExecutor runs) {
    BodyHandler body = BodyHandler.create(false).setBodyLimit(BODY_LIMIT);
    router
        .post("/api/v1/peer/lease")
        .handler(body)
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
        .handler(body)
        .handler(
            ctx -> {
              String id = ctx.pathParam("id");
              LeaseWire.Run run;
              try {
                run = read(ctx, LeaseWire.Run.class);
              } catch (IllegalArgumentException e) {
                text(ctx, 400, e.getMessage());
                return;
              }
              runs.executeBlocking(
                      () -> {
                        try {
                          return new Reply(200, desk.run(id, run));
                        } catch (LeaseDesk.NoSuchLease e) {
                          return new Reply(404, e.getMessage());
                        }
                      },
                      false)
                  .onComplete(
                      r -> {
                        if (r.succeeded()) {
                          send(ctx, r.result());
                        } else {
                          text(ctx, 500, String.valueOf(r.cause()));
                        }
                      });
            });
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

  /** Runs of up to an hour do not trip Vert.x's blocked-thread warning. */
  static WorkerExecutor executor(io.vertx.core.Vertx vertx) {
    return vertx.createSharedWorkerExecutor("peer-lease-run", 1, 1, TimeUnit.HOURS);
  }
}
