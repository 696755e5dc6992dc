"""Write the "Your deployment" calculator's two examples from the guides' own tables, so every figure in them traces to
its table and row: ``docs/assets/examples/deployment/`` (run ``.venv/bin/python tools/make_deployment_examples.py`` from
the checkout; the output is committed, and tests/test_deployment.py checks it is what this script writes).

1. ``policy-pcf-sm.json`` + ``policy-pcf-sm-top.txt``: Oracle Converged Policy, PCF SM call model, the run of section
   3.2.8 (policy-3-2-8: 43K TPS on site 1, ASM), as ``kubectl get deployments,statefulsets,hpa -o json`` and
   ``kubectl top pods -A --containers``:
   * replicas, CPU and memory requests and limits of every container: Table 3-150 (application services, per row) and
     Table 3-151 (cnDBTier, printed for site 2: the run's only cnDBTier resource table);
   * CPU and memory used by each service's main container at site 1: Table 3-152 (application, cores and GiB used) and
     Table 3-153 (cnDBTier), split evenly over the replicas in whole millicores and whole MiB as kubectl top prints them
     (the service's total CPU is exact; memory is within 0.5 MiB per pod of the printed GiB); the guide prints no use
     for sidecars, so the top text has no istio-proxy lines;
   * HPAs: Table 3-152 prints no targets, so each traffic service's HPA takes the target of the same service in
     Table 3-106 (policy-3-2-4, the same PCF SM call model) and the min-max its replicas are printed with in Table 3-104
     (the same run), as an ``autoscaling/v2`` ContainerResource metric on the main container (the sidecar's use is not
     printed); services printed with a fixed count get no HPA;
   * left out: PerfInfo (Table 3-150 row 20 prints no replica count);
   * what real clusters add, without figures: Istio's ``istio-init`` init container in every pod with a sidecar, a
     ``config-reloader`` container that sets no requests in the alternate-route pod, two namespaces (``ocpcf`` and
     ``cndbtier``), and the requests written in every spelling Kubernetes accepts, each the printed value exactly
     (``5``, ``5000m``, ``6Gi``, ``6144Mi``, ``6442450944``, ``6.442450944G``, ``6291456Ki``, ``6.442450944e9``...).
2. ``bsf-3-3.yaml`` + ``bsf-3-3-top.txt``: Oracle BSF, the run of section 3.3 (bsf-3-3: 63K TPS on site 1, ASM), as
   ``kubectl get ... -o yaml`` and ``kubectl top pods -A --containers``: Table 3-25 (application) and Table 3-26
   (cnDBTier) for replicas and resources, Tables 3-28 and 3-29 for CPU and memory use at site 1 (percent of the request,
   times the replicas and the request, in whole millicores and MiB), sidecars included. The guide prints no HPA for the
   run, so there is none.

``examples.json`` lists both for the page's "Try an example" buttons (files, the run each is built from, its product,
call model and load per site).

Usage: ``tools/make_deployment_examples.py [--check]`` (``--check``: exit 1 if the committed files differ).
"""
from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "assets" / "examples" / "deployment"

CPU_SPELLINGS = (lambda c: _dec(c), lambda c: f"{_int(c * 1000)}m")
MEM_SPELLINGS = (lambda g: f"{_dec(g)}Gi", lambda g: f"{_dec(g * 1024)}Mi", lambda g: f"{_int(g * 2 ** 30)}",
                 lambda g: f"{_dec(g * 2 ** 30 / 10 ** 9)}G", lambda g: f"{_dec(g * 2 ** 20)}Ki",
                 lambda g: f"{_dec(g * 2 ** 30 / 10 ** 9)}e9", lambda g: f"{_dec(g * 2 ** 30 / 10 ** 6)}M",
                 lambda g: f"{_dec(g * 2 ** 30 / 10 ** 3)}k")
"""Every spelling of a request, each exact: a GiB value with few decimals is a finite decimal in any of these units."""


def _dec(x) -> str:
    """An exact Fraction with a finite decimal expansion as its shortest decimal text (ValueError otherwise)."""
    from decimal import Decimal, localcontext
    x = Fraction(x)
    with localcontext() as ctx:
        ctx.prec = 80
        d = Decimal(x.numerator) / Decimal(x.denominator)
    if Fraction(d) != x:
        raise ValueError(f"{x} has no short decimal expansion")
    text = format(d.normalize(), "f")
    return text


def _int(x) -> int:
    x = Fraction(x)
    if x.denominator != 1:
        raise ValueError(f"{x} is not whole")
    return x.numerator


def _split(total: int, n: int) -> list[int]:
    """``total`` split over ``n`` parts as evenly as whole numbers go (the first parts one larger)."""
    base, extra = divmod(total, n)
    return [base + (1 if i < extra else 0) for i in range(n)]


def _hash(seed: str, n: int) -> str:
    """A stable pod-name suffix of ``n`` characters of [a-z0-9] (like Kubernetes' generated names)."""
    import hashlib
    alphabet = "bcdfghjklmnpqrstvwxz2456789"  # the alphabet Kubernetes' rand.String draws from
    h = hashlib.sha256(seed.encode()).digest()
    return "".join(alphabet[b % len(alphabet)] for b in h[:n])


def _bundle():
    from atlas.bundle import build
    from atlas.datastore import cached
    return build(cached())


def _res(cpu_req, cpu_lim, mem_req, mem_lim, i: int) -> dict:
    out = {}
    req = {k: v for k, v in (("cpu", None if cpu_req is None else CPU_SPELLINGS[i % 2](Fraction(str(cpu_req)))),
                             ("memory", None if mem_req is None else MEM_SPELLINGS[i % len(MEM_SPELLINGS)](Fraction(str(mem_req)))))
           if v is not None}
    lim = {k: v for k, v in (("cpu", None if cpu_lim is None else CPU_SPELLINGS[(i + 1) % 2](Fraction(str(cpu_lim)))),
                             ("memory", None if mem_lim is None else MEM_SPELLINGS[(i + 3) % len(MEM_SPELLINGS)](Fraction(str(mem_lim)))))
           if v is not None}
    if req:
        out["requests"] = req
    if lim:
        out["limits"] = lim
    return out


def _workload(kind, ns, name, replicas, containers, init) -> dict:
    spec = {"containers": containers}
    if init:
        spec["initContainers"] = init
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": {"name": name, "namespace": ns},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
                     "template": {"metadata": {"labels": {"app": name}}, "spec": spec}}}


def _pods(kind, name, n) -> list[str]:
    if kind == "StatefulSet":
        return [f"{name}-{i}" for i in range(n)]
    rs = _hash(name, 10)
    return [f"{name}-{rs}-{_hash(name + str(i), 5)}" for i in range(n)]


def _names(bundle, doc) -> dict:
    return {s["service"]: s for s in bundle["deployment_names"]["services"] if s["doc"] == doc}


def _workload_name(rec: dict, prefix: str) -> str:
    """A guide-printed deployment name of the service when one starts with ``prefix`` (e.g. ``ocpcf-occnp-ingress-gateway``),
    else ``prefix`` + the canonical name in lower case with hyphens (a release prefix the matcher drops)."""
    for n in rec["names"]:
        if n.startswith(prefix) and " " not in n and "hpa" not in n and not n.endswith(("v2", "v2beta1")):
            return n
    return prefix + rec["service"].lower().replace(" ", "-").replace("/", "-")


def policy_example(bundle) -> tuple[dict, str]:
    sid, hpa_sid = "policy-3-2-8", "policy-3-2-4"
    res = [r for r in bundle["resources"] if r["scenario"] == sid]
    use = {(u["service"], u["metric"]): u for u in bundle["utilization"] if u["scenario"] == sid and u["site"] == "site1"}
    hpa_t = {u["service"]: u["target_percent"] for u in bundle["utilization"]
             if u["scenario"] == hpa_sid and u["metric"] == "cpu" and u["site"] == "site1" and u["target_percent"]}
    hpa_r = {r["service"]: (r["replicas_min"], r["replicas_max"]) for r in bundle["resources"]
             if r["scenario"] == hpa_sid and r["replicas"] is None and r["replicas_max"] is not None and not r["is_sidecar"]}
    names = _names(bundle, "policy")
    pods_by: dict[str, list[dict]] = {}
    for r in res:
        pods_by.setdefault(r["service"], []).append(r)
    items, top = [], []
    for i, (svc, rows) in enumerate(pods_by.items()):
        main = next(r for r in rows if not r["is_sidecar"])
        if main["replicas"] is None:
            continue  # PerfInfo: no replica count printed
        cnd = main["component"] == "cndbtier"
        ns = "cndbtier" if cnd else "ocpcf"
        kind = "StatefulSet" if cnd else "Deployment"
        name = svc if cnd else _workload_name(names[svc], "ocpcf-")
        cname = "mysqlndbcluster" if cnd else svc
        containers, init = [], []
        for j, r in enumerate(rows):
            containers.append({"name": "istio-proxy" if r["is_sidecar"] else cname,
                               "resources": _res(r["cpu_request_cores"], r["cpu_limit_cores"], r["mem_request_gib"],
                                                 r["mem_limit_gib"], i + j)})
        if any(r["is_sidecar"] for r in rows):
            init.append({"name": "istio-init"})
        if svc == "alternate-route":
            containers.append({"name": "config-reloader"})
        items.append(_workload(kind, ns, name, main["replicas"], containers, init))
        if svc in hpa_t and svc in hpa_r:
            lo, hi = hpa_r[svc]
            items.append({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
                          "metadata": {"name": name, "namespace": ns},
                          "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": kind, "name": name},
                                   "minReplicas": lo, "maxReplicas": hi,
                                   "metrics": [{"type": "ContainerResource", "containerResource": {
                                       "name": "cpu", "container": cname,
                                       "target": {"type": "Utilization", "averageUtilization": int(hpa_t[svc])}}}]}})
        cu, mu = use.get((svc, "cpu")), use.get((svc, "memory"))
        if cu is None or cu["observed_abs"] is None:
            continue
        pods = _pods(kind, name, main["replicas"])
        cpu_m = _split(_int(Fraction(str(cu["observed_abs"])) * 1000), len(pods))
        mem_mi = _split(round(Fraction(str(mu["observed_abs"])) * 1024), len(pods)) if mu and mu["observed_abs"] is not None else None
        for k, p in enumerate(pods):
            if mem_mi:
                top.append((ns, p, cname, f"{cpu_m[k]}m", f"{mem_mi[k]}Mi"))
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items}, _top_text(top)


def bsf_example(bundle) -> tuple[dict, str]:
    sid = "bsf-3-3"
    res = [r for r in bundle["resources"] if r["scenario"] == sid]
    use = {(u["service"], u["container"], u["metric"]): u for u in bundle["utilization"]
           if u["scenario"] == sid and u["site"] == "site1"}
    names = _names(bundle, "bsf")
    pods_by: dict[str, list[dict]] = {}
    for r in res:
        pods_by.setdefault(r["service"], []).append(r)
    items, top = [], []
    for i, (svc, rows) in enumerate(pods_by.items()):
        main = next(r for r in rows if not r["is_sidecar"])
        cnd = main["component"] == "cndbtier"
        ns = "cndbtier-bsf" if cnd else "ocbsf"
        kind = "StatefulSet" if svc in ("ndbmtd", "ndbmgmd", "ndbmysqld", "ndbappmysqld") else "Deployment"
        name = svc if cnd else "ocbsf-" + _workload_name(names[svc], "ocbsf-").removeprefix("ocbsf-").lower().replace(" ", "-")
        containers = []
        for j, r in enumerate(rows):
            cname = "istio-proxy" if r["is_sidecar"] else (r["container"] if cnd else name.removeprefix("ocbsf-"))
            containers.append({"name": cname, "resources": _res(r["cpu_request_cores"], r["cpu_limit_cores"],
                                                                r["mem_request_gib"], r["mem_limit_gib"], i + j)})
        init = [{"name": "istio-init"}] if any(r["is_sidecar"] for r in rows) else []
        items.append(_workload(kind, ns, name, main["replicas"], containers, init))
        pods = _pods(kind, name, main["replicas"])
        for r, c in zip(rows, containers):
            cu, mu = use.get((svc, r["container"], "cpu")), use.get((svc, r["container"], "memory"))
            if cu is None or cu["observed_percent"] is None:
                continue
            n = r["replicas"]
            cores = Fraction(str(cu["observed_percent"])) / 100 * n * Fraction(str(r["cpu_request_cores"]))
            cpu_m = _split(round(cores * 1000), len(pods))
            mem_mi = None
            if mu is not None and mu["observed_percent"] is not None:
                gib = Fraction(str(mu["observed_percent"])) / 100 * n * Fraction(str(r["mem_request_gib"]))
                mem_mi = _split(round(gib * 1024), len(pods))
            for k, p in enumerate(pods):
                if mem_mi:
                    top.append((ns, p, c["name"], f"{cpu_m[k]}m", f"{mem_mi[k]}Mi"))
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items}, _top_text(top)


def _top_text(rows: list[tuple]) -> str:
    head = ("NAMESPACE", "POD", "NAME", "CPU(cores)", "MEMORY(bytes)")
    allr = [head] + rows
    w = [max(len(r[i]) for r in allr) for i in range(5)]
    return "".join("   ".join(r[i].ljust(w[i]) for i in range(5)).rstrip() + "\n" for r in allr)


def files(bundle=None) -> dict[str, str]:
    """The examples' files: name -> text."""
    import yaml
    bundle = bundle or _bundle()
    pol, pol_top = policy_example(bundle)
    bsf, bsf_top = bsf_example(bundle)
    def run(sid):
        s = next(x for x in bundle["scenarios"] if x["id"] == sid)
        return {"scenario": sid, "product": s["doc"], "call_model": s["call_model"], "load": f"{s['load_per_site']:g}"}
    manifest = [
        {"id": "policy-pcf-sm", "label": "Policy, PCF SM at 43K TPS (kubectl get -o json)", "objects": "policy-pcf-sm.json",
         "top": "policy-pcf-sm-top.txt", **run("policy-3-2-8")},
        {"id": "bsf-3-3", "label": "BSF at 63K TPS (kubectl get -o yaml)", "objects": "bsf-3-3.yaml", "top": "bsf-3-3-top.txt",
         **run("bsf-3-3")}]
    return {"policy-pcf-sm.json": json.dumps(pol, indent=4) + "\n", "policy-pcf-sm-top.txt": pol_top,
            "bsf-3-3.yaml": yaml.safe_dump(bsf, sort_keys=False, default_flow_style=False), "bsf-3-3-top.txt": bsf_top,
            "examples.json": json.dumps(manifest, indent=2) + "\n"}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = files()
    if "--check" in argv:
        bad = [n for n, t in out.items() if not (OUT / n).exists() or (OUT / n).read_text() != t]
        print("differ: " + ", ".join(bad) if bad else "examples up to date")
        return 1 if bad else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for n, t in out.items():
        (OUT / n).write_text(t)
        print(f"wrote {OUT / n} ({len(t):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
