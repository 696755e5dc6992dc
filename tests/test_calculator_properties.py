"""Property tests (hypothesis) for the footprint, ASM and over-target calculators: monotone in the load,
whole non-negative replicas, and only the documented exception for bad input. Examples are kept few so the
file runs in seconds."""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from calculators import asm, footprint, overtarget as ot
from calculators.asm import AsmError
from calculators.footprint import FootprintError
from calculators.overtarget import OverTargetError

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def scalable(bundle):
    return [s["id"] for s in footprint.scenarios_with_resources(bundle)]


def _check_rows(res):
    for r in res["rows"]:
        n = r["replicas_after"]
        if n is not None:
            assert isinstance(n, int) and not isinstance(n, bool) and n >= 0
        for k in ("cpu_request_after", "mem_request_after", "cpu_limit_after", "mem_limit_after"):
            v = r[k]
            assert v is None or (math.isfinite(v) and v >= 0)
    for k, v in res["totals"]["deployment"].items():
        assert math.isfinite(v) and v >= 0


@FAST
@given(data=st.data(), a=st.floats(0.01, 50), b=st.floats(0.01, 50), target=st.one_of(st.none(), st.integers(1, 100)),
       asm_mode=st.sampled_from(["keep", "remove", "add"]), failover=st.booleans())
def test_footprint_never_shrinks_when_load_grows(bundle, scalable, data, a, b, target, asm_mode, failover):
    sid = data.draw(st.sampled_from(scalable))
    s = next(x for x in bundle["scenarios"] if x["id"] == sid)
    sites = max(2, len(s["sites_with_traffic"]))
    extra = {}
    if asm_mode == "add" and not footprint.asm_scenarios(bundle, s["doc"]):
        extra = {"sidecar_cpu": "1", "sidecar_mem": "1"}
    lo, hi = sorted((a, b))
    base = s["load_per_site"] * sites
    kw = dict(target_cpu_percent=target, sites=sites, failover=failover, asm=asm_mode, **extra)
    r1 = footprint.compute(bundle, sid, base * lo, **kw)
    r2 = footprint.compute(bundle, sid, base * hi, **kw)
    _check_rows(r1)
    _check_rows(r2)
    for x, y in zip(r1["rows"], r2["rows"]):
        assert (x["service"], x["container"]) == (y["service"], y["container"])
        if x["replicas_after"] is not None:
            assert y["replicas_after"] >= x["replicas_after"], (sid, x["service"])
    for k in ("cpu_request", "mem_request"):
        assert r2["totals"]["deployment"][k] >= r1["totals"]["deployment"][k] - 1e-9


BAD_LOADS = st.one_of(
    st.floats(max_value=0), st.just(float("nan")), st.just(float("inf")), st.just(float("-inf")),
    st.text(alphabet="abcxyz-+!% ", min_size=0, max_size=6), st.none(), st.booleans(),
)


@FAST
@given(load=BAD_LOADS)
def test_footprint_bad_load_raises_documented_error(bundle, load):
    with pytest.raises(FootprintError):
        footprint.compute(bundle, "bsf-3-3", load)


@FAST
@given(target=st.one_of(st.floats(max_value=0), st.floats(min_value=100.001, max_value=1e9), st.just("x")),
       sites=st.one_of(st.integers(max_value=0), st.integers(min_value=65), st.just("1.5")))
def test_footprint_bad_options_raise_documented_error(bundle, target, sites):
    with pytest.raises(FootprintError):
        footprint.compute(bundle, "bsf-3-3", 63000, target_cpu_percent=target)
    with pytest.raises(FootprintError):
        footprint.compute(bundle, "bsf-3-3", 63000, sites=sites)


@FAST
@given(cur=st.integers(0, 10000), o1=st.integers(0, 500), o2=st.integers(0, 500), target=st.integers(1, 100))
def test_hpa_desired_whole_and_monotone(cur, o1, o2, target):
    lo, hi = sorted((o1, o2))
    d1, d2 = ot.hpa_desired(cur, lo, target), ot.hpa_desired(cur, hi, target)
    assert isinstance(d1, int) and d1 >= 0 and d2 >= d1


@FAST
@given(text=st.text(max_size=300))
def test_own_csv_only_documented_errors(text):
    try:
        own, problems = ot.parse_own("name,replicas,cpu_request,observed,target\n" + text)
    except OverTargetError:
        return
    for o in own:
        assert isinstance(o["desired"], int) and o["desired"] >= 0 and math.isfinite(o["observed"])
    assert all(isinstance(p["line"], int) and p["line"] >= 2 for p in problems)


@FAST
@given(load=st.floats(0.05, 20))
def test_asm_whatif_remove_never_adds(bundle, load):
    w = asm.whatif(bundle, "bsf-3-3", "bsf-3-1", 63000 * load)
    assert w["remove"]["cpu_delta"] <= 0 and w["add"]["cpu_delta"] >= 0


@FAST
@given(on=st.text(max_size=10), off=st.text(max_size=10))
def test_asm_bad_scenarios_raise_documented_error(bundle, on, off):
    with pytest.raises(AsmError):
        asm.compare(bundle, on, off)


# ------------------------------------------------------------------ footprint sizing rules

@FAST
@given(data=st.data(), scale=st.floats(0.05, 30), target=st.one_of(st.none(), st.integers(1, 100)),
       redundancy=st.sampled_from(["none", "n+1", "mated-pair"]))
def test_capacity_never_below_demand(bundle, scalable, data, scale, target, redundancy):
    """For every row sized from observations: replicas x CPU request x target >= cores used x load ratio in every
    load state, and replicas x memory request >= memory used x the largest load ratio."""
    sid = data.draw(st.sampled_from(scalable))
    s = next(x for x in bundle["scenarios"] if x["id"] == sid)
    sites = max(2, len(s["sites_with_traffic"]))
    res = footprint.compute(bundle, sid, s["load_per_site"] * sites * scale, target_cpu_percent=target, sites=sites,
                            redundancy=redundancy)
    factors = {st_["state"]: st_["factor"] for st_ in res["states"]}
    for r in res["rows"]:
        d = r.get("demand")
        if not d:
            continue
        n = r["replicas_after"]
        for state, t in d["targets"].items():
            assert n * r["cpu_request"] * t / 100 >= d["cpu_used"] * factors[state] * (1 - 1e-9), (sid, r["service"], state)
        if d["mem_used"] is not None:
            assert n * r["mem_request"] >= d["mem_used"] * max(factors.values()) * (1 - 1e-9), (sid, r["service"])


@FAST
@given(data=st.data(), scale=st.floats(0.01, 50), target=st.one_of(st.none(), st.integers(1, 100)),
       failover=st.booleans(), extra_sites=st.integers(0, 3))
def test_data_nodes_never_below_baseline_and_whole_groups(bundle, scalable, data, scale, target, failover, extra_sites):
    sid = data.draw(st.sampled_from(scalable))
    s = next(x for x in bundle["scenarios"] if x["id"] == sid)
    sites = max(2, len(s["sites_with_traffic"])) + extra_sites
    res = footprint.compute(bundle, sid, s["load_per_site"] * scale, target_cpu_percent=target, sites=sites, failover=failover)
    for r in res["rows"]:
        if r["component"] == "cndbtier" and r["service"] == "ndbmtd" and r["replicas_before"]:
            assert r["replicas_after"] >= r["replicas_before"]
            assert r["replicas_after"] % footprint.NO_OF_REPLICAS == 0


@FAST
@given(pods=st.lists(st.tuples(st.integers(1, 16000), st.integers(1, 64 * 1024), st.integers(1, 12), st.booleans()),
                     min_size=1, max_size=25),
       cores=st.integers(16, 128), mem=st.integers(32, 1024), max_pods=st.integers(1, 110), ds=st.integers(0, 2000))
def test_packing_never_overfills_a_node(pods, cores, mem, max_pods, ds):
    """Random pods (millicores, MiB) on random nodes: no node above 100 % of its room, no more pods than max_pods, no two
    replicas of an anti-affinity set together (checked through the node count lower bound), every pod placed once."""
    from calculators import packing
    spec = [{"name": f"p{i}", "cpu": c / 1000, "mem": m / 1024, "count": n, "anti": a} for i, (c, m, n, a) in enumerate(pods)]
    try:
        res = packing.pack(spec, cores, mem, daemonset_cpu=ds / 1000, max_pods=max_pods)
    except packing.PackingError as e:
        assert "Pod p" in str(e) or "no room" in str(e)
        return
    assert all(f["cpu"] <= 100 + 1e-9 and f["mem"] <= 100 + 1e-9 and f["pods"] <= max_pods for f in res["fill"])
    assert sum(f["pods"] for f in res["fill"]) == sum(n for _, _, n, _ in pods)
    for i, (_, _, n, a) in enumerate(pods):
        if a:  # one replica of an anti-affinity set per node, on n different nodes
            assert sum(f"p{i}" in f["anti"] for f in res["fill"]) == n


def _first_fit_decreasing(items, room_c, room_m, max_pods):
    """A plain first-fit decreasing, written for this test: each item (millicores, KiB, name, anti) tried on every
    node from the first. Returns each node's (millicores, KiB, pods, anti names)."""
    nodes = []
    for c, m, name, anti in items:
        for n in nodes:
            if n[2] < max_pods and n[0] + c <= room_c and n[1] + m <= room_m and not (anti and name in n[3]):
                n[0] += c
                n[1] += m
                n[2] += 1
                if anti:
                    n[3].add(name)
                break
        else:
            nodes.append([c, m, 1, {name} if anti else set()])
    return [(c, m, k, sorted(a)) for c, m, k, a in nodes]


@FAST
@given(pods=st.lists(st.tuples(st.integers(1, 16000), st.integers(1, 64 * 1024), st.integers(1, 30), st.booleans()),
                     min_size=1, max_size=25),
       cores=st.integers(16, 128), mem=st.integers(32, 1024), max_pods=st.integers(1, 110))
def test_packing_places_pods_exactly_as_plain_first_fit_decreasing(pods, cores, mem, max_pods):
    """packing.pack skips nodes that refused the previous replica of the same service (it keeps the place it reached):
    on random pods its nodes, fill and pod counts equal those of a plain first-fit decreasing that tries every node."""
    from calculators import packing
    spec = [{"name": f"p{i}", "cpu": c / 1000, "mem": m / 1024, "count": n, "anti": a} for i, (c, m, n, a) in enumerate(pods)]
    try:
        res = packing.pack(spec, cores, mem, max_pods=max_pods)
    except packing.PackingError:
        return
    room_c, room_m = round(res["room"]["cpu"] * packing.MILLI), round(res["room"]["mem"] * packing.KIB_PER_GIB)
    items = []
    for i, (c, m, n, a) in enumerate(pods):
        kc, km = packing._milli(c / 1000), packing._kib(m / 1024)
        items += [(max(kc / room_c, km / room_m), kc, km, f"p{i}", a)] * n
    items.sort(key=lambda x: (-x[0], x[3]))
    want = _first_fit_decreasing([x[1:] for x in items], room_c, room_m, max_pods)
    got = [(round(f["cpu"] * room_c / 100), round(f["mem"] * room_m / 100), f["pods"], f["anti"]) for f in res["fill"]]
    assert got == want


# ------------------------------------------------------------------ sizing from the comparable runs

@pytest.fixture(scope="module")
def call_models(bundle):
    from calculators import evidence
    return [f"{m['doc']}:{m['id']}" for m in evidence.call_models(bundle)]


@FAST
@given(data=st.data(), a=st.floats(0.05, 4), b=st.floats(0.05, 4), sites=st.integers(1, 4),
       redundancy=st.sampled_from(["none", "n+1", "mated-pair"]), asm_mode=st.sampled_from(["keep", "remove", "add"]))
def test_comparable_runs_never_shrink_when_load_grows(bundle, call_models, data, a, b, sites, redundancy, asm_mode):
    """Sized from the comparable runs, a larger load never gives fewer replicas of any pod, nor smaller totals or
    fewer nodes: the anchor does not depend on the load and each pod's curve never falls as the load rises."""
    from calculators import evidence
    cm = data.draw(st.sampled_from(call_models))
    doc, _, mid = cm.partition(":")
    runs_ = next(m for m in evidence.call_models(bundle) if m["doc"] == doc and m["id"] == mid)["runs"]
    top = max(s["load_per_site"] for s in bundle["scenarios"] if s["id"] in runs_)
    if redundancy != "none" and sites < 2:
        sites = 2
    lo, hi = sorted((a, b))
    kw = dict(sites=sites, redundancy=redundancy, asm=asm_mode, node_cores=64, node_mem_gib=512)
    if asm_mode == "add" and not footprint.asm_scenarios(bundle, doc):
        kw.update(sidecar_cpu="1", sidecar_mem="1")
    r1 = footprint.recommend(bundle, cm, top * sites * lo, spread=False, **kw)
    r2 = footprint.recommend(bundle, cm, top * sites * hi, spread=False, **kw)
    _check_rows(r1)
    _check_rows(r2)
    assert r1["evidence"]["anchor"] == r2["evidence"]["anchor"]
    for x, y in zip(r1["rows"], r2["rows"]):
        assert (x["service"], x["container"]) == (y["service"], y["container"])
        if x["replicas_after"] is not None:
            assert y["replicas_after"] >= x["replicas_after"], (cm, x["service"])
    for k in ("cpu_request", "mem_request"):
        assert r2["totals"]["deployment"][k] >= r1["totals"]["deployment"][k] - 1e-9
    assert r2["nodes_per_site"] >= r1["nodes_per_site"]
    for end in ("low", "high"):
        if end in r1["range"]:
            assert r2["range"][end]["site"]["cpu_request"] >= r1["range"][end]["site"]["cpu_request"] - 1e-9


@FAST
@given(data=st.data(), scale=st.floats(0.05, 5), target=st.one_of(st.none(), st.integers(1, 100)),
       redundancy=st.sampled_from(["none", "n+1", "mated-pair"]))
def test_comparable_runs_capacity_never_below_demand(bundle, call_models, data, scale, target, redundancy):
    """For every pod sized from CPU: replicas x CPU request x target >= the cores its curve gives at each load state."""
    cm = data.draw(st.sampled_from(call_models))
    res = footprint.recommend(bundle, cm, 20000 * scale, sites=2, redundancy=redundancy, target_cpu_percent=target, spread=False)
    for r in res["rows"]:
        d = r.get("demand")
        if d:
            for state, t in d["targets"].items():
                assert r["replicas_after"] * r["cpu_request"] * t / 100 >= d["cpu_at"][state] * (1 - 1e-9), (cm, r["service"], state)
