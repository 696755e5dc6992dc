"""calculators/footprint.py's memory rules on made-up pods, every figure worked out by hand in the comments: a memory
reading printed in GiB, and the cnDBTier data nodes sized from a data size with and without an observed fill
(NoOfReplicas = 2: MySQL NDB Cluster's data nodes hold each fragment twice, one node group = 2 nodes)."""
from __future__ import annotations

from fractions import Fraction

from calculators import footprint


def test_memory_read_in_gib_scales_with_the_load():
    """A pod of 3 replicas requesting 4 GiB each; its memory printed as 3 GiB used (Table M1 row 2, absolute, in GiB).
    At twice the load: 3 x 2 = 6 GiB, / 4 GiB per pod = 1.5 -> 2 replicas. Without reading the GiB figure it would
    assume the full request, 3 x 4 = 12 GiB x 2 / 4 = 6 replicas."""
    main = {"container": "app", "mem_request_gib": 4, "mem_limit_gib": 8}
    ctx = {"mem_util": [{"service": "svc", "reads": "app", "observed_abs": 3, "abs_unit": "GiB", "observed_percent": None,
                         "table_id": "M1", "row": 2}],
           "states": [{"factor": Fraction(1)}, {"factor": Fraction(2)}], "holds": {}}
    n, how, used = footprint._memory_need(3, main, ctx, "svc")
    assert (n, used) == (2, 3)
    assert how == "3 GiB observed (Table M1 row 2) x 2 / 4 GiB -> 2 (assumed to grow with load: conservative)"


def _data_nodes(fill_percent):
    main = {"container": "app", "mem_request_gib": 100}
    mem = [] if fill_percent is None else [{"service": "ndbmtd", "reads": "app", "observed_percent": fill_percent,
                                            "site": "", "table_id": "M2", "row": 5}]
    out = {"notes": []}
    footprint._size_data_nodes(4, main, {"mem_util": mem, "data_size": Fraction(300)}, out)
    return out


def test_data_nodes_from_a_data_size_without_an_observed_fill():
    """300 GiB per copy on data nodes of 100 GiB, no fill observed: 100 % of the request, 300 / 100 = 3 node groups
    -> 6 data nodes; the note says the full request was taken."""
    out = _data_nodes(None)
    assert out["replicas"] == 6
    assert "-> 3 node group(s) x 2; no memory observation in the source; every site holds a full copy" in out["detail"]
    assert out["notes"][0].endswith("the fill the benchmark ran at is taken as the ceiling; with no observation, "
                                    "100 % of the request")


def test_data_nodes_from_a_data_size_at_the_observed_fill():
    """The same at a 50 % fill observed (Table M2 row 5): 300 / (100 x 50 %) = 6 node groups -> 12 data nodes."""
    out = _data_nodes(50)
    assert out["replicas"] == 12
    assert out["notes"][0].endswith("the fill the benchmark ran at is taken as the ceiling")
    assert "300 GiB per copy / (100 GiB x 50 % fill) -> 6 node group(s) x 2; memory 50 % observed (Table M2 row 5)" \
        in out["detail"]
