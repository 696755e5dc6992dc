"""The calculator bundle: the plain-JSON subset of data/ that the standard-library calculators
read, in CPython (tests, build-time prerender, CLI) and in the browser alike. Every value comes
from data/ unchanged, with its table and row.

``BUILDERS`` declares each bundle key with the one function that builds it, in the order the
bundle holds them; ``calculators.catalogue.CATALOGUE`` names the keys each calculator reads, and
``calculator_slice`` gives a page just those. A builder that returns other keys than it declares
stops the build.
"""
from __future__ import annotations

import re
from typing import Callable

from calculators.partial import EXCLUDED_COLS

from . import guides
from .datastore import Atlas, errata_cited, records, usable

RESOURCE_COLS = ["scenario", "table_id", "row", "row_label", "site", "component", "service", "container", "is_sidecar",
                 "replicas", "replicas_min", "replicas_max", "cpu_request_cores", "cpu_limit_cores", "cpu_cores",
                 "mem_request_gib", "mem_limit_gib", "mem_gib"]
UTIL_COLS = ["scenario", "table_id", "row", "site", "service", "container", "metric", "observed_percent", "observed_abs",
             "abs_unit", "target_percent", "percent_basis", "status"]
EXCLUDED_RESOURCE_COLS = ["scenario", "table_id", "row", "row_label", "site", "component", "service", "container", "is_sidecar",
                          "status", "note"]
UTIL_ROWS_COLS = ["scenario", "table_id", "row", "row_label", "site", "service", "container", "metric",
                  "observed_percent", "observed_abs", "abs_unit", "target_percent", "percent_basis"]
"""Columns of ``util_rows``; every row has status ok or corrected (flagged, missing and not-applicable rows are left out)."""


def columnar(cols: list[str], rows: list[dict]) -> dict:
    """``{"cols": cols, "rows": [[value per col], ...]}``: the compact form of a long list of row dicts."""
    return {"cols": cols, "rows": [[r[c] for c in cols] for r in rows]}


# ---------------------------------------------------------------- the keys every calculator shares
def sources(atlas: Atlas) -> list[dict]:
    """``sources``: id, title, short name, product and load unit of every document with data (the title names
    the document in a calculator report's sources), and ``calculator``: the calculator that sizes its runs from the
    guide's own metrics (its guide module's ``CALCULATOR``; None: the footprint calculator, from resource tables)."""
    return [{"id": s["id"], "title": s["title"], "short_name": s["short_name"], "product": s["product"], "load_unit": s["load_unit"],
             "calculator": guides.hook(s["id"], "CALCULATOR")}
            for s in atlas.sources if s["id"] in atlas.docs()]


def scenarios(atlas: Atlas) -> list[dict]:
    """``scenarios``: one dict per scenario with its load facts flattened (``load_total``, ``load_per_site``
    in ``load_unit``, sites provisioned and carrying traffic, ASM, deployment mode), its call model
    (``call_model``: the id that the comparable runs of a document share, ``call_model_name``: its name; both
    None where the guide names none or the document does not curate call models) and ``state_counts``: how many
    subscribers, sessions or records the run held, each number its guide prints (scenarios.yaml
    ``subscribers.counts``: {value, what, approx, raw, site?, status, note?}; [] where it prints none)."""
    scen = []
    for s in atlas.scenarios:
        load = s.get("load") or {}
        cm = s.get("call_model") or {}
        scen.append({
            "id": s["id"], "doc": s["doc"], "section": s.get("section"), "title": s["title"],
            "short_title": s.get("short_title") or s["title"], "release": s.get("release"),
            "load_total": load.get("total"), "load_per_site": load.get("per_site"), "load_unit": load.get("unit"),
            "load_raw": load.get("raw"), "sites_provisioned": s.get("sites_provisioned"),
            "sites_with_traffic": s.get("sites_with_traffic") or [], "asm": s.get("asm"),
            "deployment_mode": s.get("deployment_mode"), "call_model": cm.get("id"), "call_model_name": cm.get("name"),
            "state_counts": (s.get("subscribers") or {}).get("counts") or [],
        })
    return scen


def services(atlas: Atlas) -> list[dict]:
    """``services``: doc, service, component and role of every canonical service (services.yaml), and ``holds``:
    what state the guide shows it holding ('sessions', 'bindings', 'subscriber-data', 'usage-monitoring-contexts';
    services.yaml ``holds.what``), or None."""
    return [{"doc": s["doc"], "service": s["service"], "component": s["component"], "role": s["role"],
             "holds": (s.get("holds") or {}).get("what")} for s in atlas.services]


def resources(atlas: Atlas) -> list[dict]:
    """``resources``: every resource row with a usable status (RESOURCE_COLS; cores, GiB, pods)."""
    return records(usable(atlas.frames["resources"]), RESOURCE_COLS)


def resources_excluded(atlas: Atlas) -> list[dict]:
    """``resources_excluded``: resource rows the calculators cannot use (status not ok/corrected: flagged by an
    erratum, or missing a value), each with ``errata``: the erratum ids named in its note. Kept in the bundle so
    a footprint can say what it could not size (calculators.footprint.completeness)."""
    res = atlas.frames["resources"]
    out = []
    for r in records(res[~res["status"].isin(["ok", "corrected"])], EXCLUDED_RESOURCE_COLS):
        r["errata"] = errata_cited(r.get("note"))
        out.append(r)
    return out


def utilization(atlas: Atlas) -> list[dict]:
    """``utilization``: observed CPU and memory rows with a usable status (the footprint sizes from both)."""
    util = usable(atlas.frames["utilization"])
    return records(util[util["metric"].isin(["cpu", "memory"])], UTIL_COLS)


# ---------------------------------------------------------------- observed CPU and exclusions (ASM, over target, backtest)
def util_rows(atlas: Atlas) -> dict:
    """``util_rows``: every CPU utilization row that prints a target (the Y of X/Y) and every memory utilization row,
    status ok/corrected only, with its table and row, columnar (UTIL_ROWS_COLS)."""
    util = usable(atlas.frames["utilization"])
    util = util[util["observed_percent"].notna() | util["observed_abs"].notna()]
    util = util[((util["metric"] == "cpu") & util["target_percent"].notna()) | (util["metric"] == "memory")]
    return columnar(UTIL_ROWS_COLS, records(util, UTIL_ROWS_COLS))


def _percent(text) -> float | None:
    m = re.fullmatch(r"\s*~?\s*([0-9]+(?:\.[0-9]+)?)\s*%\s*", str(text or ""))
    return float(m.group(1)) if m else None


def scenario_cpu(atlas: Atlas) -> list[dict]:
    """``scenario_cpu``: the scenario-wide observed CPU where a guide prints only one (measurements.csv metric
    cpu_percent, subject Total), with the scenario's 'Target CPU' setting and the table and row of each."""
    wide = []
    meas = atlas.frames.get("measurements")
    sett = atlas.frames.get("settings")
    if meas is not None and len(meas):
        m = usable(meas[(meas["metric"] == "cpu_percent") & (meas["subject"] == "Total")])
        for rec in records(m, ["scenario", "table_id", "row", "value", "raw", "note"]):
            if rec["value"] is None or any(w["scenario"] == rec["scenario"] for w in wide):
                continue
            tgt = {}
            if sett is not None and len(sett):
                t = usable(sett[(sett["scenario"] == rec["scenario"]) & (sett["key"] == "Target CPU")])
                for trec in records(t, ["table_id", "row", "value"]):
                    if _percent(trec["value"]) is not None:
                        tgt = {"target_percent": _percent(trec["value"]), "target_table_id": trec["table_id"], "target_row": trec["row"]}
                        break
            wide.append({"scenario": rec["scenario"], "observed_percent": rec["value"], "raw": rec["raw"], "table_id": rec["table_id"],
                         "row": rec["row"], "note": rec["note"], **tgt})
    return wide


def scenario_facts(atlas: Atlas) -> list[dict]:
    """``scenario_facts``: what can differ between two runs, as printed; the ASM calculator compares only runs that
    agree. Per scenario: ``call_mix`` and ``duration`` (raw text), ``release``, ``deployment_mode``,
    ``sites_provisioned``, ``asm_note``; ``call_model`` (the scenarios.yaml record: id, name, cite {text, table_id,
    line, where} and note where there is one; None where the guide names no call model or the document does not
    curate it); ``replication`` (the replication setup as the prose prints it, or None); ``features`` (the features
    table as printed, name -> status, or None); ``hardware_server`` (the hardware table's 'Server' as printed, or
    None) and ``software`` (name -> version as printed, or None)."""
    return [{"id": s["id"], "call_mix": (s.get("call_mix") or {}).get("raw"), "duration": (s.get("duration") or {}).get("raw"),
             "release": s.get("release"), "deployment_mode": s.get("deployment_mode"),
             "sites_provisioned": s.get("sites_provisioned"), "asm_note": s.get("asm_note"),
             "call_model": s.get("call_model"), "replication": (s.get("replication") or {}).get("raw"),
             "features": s.get("features"), "hardware_server": (s.get("hardware") or {}).get("Server"),
             "software": s.get("software")} for s in atlas.scenarios]


def deployment_names(atlas: Atlas) -> dict:
    """``deployment_names``: the name registry the "Your deployment" calculator matches your workloads through, the
    one the service pages use (services.yaml): ``{"services": [{"doc", "service", "display_name", "component", "role",
    "holds", "names": [canonical, display and every alias name the guides print, e.g. ``ocpcf-occnp-ingress-gateway``],
    "page": the service page's slug (``atlas.pages.services.groups``)}]}``, in services.yaml order."""
    from .pages.services import groups
    page = {(m["doc"], m["service"]): g["slug"] for g in groups(atlas) for m in g["members"]}
    out = []
    for s in atlas.services:
        names = []
        for n in [s["service"], s.get("display_name"), *(s.get("aliases") or [])]:
            if n and n not in names:
                names.append(n)
        out.append({"doc": s["doc"], "service": s["service"], "display_name": s.get("display_name") or s["service"],
                    "component": s["component"], "role": s["role"], "holds": (s.get("holds") or {}).get("what"),
                    "names": names, "page": page.get((s["doc"], s["service"]))})
    return {"services": out}


def excluded_rows(atlas: Atlas) -> dict:
    """``excluded_rows`` (see calculators/partial.py): every utilization row with status flagged or
    missing, with the errata its note cites, so a result without it is marked partial. (Excluded
    resource rows are the bundle's ``resources_excluded``, read through footprint.completeness.)"""
    out = []
    for kind in ("utilization",):
        df = atlas.frames.get(kind)
        if df is None or not len(df):
            continue
        df = df[df["status"].isin(["flagged", "missing"])]
        cols = ["scenario", "table_id", "row", "row_label", "site", "service", "container", "status", "note"]
        for r in records(df, cols + (["metric"] if kind == "utilization" else [])):
            errata = list(dict.fromkeys(errata_cited(r.pop("note"))))
            out.append([r["scenario"], kind, r["table_id"], r["row"], r["row_label"], r["site"] or "", r["service"],
                        r["container"], r.get("metric") or "", r["status"], errata])
    return {"cols": EXCLUDED_COLS, "rows": out}


def examples(atlas: Atlas) -> dict:
    """``examples``: the worked examples and defaults the guides provide (``atlas.guides.EXAMPLE_NAMES``: the
    calculators' default runs, the method pages' examples), the first guide in sources.yaml order winning; an example
    whose guide has no data is absent."""
    return guides.examples(atlas.docs())


def sizing_bands(bundle: dict) -> dict:
    """``sizing_bands``: the held-out band of each product, sizing method and level (``calculators.backtest.sizing_bands``),
    computed from the bundle built so far; the footprint, DSR and ShCM calculators show it as each result's likely
    range."""
    from calculators import backtest
    return backtest.sizing_bands(backtest.run(bundle))


BUILDERS: tuple[tuple[tuple[str, ...], Callable[[Atlas], object]], ...] = (
    (("sources",), sources),
    (("scenarios",), scenarios),
    (("services",), services),
    (("resources",), resources),
    (("resources_excluded",), resources_excluded),
    (("utilization",), utilization),
    (("util_rows",), util_rows),
    (("scenario_cpu",), scenario_cpu),
    (("scenario_facts",), scenario_facts),
    (("excluded_rows",), excluded_rows),
    (("examples",), examples),
    (("deployment_names",), deployment_names),
) + tuple(guides.bundle_builders())
"""Every bundle key and the function that builds it from the validated data: one key (its value) or several
(a dict of exactly those keys). The keys of a guide's own metrics come from its guide module (``BUNDLE_KEYS`` and
``bundle``, ``atlas.guides``). ``sizing_bands`` and ``extrapolation`` come last (DERIVED): they read the finished
bundle."""
def extrapolation(bundle: dict) -> dict:
    """``extrapolation``: per product sized from comparable runs, the power its curves scale by beyond the measured
    range, chosen held out from its own runs (``calculators.backtest.select_power``): ``{doc: {"power", "why", "scores",
    "held_out_choices"}}``; the footprint calculator reads it through ``calculators.evidence.extrapolation_power``."""
    from calculators import backtest
    return backtest.run(bundle)["extrapolation"]


BUILD_ID_DIGITS = 16
"""Hex digits of SHA-256 in ``build_id`` (as in the content-hashed file names, ``atlas.assets.HASH_DIGITS``)."""


def build_id(bundle: dict) -> str:
    """``build_id``: this build of the atlas as the calculators and pages know it, the first 16 hex digits of the
    SHA-256 of the bundle's data (every key before this one, as JSON with sorted keys) and of the calculators' Python
    sources (``calculators/*.py``, by name): two builds get the same id exactly when every figure a calculator
    computes from the same inputs is the same. The Your deployment page writes it into the points it exports, and
    the home and service pages refuse points of another build (their vendor runs and rules may differ)."""
    import hashlib
    import json
    from pathlib import Path
    h = hashlib.sha256(json.dumps(bundle, sort_keys=True, separators=(",", ":"), default=str).encode("utf-8"))
    for f in sorted((Path(__file__).resolve().parents[1] / "calculators").glob("*.py")):
        h.update(b"\0" + f.name.encode("utf-8") + b"\0" + f.read_bytes())
    return h.hexdigest()[:BUILD_ID_DIGITS]


DERIVED = (("sizing_bands", sizing_bands), ("extrapolation", extrapolation), ("build_id", build_id))
"""Keys computed from the bundle itself, after every key of BUILDERS (``build_id`` last: it digests the others)."""


def keys() -> list[str]:
    """Every key a bundle holds besides ``version``, in order."""
    return [k for ks, _ in BUILDERS for k in ks] + [k for k, _ in DERIVED]


def build(atlas: Atlas) -> dict:
    """The bundle dict: ``version`` (1), then every key of BUILDERS and DERIVED, in order. Raises ValueError if a
    builder of several keys returns others than it declares."""
    out: dict = {"version": 1}
    for names, fn in BUILDERS:
        if len(names) == 1:
            out[names[0]] = fn(atlas)
            continue
        part = fn(atlas)
        if set(part) != set(names):
            raise ValueError(f"bundle builder {fn.__module__}.{fn.__name__} returned keys {sorted(part)}, "
                             f"declared {list(names)} (atlas/bundle.py BUILDERS)")
        out.update({k: part[k] for k in names})
    for name, fn in DERIVED:
        out[name] = fn(out)
    return out


def calculator_slice(bundle: dict, name: str) -> dict:
    """The part of ``bundle`` that calculator ``name`` reads (``calculators.catalogue.CATALOGUE``),
    plus ``version``: what that calculator's page loads. Raises KeyError for an unknown
    calculator, ValueError if the bundle lacks a key the calculator reads."""
    from calculators import catalogue
    keys = catalogue.bundle_keys(name)
    missing = [k for k in keys if k not in bundle]
    if missing:
        raise ValueError(f"calculator {name!r} reads bundle keys {missing} that the bundle does not have")
    return {"version": bundle["version"], **{k: bundle[k] for k in keys}}
