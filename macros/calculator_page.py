"""The footprint calculator's form and its prerendered default result.

The result shown before any JavaScript runs is computed here, at build time,
by the same calculators.web.run the browser calls in Pyodide.
"""
from __future__ import annotations

import base64
import json
from html import escape

from calculators import footprint as fp, web

from .render import json_for_html

DEFAULT_SCENARIO = "bsf-3-3"


def defaults(bundle: dict) -> dict:
    """Default inputs: the BSF 63K TPS scenario (or the first scalable one) at its own load."""
    scen = fp.scenarios_with_resources(bundle)
    s = next((x for x in scen if x["id"] == DEFAULT_SCENARIO), scen[0])
    n = max(1, len(s["sites_with_traffic"]))
    load = s["load_per_site"] * n
    return {"scenario": s["id"], "load": f"{load:g}", "target": "", "sites": str(n), "failover": "", "asm": "keep",
            "node_cores": "", "node_mem": "", "min_replicas": "1"}


def _data_url(mime: str, text: str) -> str:
    return f"data:{mime};charset=utf-8;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


def footprint(r) -> str:
    bundle = r.bundle
    d = defaults(bundle)
    res = web.run(bundle, d)
    if not res["ok"]:
        raise RuntimeError(f"default footprint failed: {res['error']}")
    by_doc: dict[str, list[dict]] = {}
    for s in fp.scenarios_with_resources(bundle):
        by_doc.setdefault(s["doc"], []).append(s)
    names = {s["id"]: s["short_name"] for s in bundle["sources"]}
    opts = []
    for doc, items in by_doc.items():
        opts.append(f'<optgroup label="{escape(names.get(doc, doc))}">')
        for s in items:
            sel = " selected" if s["id"] == d["scenario"] else ""
            opts.append(f'<option value="{escape(s["id"])}" data-unit="{escape(s["load_unit"] or "")}" '
                        f'data-load="{s["load_per_site"]:g}" data-sites="{max(1, len(s["sites_with_traffic"]))}"{sel}>'
                        f'{escape(names.get(doc, doc))} {escape(s["section"] or "")}: {escape(s["short_title"])}</option>')
        opts.append("</optgroup>")
    unit = res["inputs"]["unit"]
    return f"""
<div id="atlas-calculator" class="atlas-calculator" data-calculator="footprint" data-timeout-ms="60000">
<form class="atlas-form" method="get" action="./" novalidate>
  <label>Baseline scenario <select name="scenario" id="calc-scenario">{''.join(opts)}</select></label>
  <label><span>Target load, total (<span class="atlas-unit">{escape(unit)}</span>)</span> <input name="load" id="calc-load" type="text" inputmode="decimal" value="{escape(d['load'])}" required></label>
  <label>Sites carrying traffic <input name="sites" id="calc-sites" type="number" min="1" max="64" step="1" value="{escape(d['sites'])}"></label>
  <label class="atlas-check"><input name="failover" id="calc-failover" type="checkbox" value="1"> Size each site to absorb a lost site (georedundant failover)</label>
  <label>Target CPU utilization (% of request; empty = printed HPA target, else proportional) <input name="target" id="calc-target" type="text" inputmode="decimal" value="" placeholder="e.g. 70"></label>
  <label>ASM sidecars <select name="asm" id="calc-asm"><option value="keep" selected>keep as in the baseline</option><option value="remove">remove</option></select></label>
  <label>Minimum replicas per scaled service <input name="min_replicas" id="calc-min" type="number" min="1" max="1000" step="1" value="1"></label>
  <label>Worker node CPU (cores, optional) <input name="node_cores" id="calc-node-cores" type="text" inputmode="decimal" value=""></label>
  <label>Worker node memory (GiB, optional) <input name="node_mem" id="calc-node-mem" type="text" inputmode="decimal" value=""></label>
  <button type="submit" class="md-button md-button--primary" id="calc-run">Compute</button>
</form>
<div id="atlas-calc-status" class="atlas-status" role="status" aria-live="polite">Showing the result computed when this site was built, for the default inputs. The interactive calculator needs JavaScript; it loads Python (Pyodide) from this site.</div>
<div id="atlas-calc-message" class="atlas-message" role="alert" hidden></div>
<div class="atlas-downloads">Download: <a id="calc-dl-csv" download="footprint.csv" href="{_data_url('text/csv', res['csv'])}">CSV</a> · <a id="calc-dl-helm" download="footprint-values.yaml" href="{_data_url('application/yaml', res['helm'])}">Helm values (YAML)</a> · <a id="calc-permalink" href="?{escape('&'.join(f'{k}={v}' for k, v in d.items() if v))}">Permalink</a></div>
<div class="atlas-chart" data-chart-id="calc-chart"></div>
<script type="application/json" id="calc-chart">{json_for_html(res['chart'])}</script>
<div id="atlas-calc-result" data-prerendered="true">{res['html']}</div>
</div>
"""
