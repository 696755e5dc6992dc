"""calculators/runs.py on a made-up run whose every figure is worked out by hand in the comments (never from the code
under test): which CPU figure a percentage is read against, whose replicas count, and when a count is an upper
bound. tests/test_readings_join.py holds the same rules to the guides' own rows."""
from __future__ import annotations

from fractions import Fraction

from calculators import runs


def _row(container, **kw):
    base = {"scenario": "s", "component": "app", "service": "svc", "container": container, "site": "",
            "is_sidecar": container == "istio-proxy", "replicas": None, "replicas_min": None, "replicas_max": None,
            "cpu_request_cores": None, "cpu_limit_cores": None, "cpu_cores": None, "table_id": "R1", "row": 1}
    return dict(base, **kw)


def _reading(container, percent, service="svc", basis=None, row=1):
    return {"scenario": "s", "service": service, "container": container, "metric": "cpu", "site": "", "status": "ok",
            "observed_percent": percent, "observed_abs": None, "abs_unit": None, "percent_basis": basis,
            "table_id": "U1", "row": row}


def _bundle(resources, utilization):
    return {"scenarios": [{"id": "s", "doc": "syn", "sites_with_traffic": ["site1"]}], "resources": resources,
            "utilization": utilization}


def test_a_pods_printed_count_wins_over_a_range_and_a_range_bounds_every_container():
    """Pod svc: its main container printed with replicas 2-4 (no count) and 1 core requested, its sidecar with a count,
    3, and 0.5 core: the pod ran 3 (a count printed for any of its containers is the pod's). App 50 % of 3 x 1 = 1.5
    cores, sidecar 20 % of 3 x 0.5 = 0.3 cores, neither a range. With no count anywhere the range's max end, 4, is
    read for both, each an upper bound: app 50 % of 4 x 1 = 2, sidecar 20 % of 4 x 0.5 = 0.4."""
    readings = [_reading("app", 50), _reading("istio-proxy", 20, row=2)]
    b = _bundle([_row("app", replicas_min=2, replicas_max=4, cpu_request_cores=1),
                 _row("istio-proxy", replicas=3, cpu_request_cores=0.5)], readings)
    used = runs.cores_used(b, "s")
    assert used[("app", "svc", "app")] == {"cores": Fraction(3, 2), "site": "", "table_id": "U1", "row": 1,
                                           "is_sidecar": False, "replicas": 3, "range": False}
    assert used[("app", "svc", "istio-proxy")] == {"cores": Fraction(3, 10), "site": "", "table_id": "U1", "row": 2,
                                                   "is_sidecar": True, "replicas": 3, "range": False}
    b = _bundle([_row("app", replicas_min=2, replicas_max=4, cpu_request_cores=1),
                 _row("istio-proxy", cpu_request_cores=0.5)], readings)
    used = runs.cores_used(b, "s")
    assert [(v["cores"], v["replicas"], v["range"], v["is_sidecar"]) for v in used.values()] == [
        (Fraction(2), 4, True, False), (Fraction(2, 5), 4, True, True)]


def test_which_cpu_figure_a_percentage_is_read_against():
    """Three pods, 2 replicas each. 'req': request 1, limit 2, read 50 % of the request: 0.5 x 2 x 1 = 1 core.
    'lim': request 1, limit 2, read 50 % of the limit (percent_basis 'limit'): 0.5 x 2 x 2 = 2 cores. 'one': the table
    prints one CPU figure, 3 cores, of which it does not say request or limit: 50 % of it, 0.5 x 2 x 3 = 3 cores,
    whichever basis the row names."""
    b = _bundle([_row("app", service="req", replicas=2, cpu_request_cores=1, cpu_limit_cores=2),
                 _row("app", service="lim", replicas=2, cpu_request_cores=1, cpu_limit_cores=2),
                 _row("app", service="one", replicas=2, cpu_cores=3),
                 _row("app", service="one-lim", replicas=2, cpu_cores=3)],
                [_reading("app", 50, "req"), _reading("app", 50, "lim", basis="limit"), _reading("app", 50, "one"),
                 _reading("app", 50, "one-lim", basis="limit")])
    used = runs.cores_used(b, "s")
    assert {k[1]: v["cores"] for k, v in used.items()} == {"req": 1, "lim": 2, "one": 3, "one-lim": 3}


def test_amount_used_reads_past_a_row_it_cannot_use():
    """The peak over a container's rows: a row with no figure, then 80 % of a basis not printed (the limit: None),
    then 50 % of 2 x 4 cores = 4 cores: the rows it cannot use are passed over, not the end of the reading."""
    rows = [{"observed_abs": None, "observed_percent": None},
            {"observed_abs": None, "observed_percent": 80, "percent_basis": "limit"},
            {"observed_abs": None, "observed_percent": 50, "percent_basis": None, "row": 7}]
    got = runs.amount_used(rows, 2, 4, None, "cores")
    assert got == (Fraction(4), rows[2])
    # an absolute figure in another unit is not this one's: 3 GiB is skipped, 1.5 cores read as printed
    rows = [{"observed_abs": 3, "abs_unit": "GiB"}, {"observed_abs": 1.5, "abs_unit": "cores"}]
    assert runs.amount_used(rows, 2, 4, None, "cores") == (Fraction(3, 2), rows[1])


def test_the_main_container_by_name_before_the_largest_request():
    """A cnDBTier pod printed by container: mysqlndbcluster (2 cores) is its main container, though its backup
    container requests more (4); a pod with an unnamed main row ('app') is sized by it; else the largest request, and
    a sidecar only when the pod has nothing else."""
    ndb = [_row("db-backup-executor-svc", cpu_request_cores=4), _row("mysqlndbcluster", cpu_request_cores=2)]
    assert runs.main_container(ndb)["container"] == "mysqlndbcluster"
    assert runs.main_container([_row("big", cpu_request_cores=9), _row("app", cpu_request_cores=1)])["container"] == "app"
    assert runs.main_container([_row("a", cpu_request_cores=1), _row("b", cpu_cores=3)])["container"] == "b"
    assert runs.main_container([_row("istio-proxy", cpu_request_cores=8), _row("a", cpu_request_cores=1)])["container"] == "a"
    assert runs.main_container([_row("istio-proxy", cpu_request_cores=8)])["container"] == "istio-proxy"
