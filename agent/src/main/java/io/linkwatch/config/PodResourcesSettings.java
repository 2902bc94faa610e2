package io.linkwatch.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the kubelet's pod-resources API is asked who holds a busy device ({@code
 * busy.pod_resources_socket}, {@code busy.pod_resources_timeout}). The socket is used only when it
 * exists, so the default costs nothing off Kubernetes; an empty value switches the lookup off.
 *
 * @param socket the kubelet's unix socket, or empty when switched off
 * @param timeout the longest one lookup may take, connection included
 */
public record PodResourcesSettings(Optional<Path> socket, Duration timeout) {
  /** Where the kubelet serves the API (k8s.io/kubelet, pkg/apis/podresources). */
  public static final Path DEFAULT_SOCKET = Path.of("/var/lib/kubelet/pod-resources/kubelet.sock");

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

  /** Past this a lookup's answer would describe a node that has long moved on. */
  static final Duration MAX_TIMEOUT = Duration.ofMinutes(1);

  public static final PodResourcesSettings DEFAULTS =
      new PodResourcesSettings(Optional.of(DEFAULT_SOCKET), DEFAULT_TIMEOUT);
}
