package io.linkwatch.kubelet;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Calls {@code v1.PodResourcesLister/List} on the kubelet's pod-resources socket and flattens the
 * answer to one {@link DeviceHolder} per allocated device. gRPC runs on Vert.x's HTTP/2 client over
 * the unix socket (the JDK's NIO serves domain sockets from Java 16, so no native transport is
 * needed), in a Vert.x of its own: a kubelet that stalls ties up this client's one event loop,
 * never the one that serves {@code /metrics}.
 *
 * <p>Nothing of it loads before the first call, which comes only after a check found a device busy
 * where the socket exists: off Kubernetes the agent carries no gRPC or protobuf classes.
 *
 * <p>Every call is bounded by {@code timeout}: the request carries it as its gRPC deadline (so the
 * kubelet gives up too) and the returned future fails with a timeout when no answer came in time,
 * however the connection behaves.
 */
public final class PodResourcesClient implements AutoCloseable {
  private final Path socket;
  private final Duration timeout;
  private Vertx vertx;
  private GrpcClient client;

  /** Creates nothing yet: Vert.x and gRPC start with the first call, where a socket exists. */
  public PodResourcesClient(Path socket, Duration timeout) {
    this.socket = socket;
    this.timeout = timeout;
  }

  public Path socket() {
    return socket;
  }

  /** The devices every container of the node was allocated; fails within the timeout. */
  public Future<List<DeviceHolder>> list() {
    long millis = Math.max(1, timeout.toMillis());
    return PodResourcesCall.list(
            client(), SocketAddress.domainSocketAddress(socket.toString()), millis)
        .timeout(millis, TimeUnit.MILLISECONDS);
  }

  private synchronized GrpcClient client() {
    if (client == null) {
      vertx =
          Vertx.vertx(
              new VertxOptions()
                  .setEventLoopPoolSize(1)
                  .setWorkerPoolSize(1)
                  .setInternalBlockingPoolSize(1));
      client =
          GrpcClient.client(
              vertx,
              new GrpcClientOptions().setMaxMessageSize(PodResourcesCall.MAX_MESSAGE_BYTES),
              // Given options replace vertx-grpc's own, so they repeat its HTTP/2 with prior
              // knowledge (gRPC servers, the kubelet's too, do not upgrade from HTTP/1.1).
              new HttpClientOptions()
                  .setProtocolVersion(HttpVersion.HTTP_2)
                  .setHttp2ClearTextUpgrade(false)
                  .setConnectTimeout((int) Math.max(1, timeout.toMillis())));
    }
    return client;
  }

  @Override
  public synchronized void close() {
    if (client != null) {
      client.close();
      vertx.close();
    }
  }
}
