"""Command line for the calculators (CPython).

    python -m calculators footprint --scenario bsf-3-3 --load 80000 [--target 70] [--format table|csv|helm|json]
    python -m calculators asm --on bsf-3-2 --off bsf-3-1 [--load 60000] [--format csv|json]
    python -m calculators overtarget [--product policy] [--mem-threshold 80] [--own my.csv] [--format table|csv|json]

The calculator bundle is read from ``--bundle FILE`` (the site's
assets/data/calculator-bundle.json), or, by default, built from data/ with
macros.bundle, which needs the project venv (pandas, PyYAML).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import asm, footprint, overtarget, render

ROOT = Path(__file__).resolve().parent.parent


def load_bundle(path: str | None) -> dict:
    if path:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        from macros.bundle import build
        from macros.datastore import load
    except ImportError as e:
        raise SystemExit(f"Building the bundle from data/ needs the project venv ({e}); or pass --bundle FILE.") from None
    return build(load())


def _table(rows: list[dict], cols: list[str]) -> str:
    cells = [[render.fmt(r.get(c)) for c in cols] for r in rows]
    widths = [max(len(c), *(len(x[i]) for x in cells)) if cells else len(c) for i, c in enumerate(cols)]
    out = ["  ".join(c.ljust(w) for c, w in zip(cols, widths)), "  ".join("-" * w for w in widths)]
    out += ["  ".join(x.ljust(w) for x, w in zip(row, widths)) for row in cells]
    return "\n".join(out)


def _footprint_table(res: dict) -> str:
    """The footprint as plain text: inputs, load states, partial mark and missing rows, warnings, rows,
    stubs apart, totals per group, node count."""
    i, fmt = res["inputs"], render.fmt
    least = "at least " if res["partial"] else ""
    out = [f"Scenario {i['scenario']}: {fmt(i['target_load'])} {i['unit']} total on {i['sites']} site(s) carrying traffic, "
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
    cols = ["service", "container", "rule", "binding", "replicas_before", "replicas_after", "cpu_request", "cpu_request_after",
            "mem_request_after", "table_id", "source_row"]
    out += ["", _table(res["rows"], cols)]
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


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m calculators", description=__doc__.split("\n\n")[0],
                                epilog="Without --bundle the bundle is built from data/ via macros.bundle (project venv needed).")
    p.add_argument("--bundle", help="calculator-bundle.json from a built site (default: build from data/)")
    sub = p.add_subparsers(dest="calc", required=True)
    f = sub.add_parser("footprint", help="scale a scenario's footprint to a target load")
    f.add_argument("--scenario", required=True, help="scenario id, e.g. bsf-3-3")
    f.add_argument("--load", required=True, help="total target load, in the scenario's unit (TPS/MPS/SPS/RPS)")
    f.add_argument("--target", help="CPU target of traffic services, %% of request (default: printed HPA target, else the ceiling)")
    f.add_argument("--db-target", help="CPU target of ndbappmysqld and other database services, %% (default: printed HPA target)")
    f.add_argument("--sidecar-target", help="ceiling for a sidecar's CPU, %% of its limit (default: printed HPA target, else 100)")
    f.add_argument("--sites", help="sites carrying traffic (default: the baseline's)")
    f.add_argument("--sites-provisioned", help="sites deployed (default: the larger of --sites and the baseline's)")
    f.add_argument("--failover", action="store_true", help="shorthand for --redundancy n+1")
    f.add_argument("--redundancy", choices=footprint.REDUNDANCY, help="georedundancy: none, n+1 or mated-pair")
    f.add_argument("--normal-ceiling", help=f"normal-state CPU ceiling, %% (default {footprint.DEFAULT_NORMAL_CEILING})")
    f.add_argument("--failover-ceiling", help=f"failover-state CPU ceiling, %% (default {footprint.DEFAULT_FAILOVER_CEILING})")
    f.add_argument("--data-size", help="cnDBTier data per copy, GiB (sizes ndbmtd; default: keep the baseline's)")
    f.add_argument("--asm", default="keep", choices=footprint.ASM_CHOICES, help="keep, remove or add Istio sidecars")
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
    a.add_argument("--on")
    a.add_argument("--off")
    a.add_argument("--load")
    a.add_argument("--format", default="csv", choices=("csv", "json"))
    o = sub.add_parser("overtarget", help="services at, over or near their CPU target; memory over a threshold")
    o.add_argument("--product")
    o.add_argument("--mem-threshold", default=overtarget.DEFAULT_MEM_THRESHOLD)
    o.add_argument("--own", help="CSV of your own services (name,replicas,cpu_request,observed,target)")
    o.add_argument("--format", default="table", choices=("table", "csv", "json"))
    args = p.parse_args(argv)
    bundle = load_bundle(args.bundle)
    try:
        if args.calc == "footprint":
            res = footprint.compute(
                bundle, args.scenario, args.load, target_cpu_percent=args.target, db_target_percent=args.db_target,
                sidecar_target_percent=args.sidecar_target, sites=args.sites, sites_provisioned=args.sites_provisioned,
                failover=args.failover, redundancy=args.redundancy, normal_ceiling=args.normal_ceiling,
                failover_ceiling=args.failover_ceiling, data_size_gib=args.data_size, asm=args.asm,
                node_cores=args.node_cores, node_mem_gib=args.node_mem, node_reserve=args.node_reserve,
                reserve_cpu=args.reserve_cpu, reserve_mem=args.reserve_mem, daemonset_cpu=args.ds_cpu,
                daemonset_mem=args.ds_mem, max_pods=args.max_pods, spare_nodes=args.spare_nodes,
                min_replicas=args.min_replicas, asm_from=args.asm_from, sidecar_cpu=args.sidecar_cpu,
                sidecar_mem=args.sidecar_mem)
            if args.format == "json":
                print(json.dumps(res, indent=1))
            elif args.format == "csv":
                sys.stdout.write(render.result_csv(res))
            elif args.format == "helm":
                sys.stdout.write(render.result_helm(res))
            else:
                print(_footprint_table(res))
        elif args.calc == "asm":
            d = asm.defaults(bundle)
            on, off = args.on or d["on"], args.off or d["off"]
            out = {"overview": asm.overview(bundle), "compare": asm.compare(bundle, on, off), "whatif": asm.whatif(bundle, on, off, args.load)}
            print(json.dumps(out, indent=1) if args.format == "json" else asm.to_csv(out["overview"]), end="" if args.format == "csv" else "\n")
        else:
            res = overtarget.compute(bundle, args.product, args.mem_threshold)
            own = problems = None
            if args.own:
                own, problems = overtarget.parse_own(Path(args.own).read_text(encoding="utf-8", errors="replace"))
                for x in problems:
                    print(f"{args.own}:{x['line']}: {x['message']}", file=sys.stderr)
            if args.format == "json":
                print(json.dumps({**res, "own": own, "own_problems": problems}, indent=1))
            elif args.format == "csv":
                sys.stdout.write(overtarget.to_csv(res, own))
            else:
                print(_table(res["cpu"] + (own or []), ["status", "scenario", "service", "name", "site", "observed", "target",
                                                        "replicas", "desired", "table_id", "row"]))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
