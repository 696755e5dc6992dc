"""calculators/deployment.py ``products``, ``read_request`` and ``read_mapping``: the products offered, each field of a
request read or refused with a message naming it, and the hand mapping read from JSON text. Products, units and call
models are data/sources.yaml's and the guides' call models (calculators.evidence); messages are written out whole."""
from __future__ import annotations

from fractions import Fraction

import pytest

from calculators import deployment as dp


def test_products_with_comparable_runs_in_sources_order(bundle):
    # data/sources.yaml lists bsf, policy, nef, dsr, shcm; DSR and ShCM have no resource runs to compare with
    prods = dp.products(bundle)
    assert [(p["doc"], p["name"], p["unit"]) for p in prods] == [("bsf", "BSF", "TPS"), ("policy", "Policy", "TPS"),
                                                                  ("nef", "NEF", "TPS")]
    assert [m["id"] for m in prods[0]["call_models"]] == ["bsf-nbsf-rx"]


def test_a_request_read_with_its_defaults(bundle):
    # no call model: the product's first (BSF has one, data/bsf/scenarios.yaml: bsf-nbsf-rx, "BSF nBSF + Rx"); no
    # sites: 1; the load as an exact Fraction
    r = dp.read_request(bundle, "bsf", None, "63,000")
    assert r == {"doc": "bsf", "product": "BSF", "unit": "TPS", "call_model": "bsf-nbsf-rx",
                 "call_model_name": "BSF nBSF + Rx", "load": Fraction(63000), "sites": 1}
    # no call model for Policy: its first run's (data/policy/scenarios.yaml begins with 3.1.1, a pcrf-data run), not
    # its last call model's
    assert dp.read_request(bundle, "policy", "", "1000")["call_model"] == "pcrf-data"
    # data/policy/scenarios.yaml: call model pcf-sm, "PCF SM"
    r = dp.read_request(bundle, "policy", "pcf-sm", "43000", "3")
    assert (r["call_model"], r["call_model_name"], r["load"], r["sites"]) == ("pcf-sm", "PCF SM", 43000, 3)


@pytest.mark.parametrize("doc,call_model,load,sites,message", [
    ("nope", None, "1", None, "Product must be one of bsf, policy, nef, not 'nope'."),
    ("dsr", None, "1", None, "Product must be one of bsf, policy, nef, not 'dsr'."),
    ("bsf", "pcf-sm", "1", None, "Call model must be one of bsf-nbsf-rx for BSF, not 'pcf-sm'."),
    ("policy", "pcf-sm", "0", None, "Load observed must be greater than zero (TPS); got 0."),
    ("policy", "pcf-sm", "1000", "2.5", "Sites must be a whole number, not 2.5."),
    ("policy", "pcf-sm", "1000", "0", "Sites must be greater than zero (sites); got 0."),
])
def test_a_bad_request_names_its_field(bundle, doc, call_model, load, sites, message):
    with pytest.raises(dp.DeploymentError) as e:
        dp.read_request(bundle, doc, call_model, load, sites)
    assert str(e.value) == message


def test_a_mapping_read_from_json_text_or_a_dict():
    assert dp.read_mapping(None) == {} and dp.read_mapping("") == {}
    assert dp.read_mapping('{"p/web": "sm-service", "p/log": ""}') == {"p/web": "sm-service", "p/log": ""}
    assert dp.read_mapping({"p/web": "sm-service"}) == {"p/web": "sm-service"}


@pytest.mark.parametrize("text,message", [
    ("{nope", "Mapping: not JSON (Expecting property name enclosed in double quotes, column 2)."),
    ('["p/web"]', 'Mapping: expected a JSON object of "namespace/name": "service" strings.'),
    ('{"p/web": 3}', 'Mapping: expected a JSON object of "namespace/name": "service" strings.'),
])
def test_a_bad_mapping_says_what_is_expected(text, message):
    with pytest.raises(dp.DeploymentError) as e:
        dp.read_mapping(text)
    assert str(e.value) == message
