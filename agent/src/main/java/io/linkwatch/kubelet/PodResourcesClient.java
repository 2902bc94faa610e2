package io.linkwatch.kubelet;

import io.linkwatch.kubelet.v1.ContainerDevices;
import io.linkwatch.kubelet.v1.ContainerResources;
import io.linkwatch.kubelet.v1.ListPodResourcesRequest;
import io.linkwatch.kubelet.v1.ListPodResourcesResponse;
import io.linkwatch.kubelet.v1.PodResources;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Calls {@code v1.PodResourcesLister/List} on the kubelet's pod-resources socket and flattens the
 * answer to one {@link DeviceHolder} per allocated device. gRPC runs on Vert.x's HTTP/2 client over
 * the unix socket (the JDK's NIO serves domain sockets from Java 16, so no native transport is
 * needed), in a Vert.x of its own: a kubelet that stalls ties up this client's one event loop,
 * never the one that serves {@code /metrics}.
 *
 * <p>Every call is bounded by {@code timeout}: the request carries it as its gRPC deadline (so the
 * kubelet gives up too) and the returned future fails with a timeout when no answer came in time,
 * however the connection behaves.
 */
public final class PodResourcesClient implements AutoCloseable {
  static final ServiceName SERVICE = ServiceName.create("v1", "PodResourcesLister");

  /** The kubelet's answers can list every pod of a busy node: allow far more than they need. */
  private static final long MAX_MESSAGE_BYTES = 16L << 20;

  private static final ServiceMethod<ListPodResourcesResponse, ListPodResourcesRequest> LIST =
      ServiceMethod.client(
          SERVICE,
          "List",
          GrpcMessageEncoder.encoder(),
          GrpcMessageDecoder.decoder(ListPodResourcesResponse.newBuilder()));

  private final Path socket;
  private final Duration timeout;
  private final Vertx vertx;
  private final GrpcClient client;

  public PodResourcesClient(Path socket, Duration timeout) {
    this.socket = socket;
    this.timeout = timeout;
    this.vertx =
        Vertx.vertx(
            new VertxOptions()
                .setEventLoopPoolSize(1)
                .setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1));
    this.client =
        GrpcClient.client(
            vertx,
            new GrpcClientOptions().setMaxMessageSize(MAX_MESSAGE_BYTES),
            // Given options replace vertx-grpc's own, so they repeat its HTTP/2 with prior
            // knowledge (gRPC servers, the kubelet's too, do not upgrade from HTTP/1.1).
            new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false)
                .setConnectTimeout((int) Math.max(1, timeout.toMillis())));
  }

  public Path socket() {
    return socket;
  }

  /** The devices every container of the node was allocated; fails within the timeout. */
  public Future<List<DeviceHolder>> list() {
    long millis = Math.max(1, timeout.toMillis());
    return client
        .request(SocketAddress.domainSocketAddress(socket.toString()), LIST)
        .compose(
            request -> {
              request.timeout(millis, TimeUnit.MILLISECONDS);
              return request.send(ListPodResourcesRequest.getDefaultInstance());
            })
        .compose(response -> response.last())
        .timeout(millis, TimeUnit.MILLISECONDS)
        .map(PodResourcesClient::holders);
  }

  static List<DeviceHolder> holders(ListPodResourcesResponse response) {
    List<DeviceHolder> out = new ArrayList<>();
    for (PodResources pod : response.getPodResourcesList()) {
      for (ContainerResources container : pod.getContainersList()) {
        for (ContainerDevices devices : container.getDevicesList()) {
          for (String id : devices.getDeviceIdsList()) {
            out.add(
                new DeviceHolder(
                    pod.getNamespace(),
                    pod.getName(),
                    container.getName(),
                    devices.getResourceName(),
                    id));
          }
        }
      }
    }
    return out;
  }

  @Override
  public void close() {
    client.close();
    vertx.close();
  }
}
