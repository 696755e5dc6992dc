"""One calculator result as a report: the same six sheets for every calculator (Inputs, Results,
Totals, Warnings, Method, Sources), each a list of rows of typed cells, which
``reportxlsx.write`` turns into an XLSX workbook (build time in CPython, in the browser in Pyodide).

Standard library only. Imported only when a report is asked for (``catalogue.report``), never
while a calculator page boots.

Shape (``build``)::

    {"calculator": "footprint", "title": str, "subtitle": str, "filename": "footprint-bsf-3-3.xlsx",
     "sheets": [{"name": "Inputs", "columns": [{"header": "Value", "unit": None}, ...],
                 "rows": [[cell, ...], ...]}, ...]}

A cell is an int, a float, a str or None (empty): numbers stay numbers (an exact Fraction becomes
an int when whole, else the nearest float), booleans become "yes"/"no", and a column's unit is in
its header ("CPU request per pod (cores)"), never in its cells. Where one column holds values of
different units (the DSR and ShCM steps), a "Unit" column beside it names each row's.

Every number's source is copied from the result's own provenance (the table, row, column and
printed text each calculator keeps beside its figures, the errata it names), never looked up
again: the Sources sheet is the result's citations, one row per cited figure.
"""
from __future__ import annotations

from fractions import Fraction

SHEETS = ("Inputs", "Results", "Totals", "Warnings", "Method", "Sources")
"""The sheets of every report, in this order (a sheet with no rows says so in one row)."""

SOURCE_COLUMNS = ("Item", "Document", "Section", "Table", "Row", "Row label", "Column", "Printed", "Errata")
"""Columns of the Sources sheet: what the figure is, then where it is printed."""


class ReportError(ValueError):
    """A report cannot be made of this result (a cell of a type a workbook cannot hold)."""


def cell(v):
    """A value as a report cell: int, float, str or None. Fractions become int (whole) or float,
    booleans "yes"/"no", an empty text None (an empty cell); lists are joined with "; " (empty: None). Raises ReportError for any other type."""
    t = type(v)
    if t is str:
        return v or None
    if v is None or t is int:
        return v
    if t is bool:
        return "yes" if v else "no"
    if t is float:
        return v if v == v and v not in (float("inf"), float("-inf")) else str(v)
    if isinstance(v, Fraction):
        return v.numerator if v.denominator == 1 else float(v)
    if isinstance(v, (list, tuple)):
        return "; ".join(str(cell(x)) for x in v) or None
    raise ReportError(f"a report cell cannot hold a {t.__name__} ({v!r})")


def col(header: str, unit: str | None = None) -> dict:
    """A column: its header and the unit every one of its numbers is in (None: text, counts, or mixed)."""
    return {"header": header, "unit": unit}


def sheet(name: str, columns: list[dict], rows: list[list]) -> dict:
    """A sheet: ``columns`` (``col``) and ``rows`` (lists of values, each made a ``cell``).
    Raises ReportError for a row whose length is not the number of columns."""
    out = []
    for n, r in enumerate(rows, 1):
        if len(r) != len(columns):
            raise ReportError(f"sheet {name!r} row {n} has {len(r)} cells for {len(columns)} columns")
        out.append([cell(v) for v in r])
    return {"name": name, "columns": columns, "rows": out}


def header_text(c: dict) -> str:
    """A column's header as shown: 'CPU request (cores)' when it has a unit."""
    return f"{c['header']} ({c['unit']})" if c.get("unit") else c["header"]


def build(calculator: str, title: str, subtitle: str, filename: str, *, inputs: list, results: dict, totals: dict,
          warnings: list, method: list, sources: list) -> dict:
    """The report of one result. ``inputs``: rows (input, value, unit, note); ``results`` and ``totals``:
    ``{"columns": [...], "rows": [...]}``; ``warnings``: rows (kind, text); ``method``: rows (topic, text);
    ``sources``: rows of SOURCE_COLUMNS. Returns the report dict (module docstring)."""
    text = [col("Kind"), col("Text")]
    return {
        "calculator": calculator, "title": title, "subtitle": subtitle, "filename": filename,
        "sheets": [
            sheet("Inputs", [col("Input"), col("Value"), col("Unit"), col("Note")], inputs),
            sheet("Results", results["columns"], results["rows"]),
            sheet("Totals", totals["columns"], totals["rows"]),
            sheet("Warnings", text, warnings or [["none", "No warnings for these inputs."]]),
            sheet("Method", [col("Topic"), col("Text")], method),
            sheet("Sources", [col(h) for h in SOURCE_COLUMNS], sources),
        ],
    }


def sheet_named(report: dict, name: str) -> dict:
    """The sheet called ``name`` (KeyError if the report has none)."""
    for s in report["sheets"]:
        if s["name"] == name:
            return s
    raise KeyError(name)


def _doc_names(bundle: dict) -> dict:
    return {s["id"]: s.get("title") or s.get("short_name") or s["id"] for s in bundle.get("sources") or []}


def _sections(bundle: dict) -> dict:
    return {s["id"]: s.get("section") for s in bundle.get("scenarios") or []}


# ---------------------------------------------------------------- footprint

FOOTPRINT_INPUTS = (
    ("sized_from", "Sized from", None), ("call_model", "Call model", None), ("mode", "Deployment mode", None),
    ("scenario", "Baseline scenario (sized from the comparable runs: the anchor, whose pods are used)", None), ("target_load", "Target load, total", "unit"), ("sites", "Sites carrying traffic", None),
    ("sites_provisioned", "Sites provisioned", None), ("redundancy", "Georedundancy", None), ("failover", "Failover", None),
    ("normal_ceiling", "Normal CPU ceiling", "%"), ("failover_ceiling", "Failover CPU ceiling", "%"),
    ("target_cpu_percent", "Target CPU utilization of traffic services", "% of request"),
    ("db_target_percent", "Database CPU target", "% of request"), ("sidecar_target_percent", "Sidecar CPU ceiling", "% of limit"),
    ("data_size_gib", "Data size per copy", "GiB"), ("sessions", "Sessions, bindings or subscribers held", "records"), ("asm", "ASM sidecars", None), ("asm_from", "Size added sidecars from", None),
    ("min_replicas", "Minimum replicas per scaled service", None), ("node_cores", "Worker node CPU", "cores"),
    ("node_mem_gib", "Worker node memory", "GiB"),
)
"""Footprint inputs (key of the result's ``inputs``, label, unit; 'unit' = the scenario's load unit)."""

FOOTPRINT_COLUMNS = (
    ("group", "Group", None), ("component", "Component", None), ("service", "Service", None), ("container", "Container", None),
    ("is_sidecar", "Sidecar", None), ("role", "Role", None), ("rule", "Rule", None), ("binding", "Binding", None),
    ("replicas_before", "Replicas (baseline)", "pods"), ("replicas_after", "Replicas (target)", "pods"),
    ("cpu_request", "CPU request per pod", "cores"), ("cpu_limit", "CPU limit per pod", "cores"),
    ("mem_request", "Memory request per pod", "GiB"), ("mem_limit", "Memory limit per pod", "GiB"),
    ("cpu_request_before", "CPU request total, baseline", "cores"), ("cpu_request_after", "CPU request total, target", "cores"),
    ("cpu_limit_after", "CPU limit total, target", "cores"), ("mem_request_before", "Memory request total, baseline", "GiB"),
    ("mem_request_after", "Memory request total, target", "GiB"), ("mem_limit_after", "Memory limit total, target", "GiB"),
    ("range_low", "Replicas, likely low", "pods"), ("range_high", "Replicas, likely high", "pods"),
    ("table_id", "Source table", None), ("source_row", "Source row", None), ("rule_detail", "Why (rule, source)", None),
    ("notes", "Notes", None),
)


def footprint(res: dict, bundle: dict) -> dict:
    """The report of a ``calculators.footprint.compute`` result (``bundle``: document names and sections)."""
    i, b, t = res["inputs"], res["baseline"], res["totals"]
    docs, sections = _doc_names(bundle), _sections(bundle)
    least = " (at least: partial result)" if res["partial"] else ""
    inputs = []
    for key, label, unit in FOOTPRINT_INPUTS:
        v = i.get(key)
        inputs.append([label, v, i["unit"] if unit == "unit" else unit,
                       "default" if v is None else ("" if key != "scenario" else f"{b['short_title']} ({docs.get(b['doc'], b['doc'])})")])
    rows = []
    for r in res["rows"] + res["test_rows"]:
        rng = r.get("range") or {}
        vals = {**r, "group": "test (not in totals)" if r in res["test_rows"] else r["group"],
                "range_low": rng.get("low"), "range_high": rng.get("high"), "notes": list(r.get("notes") or [])}
        rows.append([vals.get(k) for k, _, _ in FOOTPRINT_COLUMNS])
    results = {"columns": [col(h, u) for _, h, u in FOOTPRINT_COLUMNS], "rows": rows}
    tcols = [col("Total"), col("Replicas (baseline)", "pods"), col("Replicas (target)", "pods"),
             col("CPU request, baseline site", "cores"), col("CPU request, target", "cores"), col("CPU limit, target", "cores"),
             col("Memory request, baseline site", "GiB"), col("Memory request, target", "GiB"), col("Memory limit, target", "GiB")]
    trows = []
    for g, v in t["groups"].items():
        if not any(v["before"].values()) and not any(v["after"].values()):
            continue
        side = g == "sidecars"
        trows.append([f"Group: {g}", None if side else v["replicas_before"], None if side else v["replicas_after"],
                      v["before"]["cpu_request"], v["after"]["cpu_request"], v["after"]["cpu_limit"],
                      v["before"]["mem_request"], v["after"]["mem_request"], v["after"]["mem_limit"]])
    s, d = t["site"], t["deployment"]
    trows.append(["Per site" + least, None, None, s["before"]["cpu_request"], s["after"]["cpu_request"], s["after"]["cpu_limit"],
                  s["before"]["mem_request"], s["after"]["mem_request"], s["after"]["mem_limit"]])
    trows.append([f"All {t['sites']} site(s)" + least, None, None, None, d["cpu_request"], d["cpu_limit"], None,
                  d["mem_request"], d["mem_limit"]])
    rng = res.get("range") or {}
    for end in ("low", "high"):
        if end in rng:
            e = rng[end]
            nodes = "" if e["nodes"] is None else f"; worker nodes per site {e['nodes']}, all sites {e['nodes'] * t['sites']}"
            trows.append([f"Per site, likely {end}{nodes}", None, None, None, e["site"]["cpu_request"], e["site"]["cpu_limit"],
                          None, e["site"]["mem_request"], e["site"]["mem_limit"]])
    p = res.get("packing")
    if p:
        trows.append([f"Worker nodes per site{least}: {p['nodes']} (of which {p['spare']} spare), "
                      f"all sites {p['nodes'] * t['sites']}", None, None, None, None, None, None, None, None])
    warnings = [["warning", w] for w in res["warnings"]]
    for m in res["completeness"]["missing"]:
        where = f" (Table {m['table_id']}, row {m['row']})" if m.get("table_id") else ""
        errata = f"; errata {', '.join(m['errata'])}" if m["errata"] else ""
        warnings.append(["not sized (partial: totals are at least)", f"{m['service']} / {m['container']}: {m['reason']}{where}{errata}"])
    from .footprint_report import summary_lines
    method = [["Answer and how it was sized", line] for line in summary_lines(res)] + [["Rules", res["method"]]]
    for st in res["states"]:
        ceil = f", CPU ceiling {st['ceiling']} %" if st.get("ceiling") else ""
        method.append([f"Load state: {st['state']}", f"{st['load']:g} {i['unit']} per site carrying traffic "
                       f"(x{st['factor']:.4g} the baseline){ceil}" + (f" ({st['how']})" if st.get("how") else "")])
    if p:
        method.append(["Node packing", f"first-fit decreasing; allocatable {p['allocatable']['cpu']:g} cores / "
                       f"{p['allocatable']['mem']:g} GiB per node after {'GKE-tier' if p['reserve'] == 'gke' else 'your'} "
                       f"reservations, DaemonSets {p['daemonset_cpu']:g} cores / {p['daemonset_mem']:g} GiB, at most "
                       f"{p['max_pods']} pods per node; binding: {p['binding'] or 'one node'}"])
    method.append(["Estimate", "A planning estimate from the vendor's benchmark, not a vendor figure."])
    sources = []
    for r in res["rows"] + res["test_rows"]:
        sid = r.get("source_scenario") or b["id"]
        doc = next((s["doc"] for s in bundle.get("scenarios") or [] if s["id"] == sid), b["doc"])
        sources.append([f"{r['service']} / {r['container']}" + (" (added sidecar)" if r.get("added") else ""),
                        docs.get(doc, doc), sections.get(sid), r["table_id"], r["source_row"], r.get("row_label"),
                        "replicas, CPU and memory requests and limits", None, None])
    for m in res["completeness"]["missing"]:
        sources.append([f"{m['service']} / {m['container']} (not sized)", docs.get(b["doc"], b["doc"]), sections.get(b["id"]),
                        m.get("table_id"), m.get("row"), None, None, None, m["errata"]])
    title = f"Footprint scaling: {b['short_title']}"
    sub = (f"Baseline {b['id']} at {b['load_per_site']:g} {i['unit']} per site, scaled to {i['target_load']:g} {i['unit']} "
           f"on {i['sites']} site(s){least}")
    from .footprint import result_name
    return build("footprint", title, sub, f"{result_name(res)}.xlsx", inputs=inputs, results=results,
                 totals={"columns": tcols, "rows": trows}, warnings=warnings, method=method, sources=sources)


# ---------------------------------------------------------------- DSR and ShCM: steps

STEP_COLUMNS = [col("Kind"), col("Key"), col("Item"), col("Value"), col("Unit"), col("Source / how")]


def _steps(calculator: str, res: dict, steps: list[tuple], figures: list[dict], doc: str, section, bundle: dict,
           title: str, sub: str, filename: str, method: list, extra_sources=()) -> dict:
    kinds = {"input": "Input", "measured": "Measured (source)", "computed": "Computed", "result": "Result"}
    inputs = [[label, value, unit, src] for kind, key, label, value, unit, src in steps if kind == "input"]
    results = {"columns": STEP_COLUMNS, "rows": [[kinds[kind], key, label, value, unit, src]
                                                 for kind, key, label, value, unit, src in steps if kind != "input"]}
    totals = {"columns": [col("Item"), col("Value"), col("Unit"), col("How")],
              "rows": [[label, value, unit, src] for kind, key, label, value, unit, src in steps if kind == "result"]}
    name = _doc_names(bundle).get(doc, doc)
    sources = [[f["label"], name, section, f["table_id"], f["row"], None, f.get("column"), f.get("raw"), f.get("errata") or None]
               for f in figures]
    sources += [[item, name, section, table, row, None, None, printed, None] for item, table, row, printed in extra_sources]
    return build(calculator, title, sub, filename, inputs=inputs, results=results, totals=totals,
                 warnings=[["warning", w] for w in res["warnings"]], method=method, sources=sources)


def dsr(res: dict, bundle: dict) -> dict:
    """The report of a ``calculators.dsr.compute`` result."""
    from . import dsr as calc
    from .formatting import fmt
    run, kind = res["run"], res["kind"]
    limit = res["site_limit"]
    method = [["Methods", "Measured: the per-MP rate as benchmarked (with a CPU ceiling, scaled linearly within the CPU range "
               "the guide measured for the flavour); engineered: the rate the DA-MP Profile names. A DA-MP is never given "
               "more than its profile's rated MPS; the method needing more MPs is the headline."],
              ["DSR sites", (f"At most {limit} {kind}s per DSR site, spares included ({calc.SITE_LIMIT_SOURCE}); the target is "
                             "split evenly over as few DSR sites (or mated pairs) as that allows, at the more conservative "
                             "method's rate." if limit is not None else calc.NO_SITE_LIMIT)],
              ["Redundancy", calc.REDUNDANCY[res["inputs"]["redundancy"]] + "; mated pairs as in " + calc.MATED_PAIR_SOURCE],
              ["Spares", f"{res['inputs']['spare']} spare {kind}(s) per DSR site added (N+k)"
               + (", counted within the site limit." if limit is not None else ".")],
              ["Estimate", "A planning estimate from the vendor's benchmark, not a vendor figure."]]
    method += [["Note from the guide", n] for n in res["notes"]]
    extra = [(f"Setting: {label}", s["table_id"], s["row"], s["value"]) for label, s in (run["settings"] or {}).items()]
    return _steps("dsr", res, calc._rows(res), res["figures"], "dsr", run.get("section"), bundle,
                  f"DSR {kind} sizing: {run['short_title']}",
                  f"{res['total']:,} {kind}s in {res['dsrs']:,} DSR site(s) for {fmt(res['inputs']['target_mps'])} MPS; "
                  f"baseline {run.get('section') or ''} "
                  f"{run['short_title']} ({run['id']})", f"dsr-{run['id']}.xlsx", method, extra)


def shcm(res: dict, bundle: dict) -> dict:
    """The report of a ``calculators.shcm.compute`` result."""
    from . import shcm as calc
    from .formatting import fmt
    t, n, u = res["test"], res["node"], res["inputs"]["unit"]
    method = [["Method", f"Rhino nodes = ceil(target / load per node): the load one node carried in test {t['test']}, or with a "
               "CPU ceiling that load scaled linearly to the ceiling's share of the node's vCPUs; spares added (N+k)."],
              ["Spares", f"{res['inputs']['spare']} spare node(s) added (N+k); the default is {calc.DEFAULT_SPARE} (N+1): with a "
               "node down the others must carry its load."],
              ["Not sized", "; ".join(x["item"] for x in res["not_sized"]) or "nothing"],
              ["Estimate", "A planning estimate from the vendor's benchmark, not a vendor figure."]]
    method += [["Note from the guide", x] for x in res["notes"]]
    extra = [("Rhino node (vCPUs read from the sentence)", n["table_id"], n["row"], n["text"])]
    if t.get("config_table"):
        extra.append(("Server config", t["config_table"], t["config_row"], t["config"]))
    partial = " (partial: Rhino nodes only, Cassandra not sized)" if res["partial"] else ""
    rep = _steps("shcm", res, calc._rows(res), res["figures"], "shcm", None, bundle,
                 f"ShCM Rhino nodes: test {t['test']}",
                 f"{res['total']:,} Rhino node(s) for {fmt(res['inputs']['target'])} {u}; baseline test {t['test']} "
                 f"({t['id']}){partial}", f"shcm-{t['id']}.xlsx", method, extra)
    warnings = sheet_named(rep, "Warnings")
    lines = [["not sized (partial: Rhino nodes only)", x["text"]] for x in res["not_sized"]]
    if lines:
        kept = [r for r in warnings["rows"] if r[0] != "none"]
        warnings["rows"] = [[cell(v) for v in r] for r in lines] + kept
    return rep


# ---------------------------------------------------------------- ASM

def asm(ov: list[dict], cmp: dict, wi: dict, no_sidecars: list[str], inputs: dict, bundle: dict) -> dict:
    """The report of the ASM overhead calculator: ``overview``, ``compare``, ``whatif`` and the ASM-enabled
    scenarios without sidecar rows, for ``inputs`` ({on, off, load})."""
    docs, sections = _doc_names(bundle), _sections(bundle)
    unit = cmp["on"]["unit"]
    inp = [["ASM-on scenario", inputs["on"], None, cmp["on"]["title"]], ["ASM-off scenario", inputs["off"], None, cmp["off"]["title"]],
           ["What-if load, total", inputs.get("load") or None, unit, "each scenario's own load" if not inputs.get("load") else ""]]
    cols = [col("Scenario"), col("Component"), col("Service"), col("Sidecar CPU request", "cores"), col("All CPU request", "cores"),
            col("Sidecar share of CPU request", "%"), col("Sidecar memory request", "GiB"), col("All memory request", "GiB"),
            col("Sidecar share of memory request", "%"), col("Observed sidecar share of CPU", "%"),
            col("Observed sidecar share of memory", "%"), col("Load per site"), col("Load unit"), col("Sidecar replicas", "pods"),
            col("Replica range (counted at the max end)"), col("Partial")]
    rows, sources = [], []
    for o in ov:
        for v in o["services"]:
            rows.append([o["scenario"], v["component"], v["service"], v["cpu_sidecar"], v["cpu_total"], v["cpu_share"],
                         v["mem_sidecar"], v["mem_total"], v["mem_share"], v["observed_cpu_share"], v["observed_memory_share"],
                         o["load"], o["unit"], v["replicas_sidecar"],
                         f'{v["replica_range"]["min"]}-{v["replica_range"]["max"]}' if v["replica_range"] else None, "excluded rows" if v["partial"] else None])
            for src in v["sources"]:
                table, row = src.split("/", 1)
                sources.append([f"{o['scenario']}: {v['service']}", docs.get(o["doc"], o["doc"]), sections.get(o["scenario"]),
                                table, int(row) if row.isdigit() else row, None, "replicas and requests", None, None])
    tcols = [col("Scenario"), col("What"), col("Sidecar CPU request", "cores"), col("All CPU request", "cores"),
             col("Sidecar share of CPU request", "%"), col("Sidecar memory request", "GiB"), col("All memory request", "GiB"),
             col("Sidecar share of memory request", "%"), col("Note")]
    trows = [[o["scenario"], "TOTAL, one site carrying traffic", o["cpu_sidecar"], o["cpu_total"], o["cpu_share"], o["mem_sidecar"],
              o["mem_total"], o["mem_share"], " ".join(x for x in (o["ranges_text"], o["partial"]["text"] if o["partial"] else "") if x)
              or None] for o in ov]
    for sid in no_sidecars:
        trows.append([sid, "TOTAL", None, None, None, None, None, None, "ASM enabled, but no sidecar rows are printed: sidecar cost unknown (not 0)"])
    for key, label, u in (("cpu_total_per_1k", "CPU request per 1K of load", "cores"), ("mem_total_per_1k", "memory request per 1K of load", "GiB"),
                          ("cpu_sidecar_per_1k", "sidecar CPU request per 1K of load", "cores"),
                          ("mem_sidecar_per_1k", "sidecar memory request per 1K of load", "GiB")):
        trows.append([f"{inputs['on']} - {inputs['off']}", f"{label} ({u}): on {_g(cmp['on'][key])}, off {_g(cmp['off'][key])}",
                      None, None, None, None, None, None,
                      "not comparable" if not cmp["comparable"] else f"difference {_g(cmp['diff'][key])} {u}"])
    for change, w in wi.items():
        trows.append([w["scenario"], f"what-if: {change} sidecars at {w['load']:g} {w['unit']}", w["cpu_before"], w["cpu_after"], None,
                      w["mem_before"], w["mem_after"], None, f"per site: CPU {w['cpu_delta']:+g} cores, memory {w['mem_delta']:+g} GiB"])
    warnings = [["not comparable", x] for x in cmp["not_comparable"]]
    warnings += [["partial", f"{o['scenario']}: {o['partial']['text']}"] for o in ov if o["partial"]]
    warnings += [["replica ranges", f"{o['scenario']}: {o['ranges_text']}"] for o in ov if o["ranges"]]
    warnings += [["no sidecar rows", f"{sid}: ASM enabled, but no sidecar rows are printed; sidecar cost unknown (not 0)"] for sid in no_sidecars]
    warnings += [["difference between the runs", f"{d['what']}: {d['on'] or 'not stated'} against {d['off'] or 'not stated'}"]
                 for d in cmp["differences"] if d["differs"]]
    from .asm import ISTIO_REFERENCE
    method = [["Overhead", "Per scenario and service, the sidecars' requested CPU and memory (replicas x per-container request) "
               "as a share of everything the scenario's resource tables request, at one site carrying traffic (as the product "
               "pages and the footprint calculator count it); a replica count printed as a min-max range counts at its max "
               "end, the most pods the benchmark's autoscaler could run at its load. Observed share where the guide measures "
               "sidecars, at the first site carrying traffic."],
              ["Comparison", "ASM-on against ASM-off per 1K of load, like for like only: when both runs share the call model "
               "and the deployment mode; otherwise not comparable, with the differences listed."],
              ["What-if", "Through the footprint calculator: sidecars added to the ASM-off scenario (sized from the ASM-on "
               "one) and removed from the ASM-on one, at the load given."]]
    method += [["Istio reference", f"Istio {v}: {cpu} vCPU and {mem} per 1,000 requests per second through a proxy ({url}); "
                "a labelled reference only"] for v, cpu, mem, url in ISTIO_REFERENCE]
    return build("asm", f"ASM overhead: {inputs['on']} against {inputs['off']}",
                 f"Sidecar share of requested CPU and memory for every ASM-enabled scenario; {inputs['on']} (ASM on) "
                 f"against {inputs['off']} (ASM off)", "asm-overhead.xlsx", inputs=inp,
                 results={"columns": cols, "rows": rows}, totals={"columns": tcols, "rows": trows},
                 warnings=warnings, method=method, sources=sources)


def _g(v) -> str:
    return "—" if v is None else f"{v:.4g}"


# ---------------------------------------------------------------- over target

def overtarget(res: dict, own, problems, bundle: dict) -> dict:
    """The report of ``calculators.overtarget.compute`` with the reader's own rows (``parse_own``) if any: each row's
    severity, HPA counts and, where the HPA max stops the count asked for, the max it must rise to (also a warning)."""
    from .overtarget import CONTROLLERS, DEFAULT_CONTROLLER, HPA_RULE, SEVERITIES, _desired_text, max_blocked_text
    docs, sections = _doc_names(bundle), _sections(bundle)
    doc_of = {s["id"]: s["doc"] for s in bundle.get("scenarios") or []}
    i, c = res["inputs"], res["counts"]
    ctl = i.get("kubernetes") or DEFAULT_CONTROLLER
    inp = [["Product", i["product"] or None, None, "all products" if not i["product"] else ""],
           ["Memory threshold", i["mem_threshold"], "%", ""],
           ["Kubernetes version", ctl, None, f"the HPA controller of {CONTROLLERS[ctl]}"],
           ["Your CSV", len(own) if own is not None else None, "rows evaluated",
            f"{len(problems or [])} line(s) not evaluated" if own is not None else "none given"]]
    cols = [col("Kind"), col("Severity"), col("Flag"), col("Scenario"), col("Service"), col("Container"), col("Site"),
            col("Observed", "%"), col("Target or threshold", "%"), col("Observed / target"), col("Replicas (printed)", "pods"),
            col("HPA reads", "whole %"), col("HPA desired replicas"), col("HPA max must rise to", "pods"), col("Source table"),
            col("Source row"), col("Scenario partial"), col("Other Kubernetes version")]
    rows, sources = [], []
    for e in res["cpu"]:
        rows.append(["cpu", e["severity"], e["status"], e["scenario"], e["service"], e["container"], e["site"] or None, e["observed"],
                     e["target"], e["ratio"], e["replicas"], e["hpa_reads"], _desired_text(e) if _desired_text(e) != "" else None,
                     e["max_must_rise_to"], e["table_id"], e["row"], e["partial"] or None, e["controller_note"]])
    for e in res["memory"]:
        rows.append(["memory", None, "memory", e["scenario"], e["service"], e["container"], e["site"] or None, e["observed"],
                     e["threshold"], None, None, None, None, None, e["table_id"], e["row"], res["partial"].get(e["scenario"]), None])
    for e in own or []:
        rows.append(["your row", e["severity"], e["status"], None, e["name"], None, None, e["observed"], e["target"], e["ratio"],
                     e["replicas"], e["hpa_reads"], _desired_text(e), e["max_must_rise_to"], None, e["line"], None,
                     e["controller_note"]])
    for e in res["cpu"] + res["memory"]:
        doc = doc_of.get(e["scenario"], e.get("doc"))
        sources.append([f"{e['scenario']}: {e['service']} {e['container']} {e['site']}".strip() + " (observed, target)",
                        docs.get(doc, doc), sections.get(e["scenario"]), e["table_id"], e["row"], e.get("row_label"), None, None, None])
        if e.get("replicas_table"):
            sources.append([f"{e['scenario']}: {e['service']} {e['container']} (replicas)", docs.get(doc, doc),
                            sections.get(e["scenario"]), e["replicas_table"], e["replicas_row"], None, None, None, None])
        if e.get("target_table"):
            sources.append([f"{e['scenario']}: target CPU", docs.get(doc, doc), sections.get(e["scenario"]),
                            e["target_table"], e["target_row"], None, None, None, None])
    for e in own or []:
        sources.append([f"your row: {e['name']}", "your CSV", None, None, e["line"], None, None, None, None])
    tcols = [col("Count"), col("Rows"), col("Note")]
    trows = [["CPU at or over the target", c["over"], ""], ["CPU within 10 % below the target", c["near"], "observed >= 0.9 x target"],
             [f"Memory at or above {i['mem_threshold']:g} %", c["memory"], ""]]
    trows += [[f"CPU rows: {s}", c[s], ""] for s in SEVERITIES]
    if own is not None:
        for s in ("over", "near", "ok"):
            trows.append([f"Your rows: {s}", sum(1 for e in own if e["status"] == s), ""])
        for s in SEVERITIES:
            trows.append([f"Your rows: {s} (severity)", sum(1 for e in own if e["severity"] == s), ""])
    warnings = [["HPA max too low", x["text"]] for x in res.get("max_blocked") or []]
    warnings += [["HPA max too low", max_blocked_text(e, f"Your CSV, line {e['line']}")] for e in own or []
                 if e["max_must_rise_to"] is not None]
    warnings += [["partial", f"{sid}: {t}"] for sid, t in res["partial"].items()]
    warnings += [["your CSV", f"Line {x['line']}: {x['message']}"] for x in problems or []]
    method = [["Flags", "over: observed >= target; near: below the target but observed >= 0.9 x target (relative, as the "
               "HPA's tolerance); memory: observed memory at or above the threshold."], ["HPA", HPA_RULE],
              ["Severity", "critical: the HPA controller would scale up, or its max stops the count it asks for (the HPA max "
               "must rise to that count); warning: inside the tolerance band, where it holds still; ok: below the band. "
               f"Decided by the controller of {CONTROLLERS[ctl]}."]]
    return build("overtarget", "Over target: services at, over or near their CPU target",
                 f"{c['over']} over, {c['near']} near, {c['memory']} memory rows; {c['critical']} critical"
                 + (f" for {i['product']}" if i["product"] else " across all products"), "over-target.xlsx", inputs=inp,
                 results={"columns": cols, "rows": rows}, totals={"columns": tcols, "rows": trows},
                 warnings=warnings, method=method, sources=sources)
