"""The Oracle BSF guide: measured by Kubernetes resource tables (the defaults of ``atlas.guides``); it provides the
site's worked examples and defaults named below. This module's document id is its name."""
from __future__ import annotations

EXAMPLES = {
    "footprint": "bsf:bsf-nbsf-rx",
    "asm": {"on": "bsf-3-2", "off": "bsf-3-1"},
    "compare": ("bsf-3-2", "bsf-3-3"),
    "sql": """-- BSF 3.3, Table 3-25: replicas and CPU request per service and container
SELECT service, container, replicas, cpu_request_cores
FROM bsf_resources
WHERE scenario = 'bsf-3-3' AND table_id = '3-25'
ORDER BY row;""",
}
"""``footprint``: the footprint calculator's default request, BSF's nBSF + Rx call model at the load of its largest
run (BSF 3.3, 63,000 TPS) on one site, sized from its three comparable runs. ``asm``: BSF 3.2 (ASM on), the ASM
calculator's default, and the method page's pair against BSF 3.1 (ASM off; the call models differ, so the pair is
refused as not comparable: the example shows why). ``compare``: BSF 3.2 against BSF 3.3. ``sql``: the datasets
page's example query (tests/test_datasets.py runs it on the built file)."""
