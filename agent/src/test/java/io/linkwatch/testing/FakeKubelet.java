package io.linkwatch.testing;

import com.google.protobuf.InvalidProtocolBufferException;
import io.linkwatch.kubelet.PodResourcesClient;
import io.linkwatch.kubelet.v1.ContainerDevices;
import io.linkwatch.kubelet.v1.ContainerResources;
import io.linkwatch.kubelet.v1.ListPodResourcesRequest;
import io.linkwatch.kubelet.v1.ListPodResourcesResponse;
import io.linkwatch.kubelet.v1.PodResources;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A kubelet's pod-resources endpoint for tests: a real gRPC server (Vert.x, HTTP/2 cleartext) on a
 * unix socket, answering {@code /v1.PodResourcesLister/List} with the pods it is given, as the
 * kubelet does, or misbehaving on request: hanging, failing with a gRPC status, or sending a
 * message that is not the API's. Each call's method is kept and its request parsed, so a test can
 * see what the client really sent.
 */
public final class FakeKubelet implements AutoCloseable {
  /** What the next calls get. */
  public enum Mode {
    ANSWER,
    /** Takes the call and never answers, as a kubelet stuck on a lock. */
    HANG,
    /** Answers with a message that does not parse as the API's response. */
    GARBAGE,
    /** Fails the call with UNIMPLEMENTED, as a kubelet without the v1 API would. */
    UNIMPLEMENTED
  }

  /** One call as the server saw it. */
  public record Call(String method) {}

  private final Vertx vertx;
  private final HttpServer server;
  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final AtomicInteger requests = new AtomicInteger();
  private volatile Mode mode = Mode.ANSWER;
  private volatile ListPodResourcesResponse answer = ListPodResourcesResponse.getDefaultInstance();

  private FakeKubelet(Vertx vertx, HttpServer server) {
    this.vertx = vertx;
    this.server = server;
  }

  public static FakeKubelet start(Path socket) throws Exception {
    Vertx vertx = Vertx.vertx();
    FakeKubelet[] self = new FakeKubelet[1];
    GrpcServer grpc = GrpcServer.server(vertx).callHandler(call -> self[0].handle(call));
    HttpServer server =
        vertx
            .createHttpServer(new HttpServerOptions())
            .requestHandler(grpc)
            .listen(SocketAddress.domainSocketAddress(socket.toString()))
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    self[0] = new FakeKubelet(vertx, server);
    return self[0];
  }

  /**
   * One call to a fake kubelet in {@code dir}, with time to spare: the first gRPC call of a JVM
   * loads Vert.x's HTTP/2 and protobuf classes on both sides, which on a loaded machine alone can
   * take longer than a test's short timeout. Tests that time calls run this first.
   */
  public static void warmUp(Path dir) throws Exception {
    Path socket = dir.resolve("warm-up.sock");
    try (FakeKubelet kubelet = start(socket);
        PodResourcesClient client = new PodResourcesClient(socket, Duration.ofSeconds(30))) {
      kubelet.answer(pod("ml", "warm-0", "c", "nvidia.com/gpu", "0"));
      if (client.list().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).size()
          != 1) {
        throw new IllegalStateException("the warm-up call did not list its one device");
      }
    }
  }

  /** Answers with these pods from now on. */
  public FakeKubelet answer(PodResources... pods) {
    answer = ListPodResourcesResponse.newBuilder().addAllPodResources(List.of(pods)).build();
    mode = Mode.ANSWER;
    return this;
  }

  public FakeKubelet mode(Mode m) {
    mode = m;
    return this;
  }

  public List<Call> calls() {
    return List.copyOf(calls);
  }

  /** Request messages that parsed as the API's {@code ListPodResourcesRequest}. */
  public int validRequests() {
    return requests.get();
  }

  /** A pod with one container holding {@code deviceIds} of {@code resource}. */
  public static PodResources pod(
      String namespace, String name, String container, String resource, String... deviceIds) {
    return PodResources.newBuilder()
        .setNamespace(namespace)
        .setName(name)
        .addContainers(
            ContainerResources.newBuilder()
                .setName(container)
                .addDevices(
                    ContainerDevices.newBuilder()
                        .setResourceName(resource)
                        .addAllDeviceIds(List.of(deviceIds))))
        .build();
  }

  private void handle(GrpcServerRequest<Buffer, Buffer> call) {
    Mode now = mode;
    calls.add(new Call(call.fullMethodName()));
    call.handler(
        body -> {
          try {
            ListPodResourcesRequest.parseFrom(body.getBytes());
            requests.incrementAndGet();
          } catch (InvalidProtocolBufferException e) {
            call.response().status(GrpcStatus.INVALID_ARGUMENT).end();
          }
        });
    call.endHandler(
        v -> {
          switch (now) {
            case HANG -> {}
            case GARBAGE ->
                call.response().end(Buffer.buffer(new byte[] {(byte) 0xff, (byte) 0xff, 0x0f}));
            case UNIMPLEMENTED ->
                call.response()
                    .status(GrpcStatus.UNIMPLEMENTED)
                    .statusMessage("unknown service v1.PodResourcesLister")
                    .end();
            case ANSWER -> {
              if (!call.fullMethodName().equals("v1.PodResourcesLister/List")) {
                call.response().status(GrpcStatus.UNIMPLEMENTED).end();
              } else {
                call.response().end(Buffer.buffer(answer.toByteArray()));
              }
            }
          }
        });
  }

  @Override
  public void close() throws ExecutionException, TimeoutException {
    try {
      server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
