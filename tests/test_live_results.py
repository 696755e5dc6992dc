"""Live results: a calculator computes again as its inputs change, without Compute being pressed;
typing is debounced and the newest input wins; a select recomputes at once."""
from __future__ import annotations

import pytest

from conftest import BOOT_LIMIT_MS, computed

pytestmark = pytest.mark.browser

CALC = "/calculators/footprint/?scenario=bsf-3-3&load=63000"
"""A permalink: the page computes it once Python is ready (result 1), then the test changes inputs."""


def _idle(page, seq: int) -> None:
    page.wait_for_selector(f'#atlas-calculator[data-result-seq="{seq}"]:not([data-busy])', state="attached",
                           timeout=BOOT_LIMIT_MS)


def test_typing_a_load_recomputes_once_typing_stops(page, site_url):
    page.goto(site_url + CALC, wait_until="load")
    computed(page, 1)
    _idle(page, 1)
    runs = int(page.get_attribute("#atlas-calculator", "data-runs-computed"))
    # The field cleared, then six keystrokes 20 ms apart: all within one debounce window (250 ms). Typed by the page's
    # own timers: each keystroke's timer is due before the debounce timer the previous one set, however busy the
    # machine. Playwright's keyboard sends each key from this process, and on a busy machine keys came more than
    # 250 ms apart (one CI run): two runs, the test waiting for ever for result 2 idle.
    page.evaluate("""() => new Promise(done => {
        const load = document.getElementById('calc-load'), text = '126000';
        const key = i => {
            load.value = text.slice(0, i);
            load.dispatchEvent(new Event('input', {bubbles: true}));
            if (i < text.length) setTimeout(() => key(i + 1), 20); else done();
        };
        key(0);
    })""")
    # the newest input shown, Python idle; then that it took one run (result 2), not one per keystroke
    page.wait_for_function("""() => { const c = document.getElementById('atlas-calculator');
        return +c.dataset.resultSeq >= 2 && !c.hasAttribute('data-busy')
            && new URLSearchParams(location.search).get('load') === '126000'; }""", timeout=BOOT_LIMIT_MS)
    assert page.get_attribute("#atlas-calculator", "data-result-seq") == "2"
    assert "load=126000" in page.url
    assert "126,000" in page.inner_text("#atlas-calc-result")
    # one run for the whole word: the keystrokes came faster than the debounce (250 ms), Compute never pressed
    assert int(page.get_attribute("#atlas-calculator", "data-runs-computed")) == runs + 1


def test_choosing_another_scenario_recomputes_at_once_with_its_own_load(page, site_url):
    page.goto(site_url + CALC, wait_until="load")
    computed(page, 1)
    _idle(page, 1)
    page.select_option("#calc-scenario", "policy-3-2-6")
    _idle(page, 2)
    assert "scenario=policy-3-2-6" in page.url
    # data/policy/scenarios.yaml, policy-3-2-6: "60k on site-1 and no traffic on site-2" (60,000 TPS, one site):
    # the select sets the load to the scenario's own, and the result is computed for it without Compute
    assert page.input_value("#calc-load") == "60000" and page.input_value("#calc-sites") == "1"
    assert "load=60000" in page.url and "60,000" in page.inner_text("#atlas-calc-result")
