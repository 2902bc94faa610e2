package io.linkwatch.kubelet;

import static io.linkwatch.testing.FakeKubelet.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.linkwatch.kubelet.v1.ContainerDevices;
import io.linkwatch.kubelet.v1.ContainerResources;
import io.linkwatch.kubelet.v1.PodResources;
import io.linkwatch.testing.FakeKubelet;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client against a fake kubelet on a unix socket that speaks the real gRPC API, and against
 * sockets that do not: nobody listening, a server that hangs, one that answers garbage.
 */
class PodResourcesClientTest {
  static final Duration TIMEOUT = Duration.ofMillis(700);

  @TempDir Path dir;

  @BeforeAll
  static void loadTheClasses(@TempDir Path warm) throws Exception {
    FakeKubelet.warmUp(warm);
  }

  @Test
  void listsEveryDeviceOfEveryContainerAndCallsTheKubeletsMethod() throws Exception {
    Path socket = dir.resolve("kubelet.sock");
    try (FakeKubelet kubelet = FakeKubelet.start(socket);
        PodResourcesClient client = new PodResourcesClient(socket, TIMEOUT)) {
      kubelet.answer(
          pod("ml", "train-0", "trainer", "huawei.com/Ascend910", "Ascend910-0", "Ascend910-1"),
          pod("default", "web-1", "nginx", "example.com/none"),
          pod("ml", "infer-2", "server", "nvidia.com/gpu", "GPU-5f1c"));

      List<DeviceHolder> holders = get(client);

      assertThat(holders)
          .containsExactly(
              new DeviceHolder("ml", "train-0", "trainer", "huawei.com/Ascend910", "Ascend910-0"),
              new DeviceHolder("ml", "train-0", "trainer", "huawei.com/Ascend910", "Ascend910-1"),
              new DeviceHolder("ml", "infer-2", "server", "nvidia.com/gpu", "GPU-5f1c"));
      assertThat(kubelet.calls())
          .containsExactly(new FakeKubelet.Call("v1.PodResourcesLister/List"));
      assertThat(kubelet.validRequests()).isEqualTo(1);
    }
  }

  @Test
  void fieldsThisClientDoesNotReadAreSkipped() throws Exception {
    // A real kubelet adds topology (ContainerDevices field 3) and cpu_ids (ContainerResources
    // field 3): written here as raw fields, as the client's messages do not declare them.
    PodResources withExtras =
        PodResources.newBuilder()
            .setNamespace("ml")
            .setName("train-0")
            .addContainers(
                ContainerResources.newBuilder()
                    .setName("trainer")
                    .addDevices(
                        ContainerDevices.newBuilder()
                            .setResourceName("nvidia.com/gpu")
                            .addDeviceIds("GPU-aa")
                            .setUnknownFields(
                                UnknownFieldSet.newBuilder()
                                    .addField(
                                        3,
                                        UnknownFieldSet.Field.newBuilder()
                                            .addLengthDelimited(
                                                ByteString.copyFrom(
                                                    new byte[] {0x0a, 0x02, 0x08, 0x01}))
                                            .build())
                                    .build()))
                    .setUnknownFields(
                        UnknownFieldSet.newBuilder()
                            .addField(3, UnknownFieldSet.Field.newBuilder().addVarint(7).build())
                            .build()))
            .build();
    Path socket = dir.resolve("kubelet.sock");
    try (FakeKubelet kubelet = FakeKubelet.start(socket);
        PodResourcesClient client = new PodResourcesClient(socket, TIMEOUT)) {
      kubelet.answer(withExtras);
      assertThat(get(client))
          .containsExactly(
              new DeviceHolder("ml", "train-0", "trainer", "nvidia.com/gpu", "GPU-aa"));
    }
  }

  @Test
  void aGrpcErrorFailsTheCallWithTheKubeletsMessage() throws Exception {
    Path socket = dir.resolve("kubelet.sock");
    try (FakeKubelet kubelet = FakeKubelet.start(socket);
        PodResourcesClient client = new PodResourcesClient(socket, TIMEOUT)) {
      kubelet.mode(FakeKubelet.Mode.UNIMPLEMENTED);
      Throwable failure = failure(client);
      assertThat(failure.toString()).contains("UNIMPLEMENTED");
    }
  }

  @Test
  void aMessageThatIsNotTheApisFailsTheCall() throws Exception {
    Path socket = dir.resolve("kubelet.sock");
    try (FakeKubelet kubelet = FakeKubelet.start(socket);
        PodResourcesClient client = new PodResourcesClient(socket, TIMEOUT)) {
      kubelet.mode(FakeKubelet.Mode.GARBAGE);
      assertThat(failure(client)).isNotInstanceOf(java.util.concurrent.TimeoutException.class);
    }
  }

  @Test
  void aServerThatIsNotGrpcFailsTheCall() throws Exception {
    Path socket = dir.resolve("kubelet.sock");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        PodResourcesClient client = new PodResourcesClient(socket, TIMEOUT)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      Thread junk =
          new Thread(
              () -> {
                try (SocketChannel c = server.accept()) {
                  c.write(
                      ByteBuffer.wrap(
                          "HTTP/1.0 400 nonsense\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
                } catch (Exception e) {
                  // the test ends the server by closing it
                }
              });
      junk.setDaemon(true);
      junk.start();
      assertThat(failure(client)).isNotInstanceOf(java.util.concurrent.TimeoutException.class);
    }
  }

  @Test
  void aSocketNobodyListensOnIsRefusedAtOnce() throws Exception {
    Path socket = dir.resolve("kubelet.sock");
    // A kubelet that died leaves its socket file behind: connecting is refused.
    ServerSocketChannel gone = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    gone.bind(UnixDomainSocketAddress.of(socket));
    gone.close();
    try (PodResourcesClient client = new PodResourcesClient(socket, TIMEOUT)) {
      long started = System.nanoTime();
      Throwable failure = failure(client);
      assertThat(failure).isNotInstanceOf(java.util.concurrent.TimeoutException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(TIMEOUT);
    }
  }

  @Test
  void aKubeletThatHangsCostsTheTimeoutAndNoMore() throws Exception {
    Path socket = dir.resolve("kubelet.sock");
    try (FakeKubelet kubelet = FakeKubelet.start(socket);
        PodResourcesClient client = new PodResourcesClient(socket, TIMEOUT)) {
      // The first call answers, then the kubelet sticks.
      kubelet.answer(pod("ml", "train-0", "trainer", "nvidia.com/gpu", "0"));
      assertThat(get(client)).hasSize(1);
      kubelet.mode(FakeKubelet.Mode.HANG);
      long started = System.nanoTime();
      Throwable failure = failure(client);
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(failure).isInstanceOf(java.util.concurrent.TimeoutException.class);
      assertThat(took)
          .isGreaterThanOrEqualTo(TIMEOUT.minusMillis(50))
          .isLessThan(TIMEOUT.multipliedBy(3));
      assertThat(kubelet.calls()).hasSize(2);
    }
  }

  @Test
  void withoutTheDeadlineAHangingKubeletWouldNeverAnswer() throws Exception {
    // The failure the timeout prevents: the same call, with a deadline far beyond the test, is
    // still waiting long after the client's timeout has passed.
    Path socket = dir.resolve("kubelet.sock");
    try (FakeKubelet kubelet = FakeKubelet.start(socket);
        PodResourcesClient unbounded = new PodResourcesClient(socket, Duration.ofHours(1))) {
      kubelet.mode(FakeKubelet.Mode.HANG);
      CompletableFuture<List<DeviceHolder>> call =
          unbounded.list().toCompletionStage().toCompletableFuture();
      Thread.sleep(TIMEOUT.multipliedBy(3).toMillis());
      assertThat(call).isNotDone();
      assertThat(kubelet.calls()).hasSize(1);
    }
  }

  private static List<DeviceHolder> get(PodResourcesClient client) throws Exception {
    return client.list().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static Throwable failure(PodResourcesClient client) throws Exception {
    CompletableFuture<List<DeviceHolder>> f =
        client.list().toCompletionStage().toCompletableFuture();
    try {
      List<DeviceHolder> unexpected = f.get(10, TimeUnit.SECONDS);
      throw new AssertionError("the call succeeded: " + unexpected);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    }
  }
}
