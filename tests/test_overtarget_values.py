"""Over-target calculator (calculators/overtarget.py): the HPA controller's arithmetic and the checks of its inputs,
with values worked out by hand from kubernetes/kubernetes' pkg/controller/podautoscaler (the module docstring)."""
from __future__ import annotations

import pytest

from calculators import overtarget
from calculators.overtarget import OverTargetError


@pytest.mark.parametrize("current", [True, False, 2.5, "3", -1, None])
def test_current_replicas_must_be_a_whole_number(current):
    """The HPA's replica count is an int32 >= 0: a bool (an int to Python), a fraction, a text or a negative count is
    refused with a message naming the field, before any arithmetic."""
    with pytest.raises(OverTargetError, match="Current replicas must be a whole number >= 0"):
        overtarget.hpa(current, 90, 75)


def test_a_whole_count_is_accepted():
    """50 replicas at 90 % against 75 %: ratio 1.2, above the band: ceil(1.2 x 50) = 60 (float64 1.2 x 50 = 60.0)."""
    assert overtarget.hpa(50, 90, 75)["desired"] == 60


def test_no_product_means_every_product(bundle):
    """No product chosen: the inputs echo an empty product (the page's 'all products' choice), the default 80 %
    memory threshold and the v1.33 controller; the summary says 'across all products'."""
    from calculators import overtarget_report
    res = overtarget.compute(bundle, None)
    assert res["inputs"] == {"product": "", "mem_threshold": 80, "kubernetes": "1.33"}
    assert "across all products.</p>" in overtarget_report.to_html(res)


HEADER = "name,replicas,cpu_request,observed,target\n"


def test_cpu_request_of_zero_is_that_lines_problem():
    """A request of 0 cores cannot turn cores into a percent and is no HPA's request: line 2 is refused naming the
    field, even with the observation in percent; line 3 is evaluated."""
    own, problems = overtarget.parse_own(HEADER + "a,5,0,72%,70\nb,5,1,72%,70\n")
    assert problems == [{"line": 2, "message": "cpu_request must be cores above 0 (e.g. 4 or 500m), not '0'."}]
    assert [e["name"] for e in own] == ["b"]


def test_observed_millicores_are_thousandths_of_a_core():
    """'3500m' used by 5 replicas of 1 core each: 3.5 cores / (5 x 1) = 70 % of the request, at the 70 % target:
    over."""
    own, problems = overtarget.parse_own(HEADER + "svc,5,1,3500m,70\n")
    assert problems == [] and own[0]["observed"] == 70 and own[0]["status"] == "over"
    assert own[0]["observed_how"] == "3.5 cores / (5 x 1)"


def test_page_defaults():
    """The page opens on every product, the 80 % memory threshold, the v1.33 controller and no CSV."""
    assert overtarget.defaults() == {"product": "", "mem_threshold": "80", "kubernetes": "1.33", "csv": ""}


def test_range_only_follows_the_chosen_controller_from_either_end():
    """Only the HPA's range is printed (min 5, max 10, no current count), 88 % against 80 %: 88 / 80 = 1.1 in float64,
    |1 - 1.1| = 0.10000000000000009 > 0.1, so the v1.32 controller scales from either end: from 5, ceil(1.1 x 5 = 5.5)
    = 6; from 10, ceil(1.1 x 10 = 11.0) = 11, clamped at the max of 10, which must rise to 11. The v1.33 controller
    (1.1 <= 1.0 + 0.1) holds still at 5 and at 10."""
    v132 = overtarget.hpa_view(88, 80, None, 5, 10, "1.32")
    assert v132["desired_from_ends"] == {"min": {"desired": 6, "unclamped": 6, "bound": None, "max_must_rise_to": None},
                                         "max": {"desired": 10, "unclamped": 11, "bound": "max", "max_must_rise_to": 11}}
    assert (v132["max_must_rise_to"], v132["severity"]) == (11, "critical")
    v133 = overtarget.hpa_view(88, 80, None, 5, 10, "1.33")
    assert v133["desired_from_ends"] == {"min": {"desired": 5, "unclamped": 5, "bound": None, "max_must_rise_to": None},
                                         "max": {"desired": 10, "unclamped": 10, "bound": None, "max_must_rise_to": None}}
    assert (v133["max_must_rise_to"], v133["severity"]) == (None, "warning")


def test_an_unknown_controller_is_refused_naming_the_choices():
    with pytest.raises(OverTargetError, match=r"Unknown HPA controller '1\.31'; choose one of: 1\.33, 1\.32\."):
        overtarget.within_tolerance(1.0, "1.31")
