#!/usr/bin/env python3
"""Writes the JSON schemas that KubernetesManifestsTest validates the manifests against.

Only the kinds deploy/kubernetes uses. Inputs (see README.md beside this file for origin and
licence):
  K8S:  a checkout of ricoberger/kubernetes-json-schema; its schemas/*.json are the stand-alone,
        expanded JSON schemas of a Kubernetes API server's own /openapi/v2 (v1.34.0).
  PO:   a checkout of prometheus-operator/prometheus-operator; the openAPIV3Schema of its CRDs
        (example/prometheus-operator-crd/monitoring.coreos.com_*.yaml).

What is changed, so that the schemas are small and strict:
  * descriptions and the x-kubernetes-* annotations are dropped (documentation, not rules);
  * every object schema with properties and no additionalProperties gets
    additionalProperties: false, as the API server's field validation does (an unknown field
    is an error, as with `kubectl apply --validate=strict`), unless the CRD says
    x-kubernetes-preserve-unknown-fields;
  * x-kubernetes-int-or-string becomes anyOf integer / string;
  * a CRD's metadata (only "type: object" in the CRD) gets the Kubernetes ObjectMeta schema,
    and apiVersion and kind are pinned to the CRD's group/version and kind.

  python3 vendor.py K8S PO      # rewrites *.json here
"""
import json
import os
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
K8S_KINDS = [
    "namespace-v1",
    "serviceaccount-v1",
    "configmap-v1",
    "secret-v1",
    "service-v1",
    "daemonset-apps-v1",
    "role-rbac-v1",
    "rolebinding-rbac-v1",
]
CRDS = {
    "servicemonitors": "servicemonitor",
    "podmonitors": "podmonitor",
    "prometheusrules": "prometheusrule",
}
SCHEMA_KEYWORDS_WITH_SCHEMA_MAPS = ("properties", "patternProperties", "definitions")


def show(repo, path):
    return subprocess.run(
        ["git", "-C", repo, "show", "HEAD:" + path], check=True, capture_output=True, text=True
    ).stdout


def strict(schema):
    """Drops documentation and closes every object schema that lists its properties."""
    if isinstance(schema, list):
        return [strict(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    preserve = schema.get("x-kubernetes-preserve-unknown-fields") is True
    for key, value in schema.items():
        if key in ("description", "$schema") or key.startswith("x-kubernetes-"):
            continue
        if key in SCHEMA_KEYWORDS_WITH_SCHEMA_MAPS:
            out[key] = {name: strict(s) for name, s in value.items()}
        else:
            out[key] = strict(value)
    if schema.get("x-kubernetes-int-or-string") is True:
        out.pop("type", None)
        out["anyOf"] = [{"type": "integer"}, {"type": "string"}]
    if "properties" in out and "additionalProperties" not in out and not preserve:
        out["additionalProperties"] = False
    return out


def write(name, schema):
    schema = dict(schema)
    schema["$schema"] = "http://json-schema.org/draft-04/schema#"
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(schema, f, separators=(",", ":"), sort_keys=True)
        f.write("\n")


def main(k8s, po):
    object_meta = None
    for kind in K8S_KINDS:
        schema = strict(json.loads(show(k8s, "schemas/%s.json" % kind)))
        object_meta = object_meta or schema["properties"]["metadata"]
        write(kind, schema)
    for plural, kind in CRDS.items():
        crd = yaml.safe_load(
            show(po, "example/prometheus-operator-crd/monitoring.coreos.com_%s.yaml" % plural)
        )
        group = crd["spec"]["group"]
        for version in crd["spec"]["versions"]:
            schema = strict(version["schema"]["openAPIV3Schema"])
            schema["properties"]["metadata"] = object_meta
            schema["properties"]["apiVersion"] = {"type": "string", "enum": ["%s/%s" % (group, version["name"])]}
            schema["properties"]["kind"] = {"type": "string", "enum": [crd["spec"]["names"]["kind"]]}
            schema["required"] = sorted(set(schema.get("required", [])) | {"apiVersion", "kind"})
            write("%s-%s-%s" % (kind, group, version["name"]), schema)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
