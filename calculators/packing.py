"""Node packing for the footprint calculator: first-fit decreasing of pods onto worker nodes.

Standard library only (runs unchanged in CPython and Pyodide). All arithmetic is in
integers (millicores and KiB), so a node is never overfilled by float rounding: a
request is rounded *up* to the next millicore / KiB, allocatable *down*.

Sources of the rules (cited on the calculator page too):

* Allocatable = capacity - kube/system reservations - eviction threshold
  (kubernetes.io, "Reserve Compute Resources for System Daemons").
* The default reservation is the tiered rule Google Kubernetes Engine publishes
  (cloud.google.com, "Plan GKE node sizes", memory and CPU reservations):
  CPU 6 % of the first core, 1 % of the next core, 0.5 % of the next 2 cores,
  0.25 % of every core above 4; memory 25 % of the first 4 GiB, 20 % of the
  next 4 GiB, 10 % of the next 8 GiB, 6 % of the next 112 GiB, 2 % above 128 GiB,
  plus a 100 MiB eviction threshold. AKS and EKS publish similar tiers.
* A pod fits a node only if the sum of requests on it stays within allocatable
  (kube-scheduler's NodeResourcesFit); DaemonSet pods take their requests on
  every node; 110 pods per node is the kubelet's default ``maxPods``.
* Replicas of one cnDBTier node set (data or SQL nodes) carry pod anti-affinity
  so that losing one worker node never takes both replicas of a node group.
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction

DEFAULT_MAX_PODS = 110
"""kubelet default ``maxPods`` (kubernetes.io, kubelet configuration reference)."""

KIB_PER_GIB = 1024 * 1024
MILLI = 1000

# (size of the band, reserved fraction) -- GKE tiers, see the module docstring
CPU_TIERS = ((Fraction(1), Fraction(6, 100)), (Fraction(1), Fraction(1, 100)), (Fraction(2), Fraction(5, 1000)),
             (None, Fraction(25, 10000)))
MEM_TIERS = ((Fraction(4), Fraction(25, 100)), (Fraction(4), Fraction(20, 100)), (Fraction(8), Fraction(10, 100)),
             (Fraction(112), Fraction(6, 100)), (None, Fraction(2, 100)))
EVICTION_GIB = Fraction(100, 1024)
"""100 MiB hard eviction threshold (kubelet default memory.available<100Mi)."""


class PackingError(ValueError):
    """A pod that fits no node, or a node shape with nothing left after reservations."""


def _tiered(amount: Fraction, tiers) -> Fraction:
    left, reserved = amount, Fraction(0)
    for size, share in tiers:
        part = left if size is None else min(left, size)
        if part <= 0:
            break
        reserved += part * share
        left -= part
    return reserved


@functools.lru_cache(maxsize=256)
def reserved(node_cores, node_mem_gib) -> tuple[Fraction, Fraction]:
    """GKE-style reservation for a node of ``node_cores`` cores and ``node_mem_gib`` GiB:
    (CPU cores reserved, memory GiB reserved including the 100 MiB eviction threshold).
    Example: 16 cores -> 0.06 + 0.01 + 0.01 + 12 x 0.0025 = 0.11 cores."""
    c, m = Fraction(str(node_cores)), Fraction(str(node_mem_gib))
    return _tiered(c, CPU_TIERS), _tiered(m, MEM_TIERS) + EVICTION_GIB


# Exact decimal arithmetic (Fraction of the printed value) costs most of a packing run in Pyodide; a footprint
# asks for the same few pod sizes on every recompute, so each conversion is kept (values are numbers: hashable).
@functools.lru_cache(maxsize=4096)
def _milli(cores) -> int:
    return math.ceil(Fraction(str(cores)) * MILLI)


@functools.lru_cache(maxsize=4096)
def _kib(gib) -> int:
    return math.ceil(Fraction(str(gib)) * KIB_PER_GIB)


def pack(pods: list[dict], node_cores, node_mem_gib, *, reserve: str = "gke", reserve_cpu=0, reserve_mem_gib=0,
         daemonset_cpu=0, daemonset_mem_gib=0, max_pods: int = DEFAULT_MAX_PODS, spare: int = 0) -> dict:
    """First-fit decreasing of ``pods`` onto identical worker nodes of one site.

    Arguments:
        pods: dicts with ``name`` (service), ``cpu`` (cores requested by the whole pod),
            ``mem`` (GiB), ``count`` (replicas) and ``anti`` (True: no two replicas of
            this name on one node).
        node_cores, node_mem_gib: node capacity (cores, GiB).
        reserve: 'gke' (tiered rule above) or 'custom' (``reserve_cpu`` cores and
            ``reserve_mem_gib`` GiB, eviction threshold included).
        daemonset_cpu, daemonset_mem_gib: requests every node's DaemonSets take (cores, GiB).
        max_pods: pods per node (application pods; DaemonSet pods are not counted).
        spare: extra empty nodes added for N+1 (or N+k).

    Returns ``{"nodes": int (including spare), "spare": int, "allocatable": {"cpu", "mem"},
    "reserved": {"cpu", "mem"}, "fill": [{"cpu": %, "mem": %, "pods": n, "anti": [names of the
    anti-affinity sets with a replica on it]}] per node,
    "binding": 'cpu' | 'memory' | 'pods' | 'anti-affinity' (the highest lower bound on nodes) or
    'whole pods (...)' when first-fit needs more nodes than every bound, None without pods; "pod_count": int}``;
    percentages are of allocatable after DaemonSets.

    Raises PackingError naming any pod larger than a node's room, or a node left with
    no room after reservations and DaemonSets.
    """
    cap_c, cap_m = Fraction(str(node_cores)), Fraction(str(node_mem_gib))
    if reserve == "gke":
        res_c, res_m = reserved(cap_c, cap_m)
    else:
        res_c, res_m = Fraction(str(reserve_cpu or 0)), Fraction(str(reserve_mem_gib or 0))
    alloc_c = math.floor((cap_c - res_c) * MILLI)
    alloc_m = math.floor((cap_m - res_m) * KIB_PER_GIB)
    room_c = alloc_c - _milli(daemonset_cpu or 0)
    room_m = alloc_m - _kib(daemonset_mem_gib or 0)
    if room_c <= 0 or room_m <= 0:
        raise PackingError(f"A node of {float(cap_c):g} cores / {float(cap_m):g} GiB has no room left for pods after "
                           "system reservations and DaemonSets.")
    items = []
    for p in pods:
        c, m = _milli(p["cpu"]), _kib(p["mem"])
        if c > room_c or m > room_m:
            raise PackingError(
                f"Pod {p['name']} requests {p['cpu']:g} cores and {float(Fraction(m, KIB_PER_GIB)):.4g} GiB, more than a node's "
                f"room for pods ({room_c / MILLI:g} cores, {room_m / KIB_PER_GIB:.4g} GiB after reservations and DaemonSets): "
                "choose a larger node shape.")
        for _ in range(int(p["count"])):
            items.append((max(c / room_c, m / room_m), c, m, p["name"], bool(p.get("anti"))))
    items.sort(key=lambda x: (-x[0], x[3]))
    # Per node: the room left (millicores, KiB) and the pod slots left, and the anti-affinity sets on it.
    free_c: list[int] = []
    free_m: list[int] = []
    slots: list[int] = []
    names: list[set] = []
    # Replicas of one service are identical and sorted next to each other. Nodes only fill up, so a node that
    # refused one replica refuses the next: the scan for a replica starts where the previous identical one went
    # (one further with anti-affinity). Same placement as scanning from the first node, without re-testing.
    prev, start = None, 0
    for _, c, m, name, anti in items:
        key = (c, m, name, anti)
        if key != prev:
            prev, start = key, 0
        n = len(free_c)
        i = start
        while i < n:  # first fit: the first node with a slot and room for both resources (and no sibling)
            if slots[i] and c <= free_c[i] and m <= free_m[i] and not (anti and name in names[i]):
                break
            i += 1
        if i < n:
            free_c[i] -= c
            free_m[i] -= m
            slots[i] -= 1
            if anti:
                names[i].add(name)
        else:  # a new node (every pod fits an empty node: checked above)
            free_c.append(room_c - c)
            free_m.append(room_m - m)
            slots.append(max_pods - 1)
            names.append({name} if anti else set())
        start = i + 1 if anti else i
    used_c = [room_c - f for f in free_c]
    used_m = [room_m - f for f in free_m]
    count = [max_pods - k for k in slots]
    n = len(used_c)
    fill = [{"cpu": 100 * u / room_c, "mem": 100 * v / room_m, "pods": k, "anti": sorted(a)}
            for u, v, k, a in zip(used_c, used_m, count, names)]
    for _ in range(int(spare)):
        fill.append({"cpu": 0.0, "mem": 0.0, "pods": 0, "anti": []})
    # the binding constraint: the lower bound on nodes that is highest (CPU, memory, pods per node, the largest
    # anti-affinity set); when whole pods need more nodes than every bound, packing itself binds
    anti_sets: dict[str, int] = {}
    for *_, name, anti in items:
        if anti:
            anti_sets[name] = anti_sets.get(name, 0) + 1
    bounds = {"cpu": -(-sum(used_c) // room_c), "memory": -(-sum(used_m) // room_m), "pods": -(-len(items) // max_pods),
              "anti-affinity": max(anti_sets.values(), default=0)}
    binding = max(bounds, key=lambda k: bounds[k]) if items else None
    if items and n > bounds[binding]:
        binding = f"whole pods (fragmentation; {binding} alone needs {bounds[binding]})"
    return {"nodes": n + int(spare), "spare": int(spare), "pod_count": len(items), "bounds": bounds,
            "allocatable": {"cpu": alloc_c / MILLI, "mem": alloc_m / KIB_PER_GIB},
            "room": {"cpu": room_c / MILLI, "mem": room_m / KIB_PER_GIB},
            "reserved": {"cpu": float(res_c), "mem": float(res_m)}, "fill": fill, "binding": binding}
