"""The own-deployment CSV's note on each workload it read: how the workload met a service of the guide, or why it
counts for none (calculators/deployment_report.py)."""
from __future__ import annotations

import csv
import io

from calculators import deployment_report as dr

TOP = ("POD NAME CPU(cores) MEMORY(bytes)\n"
       "ocpcf-occnp-ingress-gateway-7d9c5b-x2k1l ingress-gateway 500m 1Gi\n"
       "my-log-shipper-x7k2p app 10m 64Mi\n"
       "perf-probe-x7k2q app 10m 64Mi\n"
       "stray-thing-x7k2r app 10m 64Mi\n")


def test_each_workload_note_says_how_it_met_its_service_or_why_it_counts_for_none(bundle):
    """ingress-gateway is named as the Policy guide names it; the log shipper is mapped to nothing by hand (left out:
    read, not counted); the probe is mapped to perf-info by hand; stray-thing meets nothing."""
    params = {"product": "policy", "call_model": "pcf-sm", "load": "10000", "top": TOP,
              "mapping": '{"?/my-log-shipper": "", "?/perf-probe": "perf-info"}'}
    rows = list(csv.reader(io.StringIO(dr.result_csv(dr.compute_web(bundle, params)))))
    notes = {r[2]: r[-1] for r in rows if r[0] == "workload"}
    assert notes == {"?/ocpcf-occnp-ingress-gateway": "matched by name", "?/my-log-shipper": "left out by your mapping",
                     "?/perf-probe": "matched by your mapping", "?/stray-thing": "unmatched"}
