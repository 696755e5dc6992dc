"""The footprint calculator's page: its form (every input of ``calculators.footprint``) and default
inputs, the BSF 63K TPS scenario at its own load."""
from __future__ import annotations

from html import escape

from calculators import footprint as fp
from calculators.scenario import asm_on, benchmark_load, traffic_sites

from .calculator_shell import scenario_options, shell

DEFAULT_SCENARIO = "bsf-3-3"


def footprint_defaults(bundle: dict) -> dict:
    """Default inputs: the BSF 63K TPS scenario (or the first scalable one) at its own load."""
    scen = fp.scenarios_with_resources(bundle)
    s = next((x for x in scen if x["id"] == DEFAULT_SCENARIO), scen[0])
    return {"scenario": s["id"], "load": f"{benchmark_load(s):g}", "target": "", "sites": str(traffic_sites(s)), "redundancy": "none",
            "asm": "keep", "asm_from": "", "sidecar_cpu": "", "sidecar_mem": "", "min_replicas": "1", "node_cores": "", "node_mem": ""}


def page(r) -> str:
    """The footprint calculator page body (``{{ footprint_calculator() }}``), prerendered for the default inputs."""
    bundle = r.bundle
    d = footprint_defaults(bundle)
    scen = fp.scenarios_with_resources(bundle)
    unit = next(s["load_unit"] for s in scen if s["id"] == d["scenario"])
    opts = scenario_options(bundle, scen, d["scenario"], lambda s: (
        f' data-unit="{escape(s["load_unit"] or "")}" data-load="{s["load_per_site"]:g}" data-sites="{traffic_sites(s)}"'))
    asm_scen = [s for s in bundle["scenarios"] if asm_on(s)
                and s["id"] in {x["scenario"] for x in bundle["resources"] if x["is_sidecar"]}]
    asm_opts = '<option value="" selected>every ASM scenario of the product (per service, else median)</option>' + \
        scenario_options(bundle, asm_scen, "")
    form = f"""
  <label>Baseline scenario <select name="scenario" id="calc-scenario" data-sets-load="load" data-sets-sites="sites">{opts}</select></label>
  <label><span>Target load, total (<span class="atlas-unit">{escape(unit)}</span>)</span> <input name="load" id="calc-load" type="text" inputmode="decimal" value="{escape(d['load'])}" required></label>
  <label>Sites carrying traffic <input name="sites" id="calc-sites" type="number" min="1" max="64" step="1" value="{escape(d['sites'])}"></label>
  <label>Sites provisioned (empty = as the baseline: the larger of the sites carrying traffic and the baseline's) <input name="sites_provisioned" id="calc-sites-provisioned" type="number" min="1" max="64" step="1" value=""></label>
  <label>Georedundancy <select name="redundancy" id="calc-redundancy"><option value="none" selected>none: size for the normal load only</option><option value="n+1">N+1: the other sites absorb one lost site</option><option value="mated-pair">mated pair: a site carries its mate's traffic too</option></select></label>
  <label>Normal CPU ceiling (%, with georedundancy; default {fp.DEFAULT_NORMAL_CEILING}) <input name="normal_ceiling" id="calc-normal-ceiling" type="text" inputmode="decimal" value="" placeholder="{fp.DEFAULT_NORMAL_CEILING}"></label>
  <label>Failover CPU ceiling (%, with georedundancy; default {fp.DEFAULT_FAILOVER_CEILING}) <input name="failover_ceiling" id="calc-failover-ceiling" type="text" inputmode="decimal" value="" placeholder="{fp.DEFAULT_FAILOVER_CEILING}"></label>
  <label>Target CPU utilization of traffic services (% of request; empty = printed HPA target, else the ceiling, else proportional) <input name="target" id="calc-target" type="text" inputmode="decimal" value="" placeholder="e.g. 70"></label>
  <label>Database CPU target (ndbappmysqld and other database services; empty = printed HPA target) <input name="db_target" id="calc-db-target" type="text" inputmode="decimal" value="" placeholder="e.g. 70"></label>
  <label>Sidecar CPU ceiling (% of the sidecar's limit; empty = printed HPA target, else 100) <input name="sidecar_target" id="calc-sidecar-target" type="text" inputmode="decimal" value="" placeholder="100"></label>
  <label>Data size per copy (GiB, optional; sizes cnDBTier data nodes, else the baseline's are kept) <input name="data_size" id="calc-data-size" type="text" inputmode="decimal" value=""></label>
  <label>ASM sidecars <select name="asm" id="calc-asm"><option value="keep" selected>keep as in the baseline</option><option value="remove">remove</option><option value="add">add to pods without one</option></select></label>
  <label>Size added sidecars from <select name="asm_from" id="calc-asm-from">{asm_opts}</select></label>
  <label>…or your sidecar CPU (cores per sidecar) <input name="sidecar_cpu" id="calc-sidecar-cpu" type="text" inputmode="decimal" value="" placeholder="e.g. 2"></label>
  <label>…and memory (GiB per sidecar) <input name="sidecar_mem" id="calc-sidecar-mem" type="text" inputmode="decimal" value="" placeholder="e.g. 1"></label>
  <label>Minimum replicas per scaled service <input name="min_replicas" id="calc-min" type="number" min="1" max="1000" step="1" value="1"></label>
  <label>Worker node CPU (cores, optional) <input name="node_cores" id="calc-node-cores" type="text" inputmode="decimal" value=""></label>
  <label>Worker node memory (GiB, optional) <input name="node_mem" id="calc-node-mem" type="text" inputmode="decimal" value=""></label>
  <label>Node reservations <select name="node_reserve" id="calc-node-reserve"><option value="gke" selected>GKE tiers (kubelet, system, 100 MiB eviction)</option><option value="custom">mine (below)</option></select></label>
  <label>…my reserved CPU (cores per node) <input name="reserve_cpu" id="calc-reserve-cpu" type="text" inputmode="decimal" value=""></label>
  <label>…my reserved memory (GiB per node) <input name="reserve_mem" id="calc-reserve-mem" type="text" inputmode="decimal" value=""></label>
  <label>DaemonSets per node: CPU (cores) <input name="ds_cpu" id="calc-ds-cpu" type="text" inputmode="decimal" value="" placeholder="0"></label>
  <label>DaemonSets per node: memory (GiB) <input name="ds_mem" id="calc-ds-mem" type="text" inputmode="decimal" value="" placeholder="0"></label>
  <label>Max pods per node <input name="max_pods" id="calc-max-pods" type="number" min="1" max="1000" step="1" value="" placeholder="110"></label>
  <label>Spare nodes per site (N+1 = 1) <input name="spare_nodes" id="calc-spare-nodes" type="number" min="0" max="100" step="1" value="" placeholder="0"></label>"""
    return shell(r, "footprint", form, d)
