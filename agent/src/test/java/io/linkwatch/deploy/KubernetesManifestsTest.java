package io.linkwatch.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Kubernetes manifests under deploy/kubernetes, as {@code kubectl kustomize} renders each
 * overlay, checked against the Kubernetes API's own JSON schemas and the prometheus-operator CRDs'
 * (vendored, strict: deploy/kubernetes/schemas). An unknown field or a value of the wrong type
 * fails (shown by the tests that break a manifest on purpose); so does a kind without a schema.
 * Also: the names that tie the objects together (port names, selectors, the node relabeling) and
 * that the generated PrometheusRule and dashboard ConfigMaps are in step with grafana/.
 */
class KubernetesManifestsTest {
  static final Path DEPLOY = Path.of("..", "deploy", "kubernetes").toAbsolutePath().normalize();
  static final Path GRAFANA = Path.of("..", "grafana").toAbsolutePath().normalize();
  static final YAMLMapper YAML = new YAMLMapper();
  static final String DEFAULT_SOCKET =
      io.linkwatch.config.PodResourcesSettings.DEFAULT_SOCKET.toString();
  static final Map<String, JsonSchema> SCHEMAS = new HashMap<>();

  @BeforeAll
  static void loadSchemas() throws IOException {
    JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);
    try (var files = Files.list(DEPLOY.resolve("schemas"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
        String name = f.getFileName().toString().replace(".json", "");
        SCHEMAS.put(name, factory.getSchema(YAML.readTree(f.toFile())));
      }
    }
  }

  /** kubeconform's naming: kind-group-version, without the group for the core API. */
  static String schemaName(JsonNode doc) {
    String apiVersion = doc.path("apiVersion").asText();
    String kind = doc.path("kind").asText().toLowerCase(java.util.Locale.ROOT);
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = apiVersion.substring(slash + 1);
    // The vendored core schemas' group is the API group's first label (rbac, not
    // rbac.authorization.k8s.io); the CRDs' is the whole group (monitoring.coreos.com).
    if (group.endsWith(".k8s.io")) {
      group = group.substring(0, group.indexOf('.'));
    }
    return kind + "-" + (group.isEmpty() ? "" : group + "-") + version;
  }

  /** Problems of one object: a missing schema is one. */
  static List<String> validate(JsonNode doc) {
    String name = schemaName(doc);
    JsonSchema schema = SCHEMAS.get(name);
    String what = doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText();
    if (schema == null) {
      return List.of(what + ": no schema " + name + ".json in deploy/kubernetes/schemas");
    }
    Set<ValidationMessage> messages = schema.validate(doc);
    return messages.stream().map(m -> what + ": " + m.getMessage()).sorted().toList();
  }

  /**
   * The rendered YAML. kubectl must say nothing on stderr: a deprecated field (bases,
   * patchesStrategicMerge, patchesJson6902, ...) makes it print a warning there.
   */
  static String kustomize(Path dir) throws IOException, InterruptedException {
    Path err = Files.createTempFile("kustomize", ".err");
    try {
      Process p =
          new ProcessBuilder("kubectl", "kustomize", dir.toString())
              .redirectError(err.toFile())
              .start();
      byte[] out = p.getInputStream().readAllBytes();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String stderr = Files.readString(err, StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as("kubectl kustomize %s: %s", dir, stderr).isZero();
      assertThat(stderr).as("kubectl kustomize %s: stderr", dir).isEmpty();
      return new String(out, StandardCharsets.UTF_8);
    } finally {
      Files.deleteIfExists(err);
    }
  }

  static List<JsonNode> documents(String yaml) throws IOException {
    List<JsonNode> docs = new ArrayList<>();
    try (var it = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
      while (it.hasNext()) {
        JsonNode d = it.next();
        if (d != null && !d.isNull() && !d.isEmpty()) {
          docs.add(d);
        }
      }
    }
    return docs;
  }

  static List<JsonNode> render(String overlay) throws Exception {
    return documents(kustomize(DEPLOY.resolve("overlays").resolve(overlay)));
  }

  static JsonNode only(List<JsonNode> docs, String kind) {
    List<JsonNode> found = docs.stream().filter(d -> d.path("kind").asText().equals(kind)).toList();
    assertThat(found).as(kind).hasSize(1);
    return found.get(0);
  }

  /** Every kustomization under deploy/kubernetes renders, with no warning (see kustomize). */
  @ParameterizedTest
  @ValueSource(strings = {"base", "overlays/ascend", "overlays/nvidia", "podmonitor"})
  void everyKustomizationRendersWithoutAWarning(String dir) throws Exception {
    assertThat(documents(kustomize(DEPLOY.resolve(dir)))).isNotEmpty();
  }

  @Test
  void theListOfKustomizationsIsComplete() throws Exception {
    try (var files = Files.walk(DEPLOY)) {
      assertThat(
              files
                  .filter(f -> f.getFileName().toString().equals("kustomization.yaml"))
                  .map(f -> DEPLOY.relativize(f.getParent()).toString().replace('\\', '/'))
                  .sorted()
                  .toList())
          .containsExactly("base", "overlays/ascend", "overlays/nvidia", "podmonitor");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"ascend", "nvidia"})
  void everyRenderedObjectMatchesItsSchema(String overlay) throws Exception {
    List<JsonNode> docs = render(overlay);
    assertThat(docs.stream().map(d -> d.path("kind").asText()).collect(Collectors.toSet()))
        .containsExactlyInAnyOrder(
            "Namespace",
            "ServiceAccount",
            "ConfigMap",
            "Secret",
            "Service",
            "DaemonSet",
            "ServiceMonitor",
            "PrometheusRule",
            "Role",
            "RoleBinding");
    List<String> problems = new ArrayList<>();
    docs.forEach(d -> problems.addAll(validate(d)));
    assertThat(problems).isEmpty();
  }

  @Test
  void thePodMonitorAlternativeMatchesItsSchema() throws Exception {
    List<JsonNode> docs = documents(kustomize(DEPLOY.resolve("podmonitor")));
    JsonNode monitor = only(docs, "PodMonitor");
    assertThat(validate(monitor)).isEmpty();
    assertThat(monitor.at("/metadata/namespace").asText()).isEqualTo("linkwatch");
    JsonNode endpoint = monitor.at("/spec/podMetricsEndpoints/0");
    assertThat(endpoint.path("port").asText()).isEqualTo("metrics");
    assertThat(nodeRelabeling(endpoint)).isTrue();
    JsonNode podLabels = only(render("ascend"), "DaemonSet").at("/spec/template/metadata/labels");
    monitor
        .at("/spec/selector/matchLabels")
        .fields()
        .forEachRemaining(e -> assertThat(podLabels.path(e.getKey())).isEqualTo(e.getValue()));
  }

  // --- the check fails on what it should ---------------------------------------------------------

  @Test
  void anUnknownFieldFails() throws Exception {
    ObjectNode ds = (ObjectNode) only(render("nvidia"), "DaemonSet").deepCopy();
    ((ObjectNode) ds.at("/spec/template/spec/containers/0")).put("imagePullPolcy", "Always");
    assertThat(validate(ds))
        .singleElement()
        .asString()
        .contains("imagePullPolcy")
        .contains("is not defined in the schema");
  }

  @Test
  void aWrongTypeFails() throws Exception {
    ObjectNode ds = (ObjectNode) only(render("ascend"), "DaemonSet").deepCopy();
    ((ObjectNode) ds.at("/spec/template/spec")).put("hostPID", "yes");
    ((ObjectNode) ds.at("/spec/template/spec/containers/0/ports/0")).put("containerPort", "10187");
    assertThat(String.join("\n", validate(ds)))
        .contains("hostPID: string found, [boolean, null] expected")
        .contains("containerPort: string found, integer expected");
  }

  @Test
  void aBrokenMonitorOrRuleFails() throws Exception {
    List<JsonNode> docs = render("ascend");
    ObjectNode monitor = (ObjectNode) only(docs, "ServiceMonitor").deepCopy();
    ((ObjectNode) monitor.at("/spec/endpoints/0")).put("scrapeInterval", "30s");
    assertThat(validate(monitor)).anyMatch(m -> m.contains("scrapeInterval"));
    ObjectNode rule = (ObjectNode) only(docs, "PrometheusRule").deepCopy();
    ((ObjectNode) rule.at("/spec/groups/0")).set("rules", YAML.createObjectNode());
    assertThat(validate(rule)).anyMatch(m -> m.contains("rules: object found, array expected"));
    ObjectNode unknownKind = YAML.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
    assertThat(validate(unknownKind)).singleElement().asString().contains("no schema pod-v1.json");
  }

  // --- the names that tie the objects together ---------------------------------------------------

  static boolean nodeRelabeling(JsonNode endpoint) {
    for (JsonNode r : endpoint.path("relabelings")) {
      if (r.path("sourceLabels").toString().contains("__meta_kubernetes_pod_node_name")
          && r.path("targetLabel").asText().equals("node")) {
        return true;
      }
    }
    return false;
  }

  @ParameterizedTest
  @ValueSource(strings = {"ascend", "nvidia"})
  void theObjectsFindEachOther(String overlay) throws Exception {
    List<JsonNode> docs = render(overlay);
    JsonNode ds = only(docs, "DaemonSet");
    JsonNode service = only(docs, "Service");
    JsonNode monitor = only(docs, "ServiceMonitor");
    JsonNode podLabels = ds.at("/spec/template/metadata/labels");
    ds.at("/spec/selector/matchLabels")
        .fields()
        .forEachRemaining(e -> assertThat(podLabels.path(e.getKey())).isEqualTo(e.getValue()));
    service
        .at("/spec/selector")
        .fields()
        .forEachRemaining(e -> assertThat(podLabels.path(e.getKey())).isEqualTo(e.getValue()));
    monitor
        .at("/spec/selector/matchLabels")
        .fields()
        .forEachRemaining(
            e ->
                assertThat(service.at("/metadata/labels").path(e.getKey()))
                    .isEqualTo(e.getValue()));
    assertThat(service.at("/spec/ports/0/name").asText()).isEqualTo("metrics");
    assertThat(service.at("/spec/ports/0/targetPort").asText()).isEqualTo("metrics");
    assertThat(ds.at("/spec/template/spec/containers/0/ports/0/name").asText())
        .isEqualTo("metrics");
    JsonNode endpoint = monitor.at("/spec/endpoints/0");
    assertThat(endpoint.path("port").asText()).isEqualTo("metrics");
    assertThat(nodeRelabeling(endpoint)).as("node label from the pod's node").isTrue();
    // The generated ConfigMap and Secret are the ones the DaemonSet mounts (hash suffixes).
    Set<String> mounted = new TreeSet<>();
    for (JsonNode v : ds.at("/spec/template/spec/volumes")) {
      mounted.add(v.at("/configMap/name").asText(v.at("/secret/secretName").asText()));
    }
    for (JsonNode d : docs) {
      if (d.path("metadata").path("name").asText().matches("linkwatch-(config|web)-.*")) {
        assertThat(mounted).contains(d.at("/metadata/name").asText());
      }
    }
    assertThat(ds.at("/spec/template/spec/containers/0/args").toString())
        .contains(overlay.equals("ascend") ? "\"ascend\"" : "\"cuda\"");
  }

  /**
   * peers.kubernetes as shipped: the agents' config names the Service and its port, the pod mounts
   * its service-account token, and the RoleBinding gives that service account exactly what the
   * agent calls (get/list/watch on EndpointSlices, in its own namespace) and nothing more.
   */
  @ParameterizedTest
  @ValueSource(strings = {"ascend", "nvidia"})
  void theAgentsMayListTheirServicesEndpointSlicesAndNothingElse(String overlay) throws Exception {
    List<JsonNode> docs = render(overlay);
    JsonNode ds = only(docs, "DaemonSet");
    JsonNode service = only(docs, "Service");
    JsonNode role = only(docs, "Role");
    JsonNode binding = only(docs, "RoleBinding");
    JsonNode pod = ds.at("/spec/template/spec");
    String account = pod.path("serviceAccountName").asText();
    assertThat(account).isEqualTo(only(docs, "ServiceAccount").at("/metadata/name").asText());
    assertThat(pod.path("automountServiceAccountToken").asBoolean())
        .as("the token is mounted")
        .isTrue();
    String namespace = ds.at("/metadata/namespace").asText();
    assertThat(role.at("/metadata/namespace").asText()).isEqualTo(namespace);
    assertThat(binding.at("/metadata/namespace").asText()).isEqualTo(namespace);
    assertThat(binding.at("/roleRef/kind").asText()).isEqualTo("Role");
    assertThat(binding.at("/roleRef/name").asText()).isEqualTo(role.at("/metadata/name").asText());
    assertThat(binding.at("/subjects").toString())
        .isEqualTo(
            YAML.createArrayNode()
                .add(
                    YAML.createObjectNode()
                        .put("kind", "ServiceAccount")
                        .put("name", account)
                        .put("namespace", namespace))
                .toString());
    assertThat(role.at("/rules").toString())
        .isEqualTo(
            YAML.readTree(
                    "[{apiGroups: [discovery.k8s.io], resources: [endpointslices],"
                        + " verbs: [get, list, watch]}]")
                .toString());
    JsonNode config =
        docs.stream()
            .filter(d -> d.at("/metadata/name").asText().startsWith("linkwatch-config"))
            .findFirst()
            .orElseThrow();
    JsonNode peers = YAML.readTree(config.at("/data/linkwatch.yaml").asText()).path("peers");
    assertThat(peers.at("/kubernetes/service").asText())
        .isEqualTo(service.at("/metadata/name").asText());
    assertThat(
            peers
                .at("/kubernetes/port")
                .asText(io.linkwatch.peer.PeerConfig.Kubernetes.DEFAULT_PORT))
        .isEqualTo(service.at("/spec/ports/0/name").asText());
    assertThat(service.at("/spec/clusterIP").asText()).isEqualTo("None");
    // The agents' pods are the Service's endpoints, and the config loads as shipped.
    JsonNode podLabels = ds.at("/spec/template/metadata/labels");
    service
        .at("/spec/selector")
        .fields()
        .forEachRemaining(e -> assertThat(podLabels.path(e.getKey())).isEqualTo(e.getValue()));
    // The peers section loads as shipped (the rest names files that exist only in the pod).
    assertThat(
            io.linkwatch.config.ConfigLoader.parse(
                    "linkwatch.yaml",
                    YAML.writeValueAsString(YAML.createObjectNode().set("peers", peers)))
                .peers()
                .kubernetes())
        .isPresent();
  }

  @Test
  void aBrokenRoleFails() throws Exception {
    ObjectNode role = (ObjectNode) only(render("ascend"), "Role").deepCopy();
    ((ObjectNode) role.at("/rules/0")).remove("verbs");
    ((ObjectNode) role.at("/rules/0")).put("resource", "endpointslices");
    assertThat(String.join("\n", validate(role)))
        .contains("required property 'verbs' not found")
        .contains("property 'resource' is not defined in the schema");
  }

  /**
   * The kubelet's pod-resources directory is mounted read-only where the agent's default {@code
   * busy.pod_resources_socket} looks, from the host's directory (a socket file mount would go stale
   * when the kubelet re-creates it), and the agent runs as the socket's owner, root.
   */
  @ParameterizedTest
  @ValueSource(strings = {"ascend", "nvidia"})
  void thePodResourcesSocketIsReachableReadOnly(String overlay) throws Exception {
    List<JsonNode> docs = render(overlay);
    JsonNode pod = only(docs, "DaemonSet").at("/spec/template/spec");
    List<JsonNode> volumes = new ArrayList<>();
    pod.path("volumes").forEach(volumes::add);
    assertThat(volumes)
        .filteredOn(v -> v.path("name").asText().equals("pod-resources"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.at("/hostPath/path").asText())
                  .isEqualTo("/var/lib/kubelet/pod-resources");
              assertThat(v.at("/hostPath/type").asText()).isEqualTo("Directory");
            });
    List<JsonNode> mounts = new ArrayList<>();
    pod.at("/containers/0/volumeMounts").forEach(mounts::add);
    assertThat(mounts)
        .filteredOn(m -> m.path("name").asText().equals("pod-resources"))
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.path("mountPath").asText())
                  .isEqualTo(
                      io.linkwatch.config.PodResourcesSettings.DEFAULT_SOCKET
                          .getParent()
                          .toString());
              assertThat(m.path("readOnly").asBoolean()).isTrue();
            });
    JsonNode container = pod.at("/containers/0/securityContext");
    long uid =
        container.has("runAsUser")
            ? container.path("runAsUser").asLong()
            : pod.at("/securityContext/runAsUser").asLong(-1);
    assertThat(uid).as("the socket's owner").isZero();
    // The shipped config leaves the lookup on: no socket of its own, so the default.
    JsonNode config =
        docs.stream()
            .filter(d -> d.at("/metadata/name").asText().startsWith("linkwatch-config"))
            .findFirst()
            .orElseThrow();
    JsonNode socket =
        YAML.readTree(config.at("/data/linkwatch.yaml").asText()).at("/busy/pod_resources_socket");
    assertThat(socket.isMissingNode() ? DEFAULT_SOCKET : socket.asText()).isEqualTo(DEFAULT_SOCKET);
  }

  @Test
  void generatedRulesAndDashboardsAreInStepWithGrafana() throws Exception {
    JsonNode rule = YAML.readTree(DEPLOY.resolve("base/prometheusrule.yaml").toFile());
    JsonNode rules = YAML.readTree(GRAFANA.resolve("alerts/linkwatch.rules.yml").toFile());
    assertThat(rule.at("/spec/groups"))
        .as("base/prometheusrule.yaml: run deploy/kubernetes/generate.sh")
        .isEqualTo(rules.path("groups"));
    List<JsonNode> maps =
        documents(Files.readString(DEPLOY.resolve("base/grafana-dashboards.yaml")));
    List<String> names = new ArrayList<>();
    try (var files = Files.list(GRAFANA.resolve("dashboards"))) {
      for (Path f : files.sorted().toList()) {
        String key = f.getFileName().toString();
        names.add(key);
        JsonNode map = maps.stream().filter(m -> m.at("/data").has(key)).findFirst().orElseThrow();
        assertThat(map.at("/metadata/labels/grafana_dashboard").asText()).isEqualTo("1");
        assertThat(map.at("/data").path(key).asText())
            .as("%s: run deploy/kubernetes/generate.sh", key)
            .isEqualTo(Files.readString(f).stripTrailing());
      }
    }
    assertThat(maps).hasSameSizeAs(names);
    // Each fits a ConfigMap (1 MiB) and kubectl's client-side last-applied annotation (256 KiB).
    for (JsonNode m : maps) {
      assertThat(YAML.writeValueAsBytes(m).length).isLessThan(256 * 1024);
    }
    assertThat(rule.at("/spec/groups")).isInstanceOf(ArrayNode.class);
  }
}
