"""The "Your deployment" calculator's page (``{{ deployment_calculator() }}``): product, call model, the load your site
carried, what kubectl printed (pasted, dropped or imported; it stays in the browser and never goes into the address),
the HPA controller's version, and a target load to scale your own deployment. docs/assets/js/deployment.js turns
``kubectl get -o yaml`` into JSON with js-yaml (self-hosted, assets/vendor/js-yaml/) before Python sees it, maps
unmatched workloads by hand, exports and imports the inputs as a file, and loads the examples
(docs/assets/examples/deployment/, written by tools/make_deployment_examples.py)."""
from __future__ import annotations

import json
from html import escape
from pathlib import Path

from calculators import deployment as dp
from calculators import deployment_inputs as di
from calculators import deployment_report as dr
from calculators import overtarget as ot

from . import calculator_shell as cp

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "assets" / "examples" / "deployment" / "examples.json"
"""The examples the page offers: written by tools/make_deployment_examples.py with the files under
assets/examples/deployment/, each with the run it is built from and that run's product, call model and load per site."""


def _examples(renderer) -> str:
    try:
        items = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    runs = {s["id"] for s in renderer.bundle["scenarios"]}
    return " ".join(
        f'<button type="button" class="md-button atlas-example" data-example="{escape(e["id"])}" '
        f'data-objects="../../assets/examples/deployment/{escape(e["objects"])}" '
        f'data-top="../../assets/examples/deployment/{escape(e["top"])}" data-product="{escape(e["product"])}" '
        f'data-call-model="{escape(e["call_model"])}" data-load="{escape(e["load"])}">{escape(e["label"])}</button>'
        for e in items if e["scenario"] in runs)


def page(renderer) -> str:
    """The "Your deployment" page body, prerendered for the default inputs (the vendor's comparable runs of the first
    product; nothing of yours)."""
    b = renderer.bundle
    d = dr.defaults(b)
    prods = dp.products(b)
    popts = "".join(f'<option value="{escape(p["doc"])}" data-unit="{escape(p["unit"])}"{" selected" if p["doc"] == d["product"] else ""}>'
                    f'{escape(p["name"])}</option>' for p in prods)
    copts = "".join(f'<option value="{escape(m["id"])}" data-doc="{escape(p["doc"])}"'
                    f'{" selected" if p["doc"] == d["product"] and m["id"] == d["call_model"] else ""}'
                    f'{"" if p["doc"] == d["product"] else " disabled"}>{escape(p["name"])}: {escape(m["name"])}</option>'
                    for p in prods for m in p["call_models"])
    k8s = "".join(f'<option value="{escape(k)}"{" selected" if k == d["kubernetes"] else ""}>{escape(v)}</option>'
                  for k, v in ot.CONTROLLERS.items())
    units = ", ".join(f'{p["name"]}: {p["unit"]}' for p in prods)
    form = f"""
  <label>Product <select name="product" id="calc-product">{popts}</select></label>
  <label>Call model (the vendor's comparable runs) <select name="call_model" id="calc-call-model" data-same-doc-as="product">{copts}</select></label>
  <label>Load your site carried when observed, in the product's unit ({escape(units)}) <input name="load" id="calc-load" type="text" inputmode="decimal" value="{escape(d['load'])}"></label>
  <label>HPA controller (its tolerance test differs at a ratio of exactly 1.1) <select name="kubernetes" id="calc-kubernetes">{k8s}</select></label>
  <fieldset class="atlas-own" id="deployment-inputs"><legend>Your cluster: stays in this browser, never in the link or sent anywhere</legend>
  <p class="atlas-note">Try an example: {_examples(renderer)}</p>
  <label><span>What <code>kubectl get deployments,statefulsets,hpa -o json</code> (or <code>-o yaml</code>) prints, for one site</span>
  <textarea id="deployment-objects-text" rows="6" spellcheck="false" placeholder='{{"apiVersion": "v1", "kind": "List", "items": [...]}}'></textarea></label>
  <textarea name="objects" id="calc-objects" hidden data-no-permalink aria-hidden="true"></textarea>
  <label>…or read a file (JSON or YAML, at most {di.MAX_BYTES // 1048576} MiB) <input type="file" id="deployment-objects-file" accept=".json,.yaml,.yml,application/json,text/yaml,text/plain" data-max-bytes="{di.MAX_BYTES}"></label>
  <label><span>What <code>kubectl top pods -A --containers</code> prints (with or without -A)</span>
  <textarea name="top" id="calc-top" rows="5" spellcheck="false" data-no-permalink placeholder="NAMESPACE   POD   NAME   CPU(cores)   MEMORY(bytes)"></textarea></label>
  <label>…or read a file (text, at most {di.MAX_BYTES // 1048576} MiB) <input type="file" id="deployment-top-file" accept=".txt,text/plain" data-into="top" data-max-bytes="{di.MAX_BYTES}"></label>
  <textarea name="mapping" id="calc-mapping" hidden data-no-permalink aria-hidden="true"></textarea>
  <p><button type="button" class="md-button" id="deployment-export">Export inputs</button>
  <label class="atlas-inline">Import inputs <input type="file" id="deployment-import" accept=".json,application/json"></label>
  <span id="deployment-io-status" class="atlas-note" role="status" aria-live="polite"></span></p>
  </fieldset>
  <fieldset><legend>Scale your own (optional)</legend>
  <label>Target load, total over the sites carrying traffic <input name="target_load" id="calc-target-load" type="text" inputmode="decimal" value=""></label>
  <label>Number of sites carrying traffic <input name="target_sites" id="calc-target-sites" type="text" inputmode="numeric" value="" placeholder="1"></label>
  <label>Georedundancy <select name="redundancy" id="calc-redundancy"><option value="" selected>none</option><option value="n+1">N+1</option><option value="mated-pair">mated pair</option></select></label>
  <label>Worker node CPU (cores) <input name="node_cores" id="calc-node-cores" type="text" inputmode="decimal" value=""></label>
  <label>Worker node memory (GiB) <input name="node_mem" id="calc-node-mem" type="text" inputmode="decimal" value=""></label>
  </fieldset>"""
    return cp.shell(renderer, "deployment", form, d)
