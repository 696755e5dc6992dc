"""Command line for the calculators (CPython).

    python -m calculators footprint --call-model policy:pcf-sm --load 50000 --sites 2 --redundancy n+1 [--format table|csv|helm|json]
    python -m calculators footprint --scenario bsf-3-3 --load 80000 [--target 70]   (one run instead of the comparable runs)
    python -m calculators asm --on bsf-3-2 --off bsf-3-1 [--load 60000] [--format table|csv|json]
    python -m calculators overtarget [--product policy] [--mem-threshold 80] [--kubernetes 1.33|1.32] [--own my.csv]
                                     [--format table|csv|json]
    python -m calculators dsr --scenario dsr-relay-12vcpu --target 240000 [--ceiling 40] [--redundancy mated-pair]
    python -m calculators shcm --scenario shcm-test-5 --target 21600 [--unit RPS] [--ceiling 80]
    python -m calculators deployment --product policy --call-model pcf-sm --load 43000 --get objects.json|.yaml
                                     [--top top.txt] [--mapping mapping.json] [--target-load 86000 --sites 2]
                                     [--format table|csv|json] [--points mine.json]
    python -m calculators <calculator> --list      (the scenario ids, or products, with their titles)

Numbers are read by calculators.inputs, as on the pages: '63,500' is sixty-three thousand five hundred,
'63,5' is refused as an ambiguous decimal comma. Bad input exits with status 2 and a message.

The calculator bundle is read from ``--bundle FILE`` (the site's
assets/data/calculator-bundle.json), or, by default, built from data/ with
atlas.bundle, which needs the project venv (pandas, PyYAML).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from fractions import Fraction

from . import asm, asm_report, deployment_report, dsr, footprint, footprint_report, overtarget, overtarget_report, shcm

ROOT = Path(__file__).resolve().parent.parent


def load_bundle(path: str | None) -> dict:
    if path:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        from atlas.bundle import build
        from atlas.datastore import load
    except ImportError as e:
        raise SystemExit(f"Building the bundle from data/ needs the project venv ({e}); or pass --bundle FILE.") from None
    return build(load())


def _table(rows: list[dict], cols: list[str]) -> str:
    cells = [[footprint_report.fmt(r.get(c)) for c in cols] for r in rows]
    widths = [max(len(c), *(len(x[i]) for x in cells)) if cells else len(c) for i, c in enumerate(cols)]
    out = ["  ".join(c.ljust(w) for c, w in zip(cols, widths)), "  ".join("-" * w for w in widths)]
    out += ["  ".join(x.ljust(w) for x, w in zip(row, widths)) for row in cells]
    return "\n".join(out)


def _footprint_table(res: dict) -> str:
    """The footprint as plain text: inputs, load states, partial mark and missing rows, warnings, rows,
    stubs apart, totals per group, node count."""
    i, fmt = res["inputs"], footprint_report.fmt
    least = "at least " if res["partial"] else ""
    out = footprint_report.summary_lines(res)
    ev = res.get("evidence")
    if ev:
        out += ["", "Comparable runs, ranked (the same request sized from each alone):"]
        spread = {x["id"]: x for x in ev["spread"]}
        rows = []
        for c in ev["candidates"]:
            sp = spread.get(c["id"]) or {}
            rows.append({"run": c["id"], "load_per_site": c["load_per_site"], "ratio": round(c["ratio"], 2),
                         "comparable": "yes" if c["comparable"] else "no", "why": "; ".join(c["matches"] + c["differs"]),
                         "alone_cores": sp.get("cpu_request_site"), "alone_nodes": sp.get("nodes_per_site")})
        out.append(_table(rows, ["run", "load_per_site", "ratio", "comparable", "alone_cores", "alone_nodes", "why"]))
        out.append("")
    out += [f"Scenario {i['scenario']}: {fmt(i['target_load'])} {i['unit']} total on {i['sites']} site(s) carrying traffic, "
           f"{i['sites_provisioned']} provisioned; redundancy {i['redundancy']}; CPU target "
           f"{fmt(i['target_cpu_percent']) + ' %' if i['target_cpu_percent'] else 'printed/ceiling'}; ASM {i['asm']}."]
    for st in res["states"]:
        out.append(f"  {st['state']}: {fmt(st['load'])} {i['unit']} per site (x{st['factor']:.4g})"
                   + (f", ceiling {fmt(st['ceiling'])} %" if st.get("ceiling") else ""))
    if res["partial"]:
        out.append("PARTIAL: totals are at least these; not sized:")
        for m in res["completeness"]["missing"]:
            out.append(f"  {m['service']} / {m['container']}: {m['reason']}"
                       + (f" (Table {m['table_id']} row {m['row']})" if m["table_id"] else "")
                       + (f" {', '.join(m['errata'])}" if m["errata"] else ""))
    for w in res["warnings"]:
        out.append(f"warning: {w}")
    cols = ["service", "container", "rule", "binding", "replicas_before", "replicas_after", "likely", "cpu_request", "cpu_request_after",
            "mem_request_after", "table_id", "source_row"]
    out += ["", _table([dict(r, likely=footprint_report.range_text(r.get("range"))) for r in res["rows"]], cols)]
    if res["test_rows"]:
        out += ["", "Test stubs and simulators (not in the totals or node counts):", _table(res["test_rows"], cols)]
    out.append("")
    for g, v in res["totals"]["groups"].items():
        if any(v["after"].values()) or any(v["before"].values()):
            out.append(f"{g}: {fmt(v['before']['cpu_request'])} -> {fmt(v['after']['cpu_request'])} cores, "
                       f"{fmt(v['before']['mem_request'])} -> {fmt(v['after']['mem_request'])} GiB requested per site")
    s, t = res["totals"]["site"]["after"], res["totals"]
    out.append(f"Per site: {least}{fmt(s['cpu_request'])} cores, {least}{fmt(s['mem_request'])} GiB requested; "
               f"{t['sites']} site(s): {least}{fmt(t['deployment']['cpu_request'])} cores, {least}{fmt(t['deployment']['mem_request'])} GiB.")
    p = res.get("packing")
    if p:
        out.append(f"Nodes per site: {least}{p['nodes']} ({p['spare']} spare) of {fmt(i['node_cores'])} cores / {fmt(i['node_mem_gib'])} GiB; "
                   f"binding: {p['binding'] or 'one node'}; {least}{p['nodes'] * t['sites']} nodes in all.")
    return "\n".join(out)


def choices(bundle: dict, calc: str) -> list[tuple[str, str]]:
    """(id, title) of what ``calc`` accepts as its scenario (or, for overtarget, product)."""
    if calc == "footprint":
        from . import evidence
        return ([(f"{m['doc']}:{m['id']}", f"call model {m['name']}: {', '.join(m['runs'])}") for m in evidence.call_models(bundle)]
                + [(s["id"], s.get("short_title") or s["title"]) for s in footprint.scenarios_with_resources(bundle)])
    if calc == "asm":
        on, off = set(asm.asm_on_ids(bundle)), set(asm.asm_off_ids(bundle))
        return [(s["id"], ("ASM on: " if s["id"] in on else "ASM off: ") + (s.get("short_title") or s["title"]))
                for s in footprint.scenarios_with_resources(bundle) if s["id"] in on | off]
    if calc == "overtarget":
        names = {s["id"]: s.get("short_name") or s["id"] for s in bundle["sources"]}
        return [(d, names.get(d, d)) for d in overtarget.products(bundle)]
    if calc == dsr.NAME:
        bad = {x["id"] for x in dsr.not_sizable(bundle)}
        return [(r["id"], f"{r.get('section') or ''} {r['short_title']}".strip() + (" (cannot be sized)" if r["id"] in bad else ""))
                for r in dsr.runs(bundle)]
    if calc == shcm.NAME:
        return [(t["id"], f"{t.get('section') or ''} {t['short_title']}".strip()) for t in shcm.tests(bundle)]
    if calc == "deployment":
        from . import deployment
        return [(f"--product {p['doc']} --call-model {m['id']}", f"{p['name']}: {m['name']} ({', '.join(m['runs'])})")
                for p in deployment.products(bundle) for m in p["call_models"]]
    return []


def _listing(bundle: dict, calc: str) -> str:
    rows = choices(bundle, calc)
    w = max((len(i) for i, _ in rows), default=0)
    return "\n".join(f"  {i.ljust(w)}  {t}" for i, t in rows)


def _plain(x):
    """JSON-ready: exact Fractions as floats, tuples as lists."""
    if isinstance(x, Fraction):
        return float(x)
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _steps_table(res: dict, rows: list[tuple]) -> str:
    """A DSR/ShCM result as text: warnings, the steps (section, item, value, unit, source) and the notes."""
    out = [f"warning: {w}" for w in res["warnings"]]
    out.append(_table([{"section": k, "item": label, "value": v, "unit": u, "source": src} for k, _, label, v, u, src in rows],
                      ["section", "item", "value", "unit", "source"]))
    out += [f"note: {n}" for n in res.get("notes") or []]
    return "\n".join(out)


def _asm_table(ov: list[dict], cmp: dict, wi: dict, no_sidecars: list[str]) -> str:
    out = ["Sidecar share of requested CPU and memory at one site carrying traffic, every ASM-enabled scenario:"]
    rows = []
    for o in ov:
        share = (lambda m: f"{footprint_report.fmt(o[m + '_share'])} %" if not o["partial"] else
                 f"partial: {footprint_report.fmt(o[m + '_share_complete'])} % over {o['complete_services']} of {o['services_total']} services")
        oc = o["observed"].get("cpu") or {}
        rows.append({"scenario": o["scenario"], "sidecar_cpu": o["cpu_sidecar"], "all_cpu": o["cpu_total"], "cpu_share": share("cpu"),
                     "mem_share": share("mem"), "sidecar_cpu_per_1k_requested": o["cpu_sidecar_per_1k"],
                     "sidecar_cpu_per_1k_observed": oc.get("sidecar_per_1k") if oc.get("unit") == "cores" else None,
                     "observed_cpu_share": f"{footprint_report.fmt(oc['share'])} %" if oc else "not measured"})
    out.append(_table(rows, ["scenario", "sidecar_cpu", "all_cpu", "cpu_share", "mem_share", "sidecar_cpu_per_1k_requested",
                             "sidecar_cpu_per_1k_observed", "observed_cpu_share"]))
    out += [f"ranges: {o['scenario']}: {o['ranges_text']}" for o in ov if o["ranges"]]
    out += [f"partial: {o['scenario']}: {o['partial']['text']}" for o in ov if o["partial"]]
    out += [f"no sidecar rows: {sid} is ASM-enabled but prints no sidecar rows; its sidecar cost is unknown (not 0)." for sid in no_sidecars]
    out.append("reference (not from the guides): " + "; ".join(f"Istio {v}: {c} vCPU and {m} per 1,000 requests/s through one proxy ({u})"
                                                             for v, c, m, u in asm.ISTIO_REFERENCE))
    a, b = cmp["on"], cmp["off"]
    out.append(f"\n{a['scenario']} (ASM on) against {b['scenario']} (ASM off), per 1K {a['unit'] or ''}:")
    out.append(_table([{"per_1k": k, "on": a[k], "off": b[k], "on_minus_off": cmp["diff"][k] if cmp["comparable"] else "not comparable"}
                       for k in ("cpu_total_per_1k", "cpu_sidecar_per_1k", "mem_total_per_1k", "mem_sidecar_per_1k")],
                      ["per_1k", "on", "off", "on_minus_off"]))
    out += [f"not comparable: {x}" for x in cmp["not_comparable"]]
    out.append("\nWhat-if (per site, requests):")
    out.append(_table([{"change": k, "scenario": w["scenario"], "load": w["load"], "cpu_before": w["cpu_before"], "cpu_after": w["cpu_after"],
                        "cpu_delta": w["cpu_delta"], "mem_delta": w["mem_delta"]} for k, w in wi.items()],
                      ["change", "scenario", "load", "cpu_before", "cpu_after", "cpu_delta", "mem_delta"]))
    return "\n".join(out)


def _read_text(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{what}: cannot read {path}: {e}") from None


def _deployment_params(args) -> dict:
    """The "Your deployment" page's form parameters from the command line: the workloads file as JSON text, a YAML
    file read with PyYAML first (imported here only), as the page reads YAML with js-yaml before Python sees it."""
    objects = ""
    if args.get:
        text = _read_text(args.get, "Workloads")
        if text.lstrip()[:1] in ("{", "["):
            objects = text
        else:
            try:
                import yaml
            except ImportError:
                raise ValueError("Workloads: reading -o yaml needs PyYAML (pip install pyyaml, or the project venv); "
                                 "or pass `kubectl get ... -o json`.") from None
            try:
                docs = [d for d in yaml.safe_load_all(text) if d is not None]
            except yaml.YAMLError as e:
                raise ValueError(f"Workloads: the YAML could not be read: {e}") from None
            objects = json.dumps(docs[0] if len(docs) == 1 else docs)
    return {"product": args.product or "", "call_model": args.call_model or "", "load": args.load, "objects": objects,
            "top": _read_text(args.top, "kubectl top") if args.top else "",
            "mapping": _read_text(args.mapping, "Mapping") if args.mapping else "", "kubernetes": args.kubernetes,
            "target_load": args.target_load or "", "target_sites": args.sites or "", "redundancy": args.redundancy or "",
            "node_cores": args.node_cores or "", "node_mem": args.node_mem or ""}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m calculators", description=__doc__.split("\n\n")[0],
                                epilog="Without --bundle the bundle is built from data/ via atlas.bundle (project venv needed).")
    p.add_argument("--bundle", help="calculator-bundle.json from a built site (default: build from data/)")
    sub = p.add_subparsers(dest="calc", required=True)
    f = sub.add_parser("footprint", help="size a footprint for a target load from the comparable runs, or from one run")
    f.add_argument("--call-model", help="<product>:<call model> as --list prints it: size from its comparable runs")
    f.add_argument("--mode", help="deployment mode as the guide prints it (ranks the comparable runs; default: any)")
    f.add_argument("--scenario", help="one run instead, a scenario id as --list prints it")
    f.add_argument("--load", required=True, help="total target load, in the product's unit (TPS/MPS/SPS/RPS)")
    f.add_argument("--target", help="CPU target of traffic services, %% of request (default: printed HPA target, else the ceiling)")
    f.add_argument("--db-target", help="CPU target of ndbappmysqld and other database services, %% (default: printed HPA target)")
    f.add_argument("--sidecar-target", help="ceiling for a sidecar's CPU, %% of its limit (default: printed HPA target, else 100)")
    f.add_argument("--sites", help="sites carrying traffic (default: 1 with --call-model, the run's with --scenario)")
    f.add_argument("--sites-provisioned", help="sites deployed (default: --sites; with --scenario the larger of --sites and the run's)")
    f.add_argument("--failover", action="store_true", help="shorthand for --redundancy n+1")
    f.add_argument("--redundancy", choices=footprint.REDUNDANCY, help="georedundancy: none, n+1 or mated-pair")
    f.add_argument("--normal-ceiling", help=f"normal-state CPU ceiling, %% (default {footprint.DEFAULT_NORMAL_CEILING})")
    f.add_argument("--failover-ceiling", help=f"failover-state CPU ceiling, %% (default {footprint.DEFAULT_FAILOVER_CEILING})")
    f.add_argument("--data-size", help="cnDBTier data per copy, GiB (sizes ndbmtd; default: keep the baseline's)")
    f.add_argument("--sessions", help="sessions, bindings or subscribers your deployment holds (sizes the memory of the services "
                                      "that hold them; default: by the load, never below the benchmark's when it falls)")
    f.add_argument("--asm", default="keep", choices=footprint.ASM_CHOICES,
                   help="keep (either), remove (ASM off) or add (ASM on) Istio sidecars; ranks the comparable runs too")
    f.add_argument("--asm-from", help="with --asm add: the ASM scenario sizing the sidecars")
    f.add_argument("--sidecar-cpu", help="with --asm add: cores per sidecar")
    f.add_argument("--sidecar-mem", help="with --asm add: GiB per sidecar")
    f.add_argument("--min-replicas", default=1, help="fewest replicas of a scaled service (default 1)")
    f.add_argument("--node-cores", help="worker node CPU, cores (with --node-mem: pack pods onto nodes)")
    f.add_argument("--node-mem", help="worker node memory, GiB")
    f.add_argument("--node-reserve", default="gke", choices=("gke", "custom"), help="node reservations: GKE tiers or yours")
    f.add_argument("--reserve-cpu", help="with --node-reserve custom: cores reserved per node")
    f.add_argument("--reserve-mem", help="with --node-reserve custom: GiB reserved per node (eviction threshold included)")
    f.add_argument("--ds-cpu", help="DaemonSet CPU per node, cores (default 0)")
    f.add_argument("--ds-mem", help="DaemonSet memory per node, GiB (default 0)")
    f.add_argument("--max-pods", help="max pods per node (default 110)")
    f.add_argument("--spare-nodes", help="spare nodes per site (N+1 = 1; default 0)")
    f.add_argument("--format", default="table", choices=("table", "csv", "helm", "json"), help="output format (default table)")
    a = sub.add_parser("asm", help="ASM sidecar overhead, on/off comparison and what-if")
    a.add_argument("--on", help="ASM-enabled scenario id (default: the guides' example run; see --list)")
    a.add_argument("--off", help="ASM-off scenario id of the same product (default: one with the same call model, else the first)")
    a.add_argument("--load", help="what-if load, total, in the scenarios' unit (default: each scenario's own)")
    a.add_argument("--format", default="csv", choices=("table", "csv", "json"), help="output: csv (default), table or json")
    o = sub.add_parser("overtarget", help="services at, over or near their CPU target; memory over a threshold")
    o.add_argument("--product", help="one product id (see --list; default: all)")
    o.add_argument("--mem-threshold", default=overtarget.DEFAULT_MEM_THRESHOLD,
                   help="flag memory at or above this percent, 1 to 100 (default 80)")
    o.add_argument("--kubernetes", default=overtarget.DEFAULT_CONTROLLER, choices=tuple(overtarget.CONTROLLERS),
                   help="the HPA controller's Kubernetes version: 1.33 (v1.33 or later, default) or 1.32 (v1.32 or earlier); "
                        "their tolerance tests differ at a ratio of exactly 1.1")
    o.add_argument("--own", help="CSV of your own services (name,replicas,cpu_request,observed,target"
                                 "[,observed_unit,min_replicas,max_replicas])")
    o.add_argument("--format", default="table", choices=("table", "csv", "json"), help="output: table (default), csv or json")
    d = sub.add_parser(dsr.NAME, help="DSR DA-MPs (or vSTP SS7-MPs) for a target MPS: measured and engineered methods")
    d.add_argument("--scenario", help="benchmark run id (default: the guide's example run, the 12-vCPU relay run of Table 3-1; see --list)")
    d.add_argument("--target", help="total message rate, MPS (default: the run's own)")
    d.add_argument("--ceiling", help="CPU ceiling per MP, 1 to 100 percent (default: the measured peak, no scaling)")
    d.add_argument("--spare", default="0", help=f"spare MPs per DSR site, 0 to {dsr.MAX_SPARE}; DA-MP spares count within "
                   f"the {dsr.MAX_DA_MPS_PER_SITE} DA-MPs a site holds (default 0)")
    d.add_argument("--redundancy", default="none", choices=tuple(dsr.REDUNDANCY),
                   help=f"none (default) or mated-pair: each DSR site of a pair carries its pair's whole share when its mate "
                        f"is down; the target is split over as many sites or pairs as {dsr.MAX_DA_MPS_PER_SITE} DA-MPs per "
                        "site need")
    d.add_argument("--format", default="table", choices=("table", "csv", "json"), help="output: table (default), csv or json")
    h = sub.add_parser(shcm.NAME, help="ShCM Rhino nodes for a target RPS or SPS")
    h.add_argument("--scenario", help="baseline test id (default: the guide's example, test 1; see --list)")
    h.add_argument("--target", help="target load in --unit (default: the test's own RPS)")
    h.add_argument("--unit", default="RPS", choices=("RPS", "SPS"), help="unit of --target (default RPS)")
    h.add_argument("--ceiling", help="CPU ceiling per Rhino node, 1 to 100 percent of its vCPUs (default: as measured)")
    h.add_argument("--spare", default=str(shcm.DEFAULT_SPARE),
                   help=f"spare Rhino nodes, 0 to {shcm.MAX_SPARE} (default {shcm.DEFAULT_SPARE}: N+1, the others carry a "
                        "failed node's load)")
    h.add_argument("--format", default="table", choices=("table", "csv", "json"), help="output: table (default), csv or json")
    y = sub.add_parser("deployment", help="your own deployment (kubectl get/top output) beside the vendor's comparable runs")
    y.add_argument("--product", help="product id (see --list)")
    y.add_argument("--call-model", help="the product's call model id (default: its first; see --list)")
    y.add_argument("--load", required=True, help="the load your site carried when observed, in the product's unit")
    y.add_argument("--get", help="file of `kubectl get deployments,statefulsets,hpa -o json` (or -o yaml: read with PyYAML)")
    y.add_argument("--top", help="file of `kubectl top pods --containers` text")
    y.add_argument("--mapping", help='JSON file {"namespace/name": "service"} mapping workloads by hand ("" leaves one out)')
    y.add_argument("--kubernetes", default=overtarget.DEFAULT_CONTROLLER, choices=tuple(overtarget.CONTROLLERS),
                   help="the HPA controller's Kubernetes version (default 1.33)")
    y.add_argument("--target-load", help="scale your own deployment to this total load (footprint rules)")
    y.add_argument("--sites", help="with --target-load: sites carrying traffic (default 1)")
    y.add_argument("--redundancy", choices=footprint.REDUNDANCY, help="with --target-load: none, n+1 or mated-pair")
    y.add_argument("--node-cores", help="with --target-load: worker node CPU, cores (with --node-mem: pack onto nodes)")
    y.add_argument("--node-mem", help="with --target-load: worker node memory, GiB")
    y.add_argument("--format", default="table", choices=("table", "csv", "json"), help="output: table (default), csv or json")
    y.add_argument("--points", help="also write to this file what the page's Export inputs writes: your inputs and this "
                                    "result's points, for Add my deployment... beside the home and service pages' charts "
                                    "(of the build whose bundle computed them)")
    for name, sp in sub.choices.items():
        sp.add_argument("--list", action="store_true", help="list the scenario ids (products for overtarget) with their titles, then exit")
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--list" in argv:  # before the required options are checked
        calc = next((x for x in argv if x in sub.choices), None)
        if calc is None:
            p.error("--list needs a calculator: " + ", ".join(list(sub.choices)[:-1]) + " or " + list(sub.choices)[-1])
        head = argv[:argv.index(calc)]
        path = next((x.split("=", 1)[1] for x in head if x.startswith("--bundle=")), None)
        if "--bundle" in head and head.index("--bundle") + 1 < len(head):
            path = head[head.index("--bundle") + 1]
        print(_listing(load_bundle(path), calc))
        return 0
    args = p.parse_args(argv)
    bundle = load_bundle(args.bundle)
    try:
        if args.calc == "footprint":
            if not args.scenario and not args.call_model:
                raise footprint.FootprintError("Give --call-model (size from its comparable runs; see --list) or --scenario (one run).")
            a = vars(args)  # the page's parameter names: the page and the command line compute through compute_web
            params = {k: ("" if a.get(k) is None else str(a[k])) for k in (
                "scenario", "call_model", "mode", "load", "target", "db_target", "sidecar_target", "sites", "sites_provisioned",
                "redundancy", "normal_ceiling", "failover_ceiling", "data_size", "asm", "asm_from", "sidecar_cpu", "sidecar_mem",
                "min_replicas", "node_cores", "node_mem", "node_reserve", "reserve_cpu", "reserve_mem", "ds_cpu", "ds_mem", "max_pods",
                "spare_nodes", "sessions")}
            params["failover"] = "1" if args.failover else ""
            res = footprint_report.compute_web(bundle, params)
            if args.format == "json":
                print(json.dumps(res, indent=1))
            elif args.format == "csv":
                sys.stdout.write(footprint_report.result_csv(res))
            elif args.format == "helm":
                sys.stdout.write(footprint_report.result_helm(res))
            else:
                print(_footprint_table(res))
        elif args.calc == "asm":
            d = asm.defaults(bundle)
            on, off = args.on or d["on"], args.off or d["off"]
            out = {"overview": asm.overview(bundle), "compare": asm.compare(bundle, on, off), "whatif": asm.whatif(bundle, on, off, args.load),
                   "asm_without_sidecars": asm.asm_without_sidecars(bundle)}
            if args.format == "json":
                print(json.dumps(_plain(out), indent=1))
            elif args.format == "table":
                print(_asm_table(out["overview"], out["compare"], out["whatif"], out["asm_without_sidecars"]))
            else:
                sys.stdout.write(asm_report.to_csv(out["overview"], out["asm_without_sidecars"]))
        elif args.calc in (dsr.NAME, shcm.NAME):
            mod = dsr if args.calc == dsr.NAME else shcm
            d = mod.defaults(bundle)
            sid = args.scenario or d["scenario"]
            target = args.target if args.target is not None else (d["target"] if sid == d["scenario"] else None)
            if target is None:
                raise ValueError(f"--target is needed for {sid} (the default target is that of {d['scenario']}).")
            if args.calc == dsr.NAME:
                res = dsr.compute(bundle, sid, target, cpu_ceiling_percent=args.ceiling, spare=args.spare, redundancy=args.redundancy)
            else:
                res = shcm.compute(bundle, sid, target, unit=args.unit, cpu_ceiling_percent=args.ceiling, spare=args.spare)
            if args.format == "json":
                print(json.dumps(_plain(res), indent=1))
            elif args.format == "csv":
                sys.stdout.write(mod.result_csv(res))
            else:
                print(_steps_table(res, mod._rows(res)))
        elif args.calc == "deployment":
            params = _deployment_params(args)
            if args.format == "csv":
                sys.stdout.write(deployment_report.result_csv(deployment_report.compute_web(bundle, params)))
            else:
                out = deployment_report.summary(bundle, params)
                print(json.dumps(out, indent=1) if args.format == "json" else deployment_report.summary_text(out))
            if args.points:
                Path(args.points).write_text(json.dumps(deployment_report.export_file(bundle, params, _read_text(args.get, "Workloads")
                                                                                      if args.get else ""), indent=2),
                                             encoding="utf-8")
        else:
            res = overtarget.compute(bundle, args.product, args.mem_threshold, args.kubernetes)
            own = problems = None
            if args.own:
                own, problems = overtarget.parse_own(Path(args.own).read_text(encoding="utf-8", errors="replace"), args.kubernetes)
                for x in problems:
                    print(f"{args.own}:{x['line']}: {x['message']}", file=sys.stderr)
            if args.format == "json":
                print(json.dumps({**res, "own": own, "own_problems": problems}, indent=1))
            elif args.format == "csv":
                sys.stdout.write(overtarget_report.to_csv(res, own))
            else:
                c = res["counts"]
                print(f"inputs: product {res['inputs']['product'] or 'all'}, memory threshold {footprint_report.fmt(res['inputs']['mem_threshold'])} %, "
                      f"HPA controller of {overtarget.CONTROLLERS[res['inputs']['kubernetes']]}")
                print(f"{c['over']} over, {c['near']} near (observed >= 0.9 x target), "
                      f"{c['memory']} memory rows at or above the threshold.")
                print(f"severity: {c['critical']} critical (the HPA would scale up, or its max stops it), "
                      f"{c['warning']} warning (inside its tolerance band), {c['ok']} ok.")
                print("rule:", overtarget.HPA_RULE)
                for x in res["max_blocked"]:
                    print("HPA max too low:", x["text"])
                for e in own or []:
                    if e["max_must_rise_to"] is not None:
                        print("HPA max too low:", overtarget.max_blocked_text(e, f"{args.own}, line {e['line']}"))
                for e in res["cpu"] + (own or []):
                    if e["controller_note"]:
                        where = (f"{e['where']}, Table {e['table_id']} row {e['row']}: {e['service']}"
                                 + (f" at {e['site']}" if e["site"] else "") if "scenario" in e
                                 else f"{args.own}, line {e['line']}, {e['name']}")
                        print(f"other Kubernetes version: {where}: {e['controller_note']}")
                for sid, t in res["partial"].items():
                    print(f"partial: {sid}: {t}")
                rows = [{**e, "desired": overtarget_report.desired_text(e), "partial": "partial" if e["partial"] else ""} for e in res["cpu"]]
                rows += [{**e, "desired": overtarget_report.desired_text(e)} for e in own or []]
                print(_table(rows, ["severity", "status", "scenario", "service", "name", "site", "observed", "target",
                                    "replicas", "desired", "table_id", "row", "partial"]))
                if res["memory"]:
                    print()
                    print(_table(res["memory"], ["status", "scenario", "service", "container", "site", "observed", "table_id", "row"]))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        if "Unknown scenario" in str(e) or "Unknown product" in str(e):
            print(f"choose one of:\n{_listing(bundle, args.calc)}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
