"""Which rows of a scenario the calculators could not use, so a result built without them is
marked partial instead of silently short (standard library only).

Data: the bundle key ``excluded_rows`` (built by macros/pages_calculators_asm_overtarget.py):
columnar ``{"cols": EXCLUDED_COLS, "rows": [[...]]}``, one row per resources.csv or
utilization.csv row whose status is ``flagged`` or ``missing`` (an erratum flags the printed
value, or no value is printed), with the errata its note cites. ``not_applicable`` rows are
not exclusions (the guide says the metric does not apply).

``exclusions`` is the one place the ASM and over-target calculators ask; once the shared
``footprint.completeness()`` lands it can answer instead.
"""
from __future__ import annotations

EXCLUDED_COLS = ["scenario", "kind", "table_id", "row", "row_label", "site", "service", "container", "metric", "status", "errata"]
"""Columns of ``excluded_rows``; kind is 'resources' or 'utilization'; metric is 'cpu'/'memory' for
utilization rows, '' for resources; errata is a list of ids."""


def exclusions(bundle: dict, scenario: str, kind: str | None = None) -> dict:
    """The rows of ``scenario`` left out of the calculators (optionally of one ``kind``).

    Returns ``{"partial": bool, "rows": [dict per row], "tables": [table ids], "errata": [ids],
    "services": [service names], "sidecar_rows": n, "app_rows": n, "text": one sentence or ''}``.
    Never raises; a bundle without the key gives ``partial`` False and says nothing.
    """
    raw = bundle.get("excluded_rows") or {"cols": EXCLUDED_COLS, "rows": []}
    cols = raw["cols"]
    rows = [dict(zip(cols, r)) for r in raw["rows"] if r[0] == scenario]
    if kind:
        rows = [r for r in rows if r["kind"] == kind]
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
