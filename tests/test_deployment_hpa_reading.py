"""calculators/deployment.py ``over_target``: an HPA's CPU reading of your workload as the controller computes it (usage
and requests summed over the pods with metrics of every running container, or of the one container a
ContainerResource metric names), and each reason it cannot read one. Workloads are written out in the test; every
reading is worked out by hand in the comments."""
from __future__ import annotations

from fractions import Fraction

from calculators import deployment as dp


def _c(name, cpu_request, init=False):
    return {"name": name, "init": init, "sidecar": name == "istio-proxy", "cpu_request": cpu_request}


def _workload(hpa, pods, replicas=2, proxy_request=Fraction(1, 2)):
    return {"replicas": replicas, "hpa": hpa,
            "containers": [_c("app", Fraction(1)), _c("istio-proxy", proxy_request), _c("setup", None, init=True)],
            "pods": pods}


PODS = {"w-7d9c5b6f4-aaaaa": {"app": {"cpu": Fraction(3, 5)}, "istio-proxy": {"cpu": Fraction(3, 10)}},
        "w-7d9c5b6f4-bbbbb": {"app": {"cpu": Fraction(9, 10)}, "istio-proxy": {"cpu": Fraction(3, 20)}}}
HPA = {"cpu_target": 80, "cpu_container": None, "min_replicas": 1, "max_replicas": 10}


def test_a_resource_metric_reads_every_running_container_of_the_pods():
    # the init container "setup" sets no request but does not run: not read. Used 0.6 + 0.3 + 0.9 + 0.15 = 1.95 of
    # 2 pods x (1 + 0.5) = 3 cores: 65 % against 80 %; ratio 0.8125 is outside the 10 % tolerance and below 1: the
    # controller asks for ceil(0.8125 x 2) = 2, severity ok
    x = dp.over_target(_workload(HPA, PODS), "1.33")
    assert (x["target"], x["reading"], x["pods_with_metrics"], x["why"]) == (80, Fraction(65), 2, None)
    assert (x["view"]["hpa_reads"], x["view"]["desired"], x["view"]["severity"]) == (65, 2, "ok")
    assert x["hpa"] is HPA


def test_a_container_resource_metric_reads_its_container_alone():
    # app alone: 0.6 + 0.9 = 1.5 used of 2 x 1 = 2 cores: 75 % against 80 %, ratio 0.9375 inside the tolerance band:
    # the count holds at 2, severity warning
    x = dp.over_target(_workload(dict(HPA, cpu_container="app"), PODS), "1.33")
    assert (x["reading"], x["pods_with_metrics"]) == (Fraction(75), 2)
    assert (x["view"]["hpa_reads"], x["view"]["desired"], x["view"]["severity"]) == (75, 2, "warning")


def test_a_target_of_1_percent_is_read():
    # 65 % (as above) against 1 %: ratio 65, the metric asks for ceil(65 x 2) = 130 pods, above the max of 10: the
    # controller stops at 10 and the max must rise to 130, critical
    x = dp.over_target(_workload(dict(HPA, cpu_target=1), PODS), "1.33")
    assert (x["reading"], x["why"]) == (Fraction(65), None)
    assert (x["view"]["desired"], x["view"]["max_must_rise_to"], x["view"]["severity"]) == (10, 130, "critical")


def test_a_pod_missing_a_containers_reading_is_left_out():
    # the second pod has no istio-proxy line: only the first pod is read, (0.6 + 0.3) / 1.5 = 60 %
    pods = dict(PODS, **{"w-7d9c5b6f4-bbbbb": {"app": {"cpu": Fraction(9, 10)}}})
    x = dp.over_target(_workload(HPA, pods), "1.33")
    assert (x["reading"], x["pods_with_metrics"]) == (Fraction(60), 1)


def test_why_no_reading():
    assert dp.over_target(_workload(None, PODS), "1.33") is None
    assert dp.over_target(_workload(dict(HPA, cpu_target=None), PODS), "1.33") is None
    x = dp.over_target(_workload(HPA, {}), "1.33")
    assert (x["why"], x["pods_with_metrics"], x["reading"], x["view"]) == ("no kubectl top readings for its pods", 0, None, None)
    # app and istio-proxy both request 0 cores: 2 pods x (0 + 0) = 0 requested, no percent to read
    w = _workload(HPA, PODS, proxy_request=Fraction(0))
    w["containers"][0]["cpu_request"] = Fraction(0)
    x = dp.over_target(w, "1.33")
    assert (x["why"], x["reading"], x["pods_with_metrics"]) == ("its CPU requests add up to 0", None, 2)
    # a target of 0 % (Kubernetes' API refuses one; a pasted file may hold it) gives no reading either
    x = dp.over_target(_workload(dict(HPA, cpu_target=0), PODS), "1.33")
    assert (x["reading"], x["view"], x["pods_with_metrics"]) == (None, None, 2) and x["why"]
    # a sidecar without a request blinds a Resource metric, not a ContainerResource metric on app
    x = dp.over_target(_workload(HPA, PODS, proxy_request=None), "1.33")
    assert x["why"] == ("the HPA cannot read this workload: container istio-proxy sets no CPU request (the controller's "
                        "'missing request for cpu')")
    assert dp.over_target(_workload(dict(HPA, cpu_container="app"), PODS, proxy_request=None), "1.33")["why"] is None


def test_a_count_beyond_the_hpas_int32_is_named_not_raised():
    # 1,000,000,000 replicas at 65 % of an 80 % target (as above): ceil(0.8125 x 10^9) = 812,500,000 fits; at 200 %
    # (app 2 cores used of 1 in each pod with istio-proxy 1 of 0.5) it asks ceil(2.5 x 10^9) = 2,500,000,000 > 2^31 - 1
    pods = {p: {"app": {"cpu": Fraction(2)}, "istio-proxy": {"cpu": Fraction(1)}} for p in PODS}
    x = dp.over_target(_workload(dict(HPA, max_replicas=None), pods, replicas=10 ** 9), "1.33")
    assert x["reading"] == 200 and x["view"] is None
    assert x["why"] == "The HPA would ask for 2,500,000,000 replicas, more than its int32 count holds (2,147,483,647)."
