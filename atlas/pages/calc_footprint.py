"""The footprint calculator's page: its form (every input of ``calculators.footprint``) and default inputs: a
planner's request sized from the comparable runs (PCF SM, 50,000 TPS on two sites, N+1, 64-core / 256 GiB nodes)."""
from __future__ import annotations

from html import escape
from urllib.parse import urlencode

from calculators import evidence, footprint as fp
from calculators.scenario import asm_on, traffic_sites

from .calculator_shell import scenario_options, shell



def footprint_defaults(bundle: dict) -> dict:
    """Default inputs: the comparable runs of the call model a guide provides as the default (bundle ``examples``,
    ``footprint``: BSF's nBSF + Rx, at the load of its largest run, 63,000 TPS), else the first call model with runs,
    on one site; without curated call models, the first scalable run at its own load."""
    models = evidence.call_models(bundle)
    base = {"scenario": "", "target": "", "redundancy": "none", "asm": "keep", "asm_from": "", "sidecar_cpu": "", "sidecar_mem": "",
            "min_replicas": "1", "node_cores": "", "node_mem": "", "mode": "", "sessions": ""}
    if models:
        first = (bundle.get("examples") or {}).get("footprint")
        m = next((m for m in models if f"{m['doc']}:{m['id']}" == first), models[0])
        top = max((s for s in bundle["scenarios"] if s["id"] in m["runs"]), key=lambda s: s["load_per_site"])
        return dict(base, call_model=f"{m['doc']}:{m['id']}", load=f"{top['load_per_site']:g}", sites="1")
    s = fp.scenarios_with_resources(bundle)[0]
    return dict(base, call_model="", scenario=s["id"], **_run_load(bundle, s["id"]))


def _run_load(bundle: dict, sid: str) -> dict:
    s = next(x for x in bundle["scenarios"] if x["id"] == sid)
    n = traffic_sites(s)
    return {"load": f"{s['load_per_site'] * n:g}", "sites": str(n)}


def _call_model_options(bundle: dict, selected: str) -> str:
    """<option>s of every curated call model with runs, grouped by product; each names its runs' unit (data-unit)."""
    names = {s["id"]: s["short_name"] for s in bundle["sources"]}
    units = {s["id"]: s.get("load_unit") or "" for s in bundle["sources"]}
    out, doc_open = [], None
    for m in evidence.call_models(bundle):
        if m["doc"] != doc_open:
            out.append(("</optgroup>" if doc_open else "") + f'<optgroup label="{escape(names.get(m["doc"], m["doc"]))}">')
            doc_open = m["doc"]
        v = f"{m['doc']}:{m['id']}"
        n = len(m["runs"])
        out.append(f'<option value="{escape(v)}" data-unit="{escape(units.get(m["doc"], ""))}"{" selected" if v == selected else ""}>'
                   f'{escape(names.get(m["doc"], m["doc"]))}: {escape(m["name"])} ({n} run{"s" if n != 1 else ""})</option>')
    return "".join(out) + ("</optgroup>" if doc_open else "")


def _mode_options(bundle: dict, selected: str) -> str:
    modes = []
    for m in evidence.call_models(bundle):
        for x in m["modes"]:
            if x and x not in modes:
                modes.append(x)
    return (f'<option value=""{" selected" if not selected else ""}>any</option>'
            + "".join(f'<option value="{escape(x)}"{" selected" if x == selected else ""}>{escape(x)}</option>' for x in modes))


REDUNDANCY_WORDS = {"n+1": "N+1", "mated-pair": "mated pairs", "none": "no georedundancy"}


def _example_link(bundle: dict) -> str:
    """The worked example a guide provides (bundle ``examples``, ``footprint_worked``: the form's parameters) as a
    link that fills the form, its words made from those parameters and the call model's runs; '' without one."""
    ex = (bundle.get("examples") or {}).get("footprint_worked")
    m = next((m for m in evidence.call_models(bundle) if ex and f"{m['doc']}:{m['id']}" == ex.get("call_model")), None)
    if m is None:
        return ""
    unit = next((s.get("load_unit") for s in bundle["sources"] if s["id"] == m["doc"]), None) or "TPS"
    product = next((s.get("short_name") for s in bundle["sources"] if s["id"] == m["doc"]), m["doc"])
    sites = int(ex.get("sites") or 1)
    words = [f"{product} {m['name']} for {float(ex['load']):,.0f} {unit} on {sites} site{'s' if sites != 1 else ''}"]
    if ex.get("redundancy"):
        words.append(REDUNDANCY_WORDS.get(ex["redundancy"], ex["redundancy"]))
    if ex.get("node_cores") and ex.get("node_mem"):
        words.append(f"{ex['node_cores']}-core / {ex['node_mem']} GiB nodes")
    return (f'<p class="atlas-note">Example: <a id="calc-example" href="?{escape(urlencode(ex))}">{escape(", ".join(words))}'
            f'</a>, sized from its {len(m["runs"])} comparable runs.</p>')


def page(renderer) -> str:
    """The footprint calculator page body (``{{ footprint_calculator() }}``), prerendered for the default inputs."""
    bundle = renderer.bundle
    d = footprint_defaults(bundle)
    scen = fp.scenarios_with_resources(bundle)
    unit = next((s.get("load_unit") for s in bundle["sources"] if s["id"] == d["call_model"].partition(":")[0]), None) or \
        next((s["load_unit"] for s in scen if s["id"] == d["scenario"]), "TPS")
    opts = ('<option value=""' + (" selected" if not d["scenario"] else "") + '>the comparable runs of the call model above '
            '(recommended)</option>' + scenario_options(bundle, scen, d["scenario"], lambda s: (
                f' data-unit="{escape(s["load_unit"] or "")}" data-load="{s["load_per_site"]:g}" data-sites="{traffic_sites(s)}"')))
    asm_scen = [s for s in bundle["scenarios"] if asm_on(s)
                and s["id"] in {x["scenario"] for x in bundle["resources"] if x["is_sidecar"]}]
    asm_opts = '<option value="" selected>every ASM scenario of the product (per service, else median)</option>' + \
        scenario_options(bundle, asm_scen, "")
    sel = lambda v, x: " selected" if v == x else ""
    form = f"""
  {_example_link(bundle)}
  <label>Call model (the guide's name; product first) <select name="call_model" id="calc-call-model" data-sets-load="load">{_call_model_options(bundle, d['call_model'])}</select></label>
  <label>Deployment mode <select name="mode" id="calc-mode">{_mode_options(bundle, d['mode'])}</select></label>
  <label>ASM (Istio sidecars) <select name="asm" id="calc-asm"><option value="keep"{sel(d['asm'], 'keep')}>either: as in the runs (keep)</option><option value="remove"{sel(d['asm'], 'remove')}>off: remove sidecars</option><option value="add"{sel(d['asm'], 'add')}>on: add sidecars to pods without one</option></select></label>
  <label><span>Target load, total (<span class="atlas-unit">{escape(unit)}</span>)</span> <input name="load" id="calc-load" type="text" inputmode="decimal" value="{escape(d['load'])}" required></label>
  <label>Sites carrying traffic <input name="sites" id="calc-sites" type="number" min="1" max="64" step="1" value="{escape(d['sites'])}"></label>
  <label>Sites provisioned (empty = the sites carrying traffic; one run picked: the larger of those and the run's) <input name="sites_provisioned" id="calc-sites-provisioned" type="number" min="1" max="64" step="1" value=""></label>
  <label>Georedundancy <select name="redundancy" id="calc-redundancy"><option value="none"{sel(d['redundancy'], 'none')}>none: size for the normal load only</option><option value="n+1"{sel(d['redundancy'], 'n+1')}>N+1: the other sites absorb one lost site</option><option value="mated-pair"{sel(d['redundancy'], 'mated-pair')}>mated pair: a site carries its mate's traffic too</option></select></label>
  <label>Size from <select name="scenario" id="calc-scenario" data-sets-load="load" data-sets-sites="sites">{opts}</select></label>
  <label>Normal CPU ceiling (%, with georedundancy; default {fp.DEFAULT_NORMAL_CEILING}) <input name="normal_ceiling" id="calc-normal-ceiling" type="text" inputmode="decimal" value="" placeholder="{fp.DEFAULT_NORMAL_CEILING}"></label>
  <label>Failover CPU ceiling (%, with georedundancy; default {fp.DEFAULT_FAILOVER_CEILING}) <input name="failover_ceiling" id="calc-failover-ceiling" type="text" inputmode="decimal" value="" placeholder="{fp.DEFAULT_FAILOVER_CEILING}"></label>
  <label>Target CPU utilization of traffic services (% of request; empty = printed HPA target, else the ceiling, else proportional) <input name="target" id="calc-target" type="text" inputmode="decimal" value="" placeholder="e.g. 70"></label>
  <label>Database CPU target (ndbappmysqld and other database services; empty = printed HPA target) <input name="db_target" id="calc-db-target" type="text" inputmode="decimal" value="" placeholder="e.g. 70"></label>
  <label>Sidecar CPU ceiling (% of the sidecar's limit; empty = printed HPA target, else 100) <input name="sidecar_target" id="calc-sidecar-target" type="text" inputmode="decimal" value="" placeholder="100"></label>
  <label>Sessions, bindings or subscribers held, total (optional; sizes the memory of the services that hold them, against the count printed for the run) <input name="sessions" id="calc-sessions" type="text" inputmode="decimal" value=""></label>
  <label>Data size per copy (GiB, optional; sizes cnDBTier data nodes, else the baseline's are kept) <input name="data_size" id="calc-data-size" type="text" inputmode="decimal" value=""></label>
  <label>Size added sidecars from <select name="asm_from" id="calc-asm-from">{asm_opts}</select></label>
  <label>…or your sidecar CPU (cores per sidecar) <input name="sidecar_cpu" id="calc-sidecar-cpu" type="text" inputmode="decimal" value="" placeholder="e.g. 2"></label>
  <label>…and memory (GiB per sidecar) <input name="sidecar_mem" id="calc-sidecar-mem" type="text" inputmode="decimal" value="" placeholder="e.g. 1"></label>
  <label>Minimum replicas per scaled service <input name="min_replicas" id="calc-min" type="number" min="1" max="1000" step="1" value="1"></label>
  <label>Worker node CPU (cores, optional) <input name="node_cores" id="calc-node-cores" type="text" inputmode="decimal" value="{escape(d['node_cores'])}"></label>
  <label>Worker node memory (GiB, optional) <input name="node_mem" id="calc-node-mem" type="text" inputmode="decimal" value="{escape(d['node_mem'])}"></label>
  <label>Node reservations <select name="node_reserve" id="calc-node-reserve"><option value="gke" selected>GKE tiers (kubelet, system, 100 MiB eviction)</option><option value="custom">mine (below)</option></select></label>
  <label>…my reserved CPU (cores per node) <input name="reserve_cpu" id="calc-reserve-cpu" type="text" inputmode="decimal" value=""></label>
  <label>…my reserved memory (GiB per node) <input name="reserve_mem" id="calc-reserve-mem" type="text" inputmode="decimal" value=""></label>
  <label>DaemonSets per node: CPU (cores) <input name="ds_cpu" id="calc-ds-cpu" type="text" inputmode="decimal" value="" placeholder="0"></label>
  <label>DaemonSets per node: memory (GiB) <input name="ds_mem" id="calc-ds-mem" type="text" inputmode="decimal" value="" placeholder="0"></label>
  <label>Max pods per node <input name="max_pods" id="calc-max-pods" type="number" min="1" max="1000" step="1" value="" placeholder="110"></label>
  <label>Spare nodes per site (N+1 = 1) <input name="spare_nodes" id="calc-spare-nodes" type="number" min="0" max="100" step="1" value="" placeholder="0"></label>"""
    return shell(renderer, "footprint", form, d)
