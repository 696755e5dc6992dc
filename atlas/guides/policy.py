"""The Oracle Communications Cloud Native Core Policy (PCF/PCRF) guide: measured by Kubernetes resource tables (the
defaults of ``atlas.guides``); it provides the footprint page's worked example. This module's document id is its
name."""
from __future__ import annotations

EXAMPLES = {
    "footprint_worked": {"call_model": "policy:pcf-sm", "load": "50000", "sites": "2", "redundancy": "n+1",
                         "node_cores": "64", "node_mem": "256"},
}
"""The worked example the footprint page links: "size PCF, SM call model, for 50,000 TPS on two sites, N+1, 64-core /
256 GiB nodes" (the planner of the sizing-from-evidence issue)."""
