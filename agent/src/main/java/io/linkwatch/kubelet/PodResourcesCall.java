package io.linkwatch.kubelet;

import io.linkwatch.kubelet.v1.ContainerDevices;
import io.linkwatch.kubelet.v1.ContainerResources;
import io.linkwatch.kubelet.v1.ListPodResourcesRequest;
import io.linkwatch.kubelet.v1.ListPodResourcesResponse;
import io.linkwatch.kubelet.v1.PodResources;
import io.vertx.core.Future;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code /v1.PodResourcesLister/List} call and its answer flattened to {@link DeviceHolder}s:
 * the only class that touches the generated messages, so that they load with the first call.
 */
final class PodResourcesCall {
  static final ServiceName SERVICE = ServiceName.create("v1", "PodResourcesLister");

  /** The kubelet's answers can list every pod of a busy node: allow far more than they need. */
  static final long MAX_MESSAGE_BYTES = 16L << 20;

  private static final ServiceMethod<ListPodResourcesResponse, ListPodResourcesRequest> LIST =
      ServiceMethod.client(
          SERVICE,
          "List",
          GrpcMessageEncoder.encoder(),
          GrpcMessageDecoder.decoder(ListPodResourcesResponse.newBuilder()));

  private PodResourcesCall() {}

  /** Sends the request with {@code millis} as its gRPC deadline. */
  static Future<List<DeviceHolder>> list(GrpcClient client, SocketAddress socket, long millis) {
    return client
        .request(socket, LIST)
        .compose(
            request -> {
              request.timeout(millis, TimeUnit.MILLISECONDS);
              return request.send(ListPodResourcesRequest.getDefaultInstance());
            })
        .compose(response -> response.last())
        .map(PodResourcesCall::holders);
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
}
