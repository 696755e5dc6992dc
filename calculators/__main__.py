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


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m calculators", description=__doc__.split("\n\n")[0],
                                epilog="Without --bundle the bundle is built from data/ via macros.bundle (project venv needed).")
    p.add_argument("--bundle", help="calculator-bundle.json from a built site (default: build from data/)")
    sub = p.add_subparsers(dest="calc", required=True)
    f = sub.add_parser("footprint", help="scale a scenario's footprint to a target load")
    f.add_argument("--scenario", required=True)
    f.add_argument("--load", required=True, help="total target load, in the scenario's unit (TPS/MPS/SPS/RPS)")
    f.add_argument("--target", help="target CPU utilization, percent of request (default: printed HPA target)")
    f.add_argument("--sites")
    f.add_argument("--failover", action="store_true")
    f.add_argument("--asm", default="keep", choices=footprint.ASM_CHOICES)
    f.add_argument("--asm-from", help="with --asm add: the ASM scenario sizing the sidecars")
    f.add_argument("--sidecar-cpu", help="with --asm add: cores per sidecar")
    f.add_argument("--sidecar-mem", help="with --asm add: GiB per sidecar")
    f.add_argument("--min-replicas", default=1)
    f.add_argument("--node-cores")
    f.add_argument("--node-mem")
    f.add_argument("--format", default="table", choices=("table", "csv", "helm", "json"))
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
            res = footprint.compute(bundle, args.scenario, args.load, target_cpu_percent=args.target, sites=args.sites,
                                    failover=args.failover, asm=args.asm, node_cores=args.node_cores, node_mem_gib=args.node_mem,
                                    min_replicas=args.min_replicas, asm_from=args.asm_from, sidecar_cpu=args.sidecar_cpu,
                                    sidecar_mem=args.sidecar_mem)
            if args.format == "json":
                print(json.dumps(res, indent=1))
            elif args.format == "csv":
                sys.stdout.write(render.result_csv(res))
            elif args.format == "helm":
                sys.stdout.write(render.result_helm(res))
            else:
                for w in res["warnings"]:
                    print("warning:", w)
                print(_table(res["rows"], ["service", "container", "rule", "replicas_before", "replicas_after", "cpu_request",
                                           "cpu_request_after", "mem_request_after", "table_id", "source_row"]))
                s = res["totals"]["site"]["after"]
                print(f"\nPer site: {render.fmt(s['cpu_request'])} cores, {render.fmt(s['mem_request'])} GiB requested; "
                      f"{res['totals']['sites']} site(s): {render.fmt(res['totals']['deployment']['cpu_request'])} cores.")
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
