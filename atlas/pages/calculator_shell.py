"""The shell every calculator page shares: its form, the elements the browser script drives
(status, message, downloads, permalink, chart) and the result prerendered at build time by the same
``calculators.catalogue.run`` the browser calls in Pyodide. Each calculator page module
(``atlas/pages/calc_*.py``) builds its form and default inputs and calls ``shell``.
"""
from __future__ import annotations

import base64
from html import escape
from urllib.parse import urlencode

from calculators import catalogue

from ..html import json_for_html


def _data_url(mime: str, text: str) -> str:
    """``text`` as a base64 ``data:`` URL of type ``mime`` (the prerendered result's downloads)."""
    return f"data:{mime};charset=utf-8;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


def shell(renderer, name: str, form_html: str, params: dict, timeout_ms: int = 60000, bundle: dict | None = None) -> str:
    """The HTML of calculator ``name``'s page body: ``form_html`` (its inputs) wrapped with status, message,
    downloads, permalink, chart and the result of ``params`` (the default inputs, strings as typed) computed now.
    ``timeout_ms``: how long the page waits for Python before it keeps the prerendered result. ``bundle``: the data
    the calculator reads when it is not the calculator bundle (``renderer.bundle``): a ``catalogue.FILE_BUNDLES``
    calculator's, e.g. ``{"sqlite": bytes}``. Raises RuntimeError if the default inputs do not compute (a broken
    default would ship an error page)."""
    bundle = renderer.bundle if bundle is None else bundle
    res = catalogue.run(bundle, {"calc": name, **params})
    if not res["ok"]:
        raise RuntimeError(f"default {name} calculation failed: {res['error']}")
    links = " · ".join(
        f'<a id="calc-dl-{escape(k)}" download="{escape(d["filename"])}" href="{_data_url(d["mime"], d["text"])}">{escape(d["label"])}</a>'
        for k, d in res["downloads"].items())
    xlsx = report_link(renderer, name, params, bundle)
    permalink = urlencode({k: v for k, v in params.items() if v})
    chart = ""
    if res.get("chart"):
        chart = (f'<div class="atlas-chart" data-chart-id="calc-chart"></div>'
                 f'<script type="application/json" id="calc-chart">{json_for_html(res["chart"])}</script>')
    else:
        chart = '<div class="atlas-chart" data-chart-id="calc-chart" hidden></div>'
    return f"""
<div id="atlas-calculator" class="atlas-calculator" data-calculator="{escape(name)}" data-timeout-ms="{timeout_ms}">
<form class="atlas-form" method="get" action="./" novalidate>
{form_html}
  <button type="submit" class="md-button md-button--primary" id="calc-run">Compute</button>
</form>
<div id="atlas-calc-status" class="atlas-status" role="status" aria-live="polite">Showing the result computed when this site was built, for the default inputs. The interactive calculator needs JavaScript; it runs Python (Pyodide) loaded from this site.</div>
<div id="atlas-calc-message" class="atlas-message" role="alert" hidden></div>
<div class="atlas-downloads">Download: <span id="atlas-calc-downloads">{links}</span> · {xlsx} · <a id="calc-permalink" href="?{escape(permalink)}">Permalink</a> <button type="button" id="calc-print" class="md-button atlas-print-button" hidden>Print report</button></div>
{chart}
<div id="atlas-calc-result" data-prerendered="true">{res['html']}</div>
</div>
"""


XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def report_link(renderer, name: str, params: dict, bundle: dict | None = None) -> str:
    """The "XLSX" link of the prerendered result: its report (``calculators.report``, written by ``reportxlsx``)
    as a file of the site, ``assets/reports/<name>-default.<hash>.xlsx`` (named by its content; handed to the
    page writer through ``renderer.files``), so the page itself stays light. In the browser, calculator.js makes the
    XLSX of a result computed there when the reader clicks it (the worker loads the report pack then).
    ``bundle``: as ``shell``'s. Raises RuntimeError if the report fails."""
    import reportxlsx
    from ..assets import hashed_name
    rep = catalogue.report(renderer.bundle if bundle is None else bundle, {"calc": name, **params})
    if not rep["ok"]:
        raise RuntimeError(f"default {name} report failed: {rep['error']}")
    data = reportxlsx.write(rep["report"])
    rel = "assets/reports/" + hashed_name(f"{name}-default.xlsx", data)
    if hasattr(renderer, "files"):
        renderer.files[rel] = data
    return (f'<a id="calc-dl-xlsx" download="{escape(rep["report"]["filename"])}" href="../../{rel}" type="{XLSX_MIME}" '
            f'title="Inputs, results, totals, warnings, method and sources as one workbook">XLSX</a>')


def scenario_options(bundle: dict, scenarios: list[dict], selected: str, extra_attrs=None) -> str:
    """<option>s grouped by product; ``extra_attrs(s)`` adds data- attributes."""
    names = {s["id"]: s["short_name"] for s in bundle["sources"]}
    by_doc: dict[str, list[dict]] = {}
    for s in scenarios:
        by_doc.setdefault(s["doc"], []).append(s)
    out = []
    for doc, items in by_doc.items():
        out.append(f'<optgroup label="{escape(names.get(doc, doc))}">')
        for s in items:
            sel = " selected" if s["id"] == selected else ""
            attrs = extra_attrs(s) if extra_attrs else ""
            out.append(f'<option value="{escape(s["id"])}"{attrs}{sel}>{escape(names.get(doc, doc))} {escape(s.get("section") or "")}: '
                       f'{escape(s.get("short_title") or s["title"])}</option>')
        out.append("</optgroup>")
    return "".join(out)


def nothing_to_compute(what: str) -> str:
    """A warning box in place of a calculator whose data (``what``, e.g. "DSR") is not curated."""
    return f'<div class="admonition warning"><p>No {escape(what)} data is curated, so this calculator has nothing to compute.</p></div>'
