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
