"""Which rows of a scenario the calculators could not use, so a result built without them is
marked partial instead of silently short (standard library only).

Resource rows: ``footprint.completeness`` is the one definition (bundle key
``resources_excluded``: rows flagged by an erratum or printed without a value, unless the same
container is usable at another site; test stubs and simulators aside), so the footprint, ASM
overhead, over-target, product tables, home chart and compare page agree on what is partial.
Utilization rows: the bundle key ``excluded_rows`` (built by
atlas/bundle.py), columnar ``{"cols": EXCLUDED_COLS, "rows": [[...]]}``,
one row per utilization.csv row whose status is ``flagged`` or ``missing``, with the errata its
note cites. ``not_applicable`` rows are not exclusions (the guide says the metric does not apply).
"""
from __future__ import annotations

from .scenario import asm_on


USABLE = ("ok", "corrected")
"""Row statuses the calculators and pages use (data/schemas: ok, or corrected by an erratum); every other
status (flagged, missing, not_applicable) is left out, and flagged or missing rows are named as exclusions."""


def usable(row: dict) -> bool:
    """True if ``row`` (a bundle row dict) has a usable status; a row without ``status`` counts as ok."""
    return row.get("status", "ok") in USABLE


TEST_COMPONENTS = ("stub", "simulator")
"""Components that are test equipment, not the product: shown apart, never in production totals."""

EXCLUDED_COLS = ["scenario", "kind", "table_id", "row", "row_label", "site", "service", "container", "metric", "status", "errata"]
"""Columns of ``excluded_rows`` and of the rows ``exclusions`` returns; kind is 'resources' or
'utilization'; metric is 'cpu'/'memory' for utilization rows, '' for resources; errata is a list of ids."""


def exclusions(bundle: dict, scenario: str, kind: str | None = None) -> dict:
    """The rows of ``scenario`` left out of the calculators (optionally of one ``kind``).

    Returns ``{"partial": bool, "rows": [dict per row], "tables": [table ids], "errata": [ids],
    "services": [service names], "sidecar_rows": n, "app_rows": n, "text": one sentence or ''}``.
    Reads bundle keys ``scenarios``, ``resources``, ``resources_excluded`` and ``excluded_rows``.
    Never raises; a bundle without the exclusion keys gives ``partial`` False and says nothing.
    """
    rows = []
    if kind in (None, "resources"):
        for m in completeness(bundle, scenario)["missing"]:
            if m["service"] == "(all)":
                continue  # an ASM scenario with no sidecar rows at all: said apart (asm.asm_without_sidecars)
            rows.append({"scenario": scenario, "kind": "resources", "table_id": m["table_id"], "row": m["row"],
                         "row_label": m["row_label"], "site": m["site"] or "", "service": m["service"],
                         "container": m["container"], "metric": "", "status": m["status"], "errata": m["errata"]})
    if kind in (None, "utilization"):
        raw = bundle.get("excluded_rows") or {"cols": EXCLUDED_COLS, "rows": []}
        rows += [x for x in (dict(zip(raw["cols"], r)) for r in raw["rows"] if r[0] == scenario) if x["kind"] == "utilization"]
    tables, errata, services = [], [], []
    for r in rows:
        for lst, v in ((tables, r["table_id"]), (services, r["service"])):
            if v not in lst:
                lst.append(v)
        for e in r.get("errata") or []:
            if e not in errata:
                errata.append(e)
    side = sum(1 for r in rows if r["container"] == "istio-proxy")
    text = ""
    if rows:
        by = ", ".join(f"Table {t}" for t in tables)
        text = (f"{len(rows)} {'row' if len(rows) == 1 else 'rows'} of {by} could not be used "
                f"({', '.join(sorted({r['status'] for r in rows}))}"
                + (f"; {', '.join(errata)}" if errata else "") + f"): {', '.join(services)}.")
    return {"partial": bool(rows), "rows": rows, "tables": tables, "errata": errata, "services": services,
            "sidecar_rows": side, "app_rows": len(rows) - side, "text": text}


def completeness(bundle: dict, scenario: str) -> dict:
    """What a footprint of ``scenario`` cannot size, for every page that summarises it.

    Returns ``{"partial": bool, "missing": [{"service", "container", "component", "table_id", "row",
    "row_label", "site", "status", "errata": [ids], "reason"}]}``: resource rows excluded by an
    erratum (status 'flagged') or with no usable value ('missing') whose service and container
    have no usable row at any site of the scenario (test stubs and simulators aside: they are never
    in production totals), and, for an ASM-enabled scenario (asm
    'enabled' or 'partial') with no usable sidecar row, one entry saying so (and how many sidecar rows the source
    prints that could not be used, when it prints any). Totals built from
    such a scenario are lower bounds ("at least"). Reads bundle keys ``scenarios``,
    ``resources`` and ``resources_excluded`` (absent: nothing excluded is known). Raises
    nothing; an unknown scenario gives ``{"partial": False, "missing": []}``.
    """
    mine = [r for r in bundle["resources"] if r["scenario"] == scenario]
    usable_keys = {(r["component"], r["service"], r["container"]) for r in mine}
    missing, seen = [], set()
    for x in bundle.get("resources_excluded") or []:
        if x["scenario"] != scenario:
            continue
        key = (x["component"], x["service"], x["container"])
        if key in usable_keys or key in seen or x["component"] in TEST_COMPONENTS:
            continue  # test stubs and simulators are never in production totals, so their rows leave no gap
        seen.add(key)
        reason = "excluded by erratum" if x["status"] == "flagged" else "no usable value printed"
        missing.append({"service": x["service"], "container": x["container"], "component": x["component"],
                        "table_id": x["table_id"], "row": x["row"], "row_label": x.get("row_label"), "site": x.get("site"),
                        "status": x["status"], "errata": list(x.get("errata") or []), "reason": reason})
    scen = next((s for s in bundle["scenarios"] if s["id"] == scenario), None)
    if scen and asm_on(scen) and usable_keys and not any(r["is_sidecar"] for r in mine):
        printed = sum(1 for x in bundle.get("resources_excluded") or []
                      if x["scenario"] == scenario and x.get("is_sidecar"))
        why = (f"the source prints {printed} sidecar {'row' if printed == 1 else 'rows'}, none usable (named above)"
               if printed else "the source prints no sidecar rows")
        missing.append({"service": "(all)", "container": "istio-proxy", "component": "", "table_id": "", "row": None,
                        "row_label": "", "site": "", "status": "missing", "errata": [],
                        "reason": f"ASM is enabled in this scenario but {why}: sidecars unknown, not 0"})
    return {"partial": bool(missing), "missing": missing}
