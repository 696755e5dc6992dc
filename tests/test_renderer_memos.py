"""The page modules' memos of what they compute from a build (atlas/pages/services.py: the service groups, their slugs
and rows; atlas/pages/accuracy.py: the backtest result) are kept per Renderer, not on it: computed once for a Renderer,
computed anew for another one (the tests build other data in the same process: a sixth guide, planted markup), and
dropped with the Renderer they belong to."""
from __future__ import annotations

import gc

import pytest


class _Build:
    """A stand-in for a Renderer: the memos read only ``atlas`` and ``bundle``."""

    def __init__(self, name: str):
        self.atlas = name
        self.bundle = {"name": name}


@pytest.fixture
def calls(monkeypatch):
    """What each memoised computation was called with, in order; each returns a value naming its build."""
    from atlas.pages import accuracy, services
    seen = []
    monkeypatch.setattr(services, "groups", lambda a: seen.append(("groups", a)) or [
        {"slug": f"{a}-svc", "members": [{"doc": a, "service": "svc"}]}])
    monkeypatch.setattr(accuracy.backtest, "run", lambda bundle: seen.append(("backtest", bundle["name"])) or {"of": bundle["name"]})
    return seen


def test_each_memo_computes_once_per_renderer_and_anew_for_another(calls):
    from atlas.pages import accuracy, services
    one, two = _Build("one"), _Build("two")
    assert services.groups_of(one) is services.groups_of(one)
    assert services.page_of(one, "one", "svc") == "one-svc" and services.page_of(one, "two", "svc") is None
    assert services.page_of(two, "two", "svc") == "two-svc" and services.page_of(two, "one", "svc") is None
    assert accuracy._result(one) == {"of": "one"} and accuracy._result(two) == {"of": "two"} and accuracy._result(one) == {"of": "one"}
    assert calls == [("groups", "one"), ("groups", "two"), ("backtest", "one"), ("backtest", "two")]


def test_a_memo_goes_with_its_renderer(calls):
    """Each memo holds this build's entry until the build is dropped, then none. Counted by the build's own name, not
    by the memos' sizes: other tests in the same worker leave builds that the collector may drop at any time."""
    from atlas.pages import accuracy, services
    build = _Build("gone")
    services.page_of(build, "gone", "svc")
    accuracy._result(build)

    def held():
        return tuple(sum(1 for key in list(memo.keys()) if key.atlas == "gone")
                     for memo in (services._GROUPS, services._SLUGS, accuracy._RESULTS))

    assert held() == (1, 1, 1)
    del build
    gc.collect()
    assert held() == (0, 0, 0)
