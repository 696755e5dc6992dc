"""The over-target calculator's page: product, memory threshold, the HPA controller's Kubernetes version and the reader's
own services (CSV)."""
from __future__ import annotations

from html import escape

from calculators import overtarget as ot

from . import calculator_shell as cp


def page(renderer) -> str:
    """The over-target calculator page body (``{{ overtarget_calculator() }}``), prerendered for every product."""
    bundle = renderer.bundle
    d = ot.defaults()
    names = {s["id"]: s["short_name"] for s in bundle["sources"]}
    k8s = "".join(f'<option value="{escape(k)}"{" selected" if k == d["kubernetes"] else ""}>{escape(v)}</option>'
                  for k, v in ot.CONTROLLERS.items())
    prods = "".join(f'<option value="{escape(doc)}">{escape(names.get(doc, doc))}</option>' for doc in ot.products(bundle))
    form = f"""
  <label>Product <select name="product" id="calc-product"><option value="" selected>all products</option>{prods}</select></label>
  <label>Memory threshold (% observed; memory at or above is flagged) <input name="mem_threshold" id="calc-mem" type="text" inputmode="decimal" value="{escape(d['mem_threshold'])}"></label>
  <label>HPA controller (its tolerance test differs at a ratio of exactly 1.1) <select name="kubernetes" id="calc-kubernetes">{k8s}</select></label>
  <fieldset class="atlas-own"><legend>Check your own services (optional; stays in this browser, never in the link)</legend>
  <label><span>CSV with the header name,replicas,cpu_request,observed,target: cpu_request in cores per pod; observed as a percent (72%) or the cores all replicas used (3.5 cores); target a whole percent; optional columns min_replicas,max_replicas (the HPA's bounds)</span>
  <textarea name="csv" id="calc-csv" rows="5" data-no-permalink placeholder="name,replicas,cpu_request,observed,target,max_replicas&#10;my-gateway,50,4,90%,75,80"></textarea></label>
  <label>…or read a file (CSV, at most 1 MiB) <input type="file" id="calc-csv-file" accept=".csv,text/csv,text/plain" data-into="csv" data-max-bytes="{ot.MAX_BYTES}"></label>
  </fieldset>"""
    return cp.shell(renderer, "overtarget", form, d)
