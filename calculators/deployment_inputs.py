"""Reading what ``kubectl`` prints about your own deployment: Kubernetes quantities, ``kubectl get -o json`` objects
(Deployments, StatefulSets, HPAs) and ``kubectl top pods --containers`` text.

Standard library only: the same code runs in CPython (command line, tests) and in Pyodide (the "Your deployment"
page). YAML (``kubectl get -o yaml``) is turned into the same dict before it reaches this module: by js-yaml on the
page, by PyYAML on the command line (``calculators.__main__``); both hand ``parse_objects`` the same structure.

Quantities (``quantity``) follow the Kubernetes serialization format, ``<signedNumber><suffix>`` (kubernetes.io,
Reference > Kubernetes API > Common Definitions > Quantity; k8s.io/apimachinery/pkg/api/resource):

* number: ``<digits>``, ``<digits>.<digits>``, ``<digits>.``, ``.<digits>``, optionally signed;
* suffix: binary SI ``Ki Mi Gi Ti Pi Ei`` (2^10 ... 2^60), decimal SI ``n u m "" k M G T P E`` (10^-9 ... 10^18;
  ``n`` and ``u`` are what the metrics API writes for CPU, e.g. ``100u``), or a decimal exponent ``e<signedNumber>`` /
  ``E<signedNumber>`` (``1e9``, ``1E3``; ``1E`` alone is exa). Case matters: ``1m`` is a thousandth, ``1M`` a million
  (of bytes, for memory: a ``m`` memory quantity is legal and almost always a mistake, so it is named in the notes).

Units returned: CPU in cores, memory in GiB (bytes / 2^30), both as exact Fractions.

Errors never stop a parse: every problem is a dict ``{"where": ..., "message": ...}`` naming the line of the
``kubectl top`` text or the object path (kind/namespace/name/container/field) of a ``kubectl get`` object, and every
other row is still read. ``DeploymentInputError`` (a ValueError) is raised only for input that holds nothing
readable at all (not JSON, no kubectl objects, no header line) or that is larger than ``MAX_BYTES``.
"""
from __future__ import annotations

import json
import re
from fractions import Fraction

MAX_BYTES = 8 * 1048576
"""Largest pasted or dropped text read (8 MiB: ``kubectl get -o json`` of 500 workloads is about 2 MB); a Benchmark
Atlas limit."""
GIB = 2 ** 30
"""Bytes per GiB."""

BINARY_SI = {"Ki": 2 ** 10, "Mi": 2 ** 20, "Gi": 2 ** 30, "Ti": 2 ** 40, "Pi": 2 ** 50, "Ei": 2 ** 60}
"""Binary suffixes of a Kubernetes quantity (Quantity docs: <binarySI> ::= Ki | Mi | Gi | Ti | Pi | Ei)."""
DECIMAL_SI = {"n": Fraction(1, 10 ** 9), "u": Fraction(1, 10 ** 6), "m": Fraction(1, 1000), "": Fraction(1),
              "k": Fraction(10 ** 3), "M": Fraction(10 ** 6), "G": Fraction(10 ** 9), "T": Fraction(10 ** 12),
              "P": Fraction(10 ** 15), "E": Fraction(10 ** 18)}
"""Decimal suffixes (Quantity docs: <decimalSI> ::= m | "" | k | M | G | T | P | E; ``n`` and ``u`` are the nano- and
micro-units resource.Quantity also reads and the metrics API writes for CPU)."""

_QUANTITY = re.compile(r"^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([eE][+-]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$")

WORKLOAD_KINDS = ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet")
"""Kinds whose pod template is read (a DaemonSet's replicas are its scheduled pods, from its status)."""
HPA_KIND = "HorizontalPodAutoscaler"
SIDECAR_NAMES = ("istio-proxy",)
"""Container names recognised as service-mesh sidecars: Istio's injected proxy (the name the guides print,
``calculators.sidecars.SIDECAR_CONTAINER``). An init container with ``restartPolicy: Always`` is a native sidecar
(Kubernetes 1.28+, KEP-753) and counts as running too."""
MESH_INIT_NAMES = ("istio-init", "istio-validation")
"""Init containers Istio injects (traffic redirection), recognised and named as the mesh's."""


class DeploymentInputError(ValueError):
    """Input to the "Your deployment" calculator that holds nothing readable; the message says what and where."""


def quantity(text) -> Fraction:
    """The exact value of a Kubernetes quantity (module docstring): ``'250m'`` -> 1/4, ``'1.5'`` -> 3/2,
    ``'512Mi'`` -> 536870912, ``'1e9'`` -> 10**9. An int or float (JSON numbers, e.g. ``replicas``-style ``cpu: 2``)
    is read by its decimal text. Raises ValueError naming the text for anything else (``'12x'``, ``''``, ``'1.2.3'``)."""
    if isinstance(text, bool):
        raise ValueError(f"{text!r} is not a Kubernetes quantity")
    if isinstance(text, (int, float)):
        text = repr(text) if isinstance(text, float) else str(text)
    s = str(text).strip()
    m = _QUANTITY.match(s)
    if not m:
        raise ValueError(f"{s[:40]!r} is not a Kubernetes quantity (a number with an optional suffix: "
                         "250m, 1.5, 512Mi, 1Gi, 1G, 1e9)")
    num = Fraction(m.group(1))
    if m.group(2):
        return num * Fraction(10) ** int(m.group(2)[1:])
    suffix = m.group(3) or ""
    return num * (BINARY_SI[suffix] if suffix in BINARY_SI else DECIMAL_SI[suffix])


def cpu_cores(text) -> Fraction:
    """A CPU quantity in cores (``'250m'`` -> 1/4, ``'100u'`` -> 1/10000). Raises ValueError as ``quantity``."""
    return quantity(text)


def memory_gib(text) -> Fraction:
    """A memory quantity in GiB (``'512Mi'`` -> 1/2, ``'1G'`` -> 10**9 / 2**30). Raises ValueError as ``quantity``."""
    return quantity(text) / GIB


# ------------------------------------------------------------------ kubectl get -o json (or YAML read into the same dict)
def load_json(text: str) -> object:
    """``text`` (``kubectl get ... -o json``) as a Python object. Raises DeploymentInputError naming the line and column
    of a JSON error, or the size limit."""
    if len(text) > MAX_BYTES:
        raise DeploymentInputError(f"Workloads: the text is larger than {MAX_BYTES // 1048576} MiB.")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise DeploymentInputError(f"Workloads: not JSON (line {e.lineno}, column {e.colno}: {e.msg}). Paste what "
                                   "`kubectl get deployments,statefulsets,hpa -o json` prints (on the page, -o yaml is "
                                   "read too).") from None


def _path(kind, ns, name, *rest) -> str:
    return "/".join([str(kind or "?"), str(ns or "default"), str(name or "?")] + [str(x) for x in rest])


def _items(obj) -> list:
    if isinstance(obj, list):
        out = []
        for x in obj:
            out.extend(_items(x))
        return out
    if isinstance(obj, dict) and isinstance(obj.get("items"), list):
        return _items(obj["items"])
    return [obj]


def _resources(c: dict, where: str, problems: list) -> dict:
    """A container's requests and limits (cores, GiB; None where not set), problems named by field."""
    res = c.get("resources") if isinstance(c.get("resources"), dict) else {}
    out = {}
    for part in ("requests", "limits"):
        got = res.get(part) if isinstance(res.get(part), dict) else {}
        for res_name, conv, unit in (("cpu", cpu_cores, "cpu"), ("memory", memory_gib, "mem")):
            key = f"{unit}_{'request' if part == 'requests' else 'limit'}"
            v = got.get(res_name)
            if v is None:
                out[key] = None
                continue
            try:
                out[key] = conv(v)
            except ValueError as e:
                problems.append({"where": f"{where}/resources.{part}.{res_name}", "message": str(e)})
                out[key] = None
    # Kubernetes defaults a missing request to the limit (the API server's defaulting of a container's resources)
    for what in ("cpu", "mem"):
        if out[f"{what}_request"] is None and out[f"{what}_limit"] is not None and f"{what}_request_from_limit" not in out:
            out[f"{what}_request"] = out[f"{what}_limit"]
            out[f"{what}_request_from_limit"] = True
    return out


def _containers(spec: dict, where: str, problems: list) -> list[dict]:
    out = []
    for init, key in ((False, "containers"), (True, "initContainers")):
        for i, c in enumerate(spec.get(key) or []):
            if not isinstance(c, dict):
                problems.append({"where": f"{where}/{key}[{i}]", "message": "not a container object"})
                continue
            name = str(c.get("name") or f"{key}[{i}]")
            native_sidecar = init and c.get("restartPolicy") == "Always"
            sidecar = name in SIDECAR_NAMES or native_sidecar
            out.append({"name": name, "init": init and not native_sidecar, "sidecar": sidecar,
                        "native_sidecar": native_sidecar, "mesh_init": init and name in MESH_INIT_NAMES,
                        **_resources(c, f"{where}/{name}", problems)})
    return out


def _int(v, where: str, problems: list, default=None):
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        if isinstance(v, str) and v.strip().isdigit():
            return int(v.strip())
        problems.append({"where": where, "message": f"{str(v)[:40]!r} is not a whole number of 0 or more"})
        return default
    return v


def _hpa(o: dict, ns: str, name: str, problems: list) -> dict:
    """An HPA's target, bounds and CPU target (autoscaling/v2 ``metrics``; autoscaling/v1
    ``targetCPUUtilizationPercentage``)."""
    spec = o.get("spec") if isinstance(o.get("spec"), dict) else {}
    where = _path(HPA_KIND, ns, name)
    ref = spec.get("scaleTargetRef") if isinstance(spec.get("scaleTargetRef"), dict) else {}
    h = {"namespace": ns, "name": name, "target_kind": ref.get("kind"), "target_name": ref.get("name"),
         "min_replicas": _int(spec.get("minReplicas"), where + "/spec.minReplicas", problems, 1),
         "max_replicas": _int(spec.get("maxReplicas"), where + "/spec.maxReplicas", problems),
         "cpu_target": None, "cpu_container": None, "memory_target": None, "other_metrics": [], "path": where}
    if not ref.get("name"):
        problems.append({"where": where + "/spec.scaleTargetRef", "message": "no target workload named"})
    v1 = spec.get("targetCPUUtilizationPercentage")
    if v1 is not None:
        h["cpu_target"] = _int(v1, where + "/spec.targetCPUUtilizationPercentage", problems)
    for i, m in enumerate(spec.get("metrics") or []):
        if not isinstance(m, dict):
            continue
        typ = m.get("type")
        body = m.get("resource") if typ == "Resource" else m.get("containerResource") if typ == "ContainerResource" else None
        if not isinstance(body, dict):
            h["other_metrics"].append(str(typ))
            continue
        tgt = body.get("target") if isinstance(body.get("target"), dict) else {}
        if tgt.get("type") != "Utilization" or tgt.get("averageUtilization") is None:
            h["other_metrics"].append(f"{typ} {body.get('name')} {tgt.get('type')}")
            continue
        pct = _int(tgt.get("averageUtilization"), f"{where}/spec.metrics[{i}].{'resource' if typ == 'Resource' else 'containerResource'}"
                   ".target.averageUtilization", problems)
        if body.get("name") == "cpu":
            h["cpu_target"] = pct
            h["cpu_container"] = body.get("container") if typ == "ContainerResource" else None
        elif body.get("name") == "memory":
            h["memory_target"] = pct
    if h["max_replicas"] is None:
        problems.append({"where": where + "/spec.maxReplicas", "message": "missing (an HPA must set maxReplicas)"})
    return h


def parse_objects(obj) -> dict:
    """Workloads and HPAs of ``obj``: what ``kubectl get deployments,statefulsets,hpa -o json`` prints (a ``List``), a
    single object, or a list of either (a YAML stream read into a list).

    Returns ``{"workloads": [{"kind", "namespace", "name", "replicas" (pods: spec.replicas, default 1; a DaemonSet's
    status.desiredNumberScheduled), "containers": [{"name", "init", "sidecar", "native_sidecar", "mesh_init",
    "cpu_request", "cpu_limit" (cores), "mem_request", "mem_limit" (GiB), ...}], "path"}], "hpas": [{"namespace",
    "name", "target_kind", "target_name", "min_replicas", "max_replicas", "cpu_target" (whole %), "cpu_container",
    "memory_target", "other_metrics", "path"}], "ignored": [kinds left out, with counts], "problems": [{"where",
    "message"}]}``. A request that is not set but has a limit takes the limit (as the API server defaults it). Raises
    DeploymentInputError when ``obj`` holds no Kubernetes object at all."""
    items = _items(obj)
    workloads, hpas, problems, ignored = [], [], [], {}
    seen_object = False
    for n, o in enumerate(items):
        if not isinstance(o, dict) or "kind" not in o:
            problems.append({"where": f"item {n + 1}", "message": "not a Kubernetes object (no kind)"})
            continue
        seen_object = True
        kind = o["kind"]
        meta = o.get("metadata") if isinstance(o.get("metadata"), dict) else {}
        ns, name = meta.get("namespace") or "default", meta.get("name")
        if kind == HPA_KIND:
            hpas.append(_hpa(o, ns, name, problems))
            continue
        if kind not in WORKLOAD_KINDS:
            ignored[kind] = ignored.get(kind, 0) + 1
            continue
        where = _path(kind, ns, name)
        spec = o.get("spec") if isinstance(o.get("spec"), dict) else {}
        tmpl = spec.get("template") if isinstance(spec.get("template"), dict) else {}
        pod = tmpl.get("spec") if isinstance(tmpl.get("spec"), dict) else None
        if pod is None:
            problems.append({"where": where + "/spec.template.spec", "message": "no pod template: the workload is left out"})
            continue
        if kind == "DaemonSet":
            status = o.get("status") if isinstance(o.get("status"), dict) else {}
            replicas = _int(status.get("desiredNumberScheduled"), where + "/status.desiredNumberScheduled", problems, 0)
        else:
            replicas = _int(spec.get("replicas"), where + "/spec.replicas", problems, 1)
        workloads.append({"kind": kind, "namespace": ns, "name": name or "?", "replicas": replicas,
                          "containers": _containers(pod, where, problems), "path": where})
    if not seen_object:
        raise DeploymentInputError("Workloads: no Kubernetes objects found (expected what `kubectl get "
                                   "deployments,statefulsets,hpa -o json` prints: a List with items).")
    return {"workloads": workloads, "hpas": hpas, "problems": problems,
            "ignored": [{"kind": k, "count": v} for k, v in sorted(ignored.items())]}


# ------------------------------------------------------------------ kubectl top pods --containers
TOP_HEADER = ("POD", "NAME", "CPU(cores)", "MEMORY(bytes)")
"""The columns ``kubectl top pods --containers`` prints (``-A`` / ``--all-namespaces`` adds NAMESPACE first)."""


def parse_top(text: str) -> dict:
    """Observed use per container from ``kubectl top pods --containers`` text (with or without ``-A``'s NAMESPACE
    column; several outputs pasted one after another are read, each header line starting a block).

    Returns ``{"rows": [{"line", "namespace" (None without the column), "pod", "container", "cpu" (cores),
    "memory" (GiB)}], "problems": [{"where": "line N", "message"}]}``: a bad line is named and the others are read.
    Raises DeploymentInputError when no header line is found or the text is larger than ``MAX_BYTES``."""
    if len(text) > MAX_BYTES:
        raise DeploymentInputError(f"kubectl top: the text is larger than {MAX_BYTES // 1048576} MiB.")
    rows, problems = [], []
    cols, headers = None, 0
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if parts[-2:] == ["CPU(cores)", "MEMORY(bytes)"]:
            headers += 1
            if parts in (list(TOP_HEADER), ["NAMESPACE", *TOP_HEADER]):
                cols = parts
            else:
                problems.append({"where": f"line {n}", "message": "header not recognised (expected NAMESPACE POD NAME "
                                 "CPU(cores) MEMORY(bytes), or without NAMESPACE)"})
                cols = None
            continue
        if cols is None:
            problems.append({"where": f"line {n}", "message": "before any header line "
                             "(POD NAME CPU(cores) MEMORY(bytes)): not read"})
            continue
        if len(parts) != len(cols):
            problems.append({"where": f"line {n}", "message": f"{len(parts)} columns, expected {len(cols)} "
                             f"({' '.join(cols)})"})
            continue
        rec = dict(zip(cols, parts))
        try:
            cpu = cpu_cores(rec["CPU(cores)"])
        except ValueError as e:
            problems.append({"where": f"line {n}", "message": f"CPU(cores): {e}"})
            continue
        try:
            mem = memory_gib(rec["MEMORY(bytes)"])
        except ValueError as e:
            problems.append({"where": f"line {n}", "message": f"MEMORY(bytes): {e}"})
            continue
        if cpu < 0 or mem < 0:
            problems.append({"where": f"line {n}", "message": "a negative reading"})
            continue
        rows.append({"line": n, "namespace": rec.get("NAMESPACE"), "pod": rec["POD"], "container": rec["NAME"],
                     "cpu": cpu, "memory": mem})
    if not headers:
        raise DeploymentInputError("kubectl top: no header line POD NAME CPU(cores) MEMORY(bytes) found (paste what "
                                   "`kubectl top pods --containers` prints, with -A or -n <namespace>).")
    return {"rows": rows, "problems": problems}
