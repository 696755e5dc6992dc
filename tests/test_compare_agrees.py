"""The compare page has two renderers of one markup: Python prerenders the default pair at build time
(atlas/pages/compare.py ``render_pair``) and compare.js renders any other pair in the browser. This test
proves they agree: for pairs chosen to cover other products, partial scenarios, services in one side only
and a product without per-service data, the DOM compare.js builds equals Python's markup for the same pair
(links resolved, whitespace between elements ignored)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PAIRS = [
    ("bsf-3-1", "policy-3-2-2"),      # two products: most services in one side only
    ("policy-3-2-6", "policy-3-2-7"),  # a partial scenario (policy-E031 rows excluded)
    ("bsf-3-3", "bsf-3-2"),            # same product, ASM on against off
    ("dsr-relay-12vcpu", "bsf-3-1"),   # a guide without per-service resource tables
]

NORMALISE = """(html) => {
  const box = document.createElement('div');
  box.innerHTML = html;
  const walk = (n) => {
    for (const c of [...n.childNodes]) {
      if (c.nodeType === 3 && !c.textContent.trim() && c.parentNode.nodeName !== 'TD' && c.parentNode.nodeName !== 'TH') c.remove();
      else if (c.nodeType === 1) walk(c);
    }
  };
  // what tables.js and tablesort add to every table once it is on the page (filter box, sort state)
  box.querySelectorAll('.atlas-filter, .atlas-filter-status').forEach(e => e.remove());
  const added = ['data-atlas-enhanced', 'data-atlas-filtered', 'data-atlas-tables', 'data-sort', 'aria-sort', 'role',
                 'title', 'aria-controls', 'aria-label', 'aria-live', 'tabindex'];
  box.querySelectorAll('div.atlas-table-wrap, table, thead, tbody, tr, th, td').forEach(e => added.forEach(k => e.removeAttribute(k)));
  box.querySelectorAll('table[id^="atlas-table-"]').forEach(e => e.removeAttribute('id'));
  walk(box);
  box.querySelectorAll('a[href]').forEach(a => a.setAttribute('href', a.href));
  return box.innerHTML;
}"""


@pytest.fixture(scope="module")
def renderer():
    from atlas.datastore import load
    from atlas.pages.products import Renderer
    return Renderer(load())


@pytest.mark.parametrize("a, b", PAIRS, ids=[f"{a}-vs-{b}" for a, b in PAIRS])
def test_compare_js_renders_what_python_prerenders(page, site_url, renderer, a, b):
    from atlas.pages.compare import render_pair, scenario_data
    page.goto(f"{site_url}/tools/compare/?a={a}&b={b}", wait_until="load")
    page.wait_for_selector(f'#atlas-compare-result[data-a="{a}"][data-b="{b}"][data-prerendered="false"]', timeout=30000)
    js = page.evaluate(NORMALISE, page.inner_html("#atlas-compare-result"))
    py = page.evaluate(NORMALISE, render_pair(scenario_data(renderer, a), scenario_data(renderer, b)))
    if js != py:
        at = next((i for i, (x, y) in enumerate(zip(js, py)) if x != y), min(len(js), len(py)))
        pytest.fail(f"compare.js and render_pair differ at character {at}:\n  js: ...{js[max(0, at - 150):at + 150]}\n  py: ...{py[max(0, at - 150):at + 150]}")


def test_delta_rule_by_hand():
    """B minus A as printed: thousands separators (BSF 3.2 against 3.3, load per site 54,000 and 63,000 TPS:
    +9,000), three decimals at most, a tie rounded away from zero as JavaScript's toFixed does (0.0625 -> 0.063,
    where Python's own round-half-even gives 0.062), nothing for equal or missing sides."""
    from atlas.pages.compare import delta, plain_delta
    assert delta(54000.0, 63000.0) == "+9,000"
    assert delta(63000.0, 54000.0) == "-9,000"
    assert delta(0.0, 0.0625) == "+0.063" and delta(0.0625, 0.0) == "-0.063"
    assert delta(1.0, 1234.5678) == "+1,233.568"
    assert delta(469.7, 763.8) == "+294.1"  # BSF 3.2 against 3.3, CPU requested at one traffic site
    assert delta(5.0, 5.0) == "" and delta(None, 1.0) == "" and delta(1.0, None) == ""
    assert plain_delta("+1,233.568") == "1233.568" and plain_delta("-9,000") == "-9000"


def _fake(sid: str, title: str, load: float, x: float, svc: dict) -> dict:
    """A scenario_data dict built by hand: two facts and one service, values chosen for the delta rule's edges."""
    cell = lambda v, t: {"v": v, "t": t}  # noqa: E731
    return {"id": sid, "title": title, "url": f"products/bsf/{sid}/", "unit": "TPS",
            "facts": [{"key": "load_total", "label": "Load in total", **cell(load, f"{load:,g} TPS")},
                      {"key": "x", "label": "X", **cell(x, str(x))}],
            "services": [{"key": "S\u241fapp", "service": "S", "container": "app",
                          **{k: cell(v, "" if v is None else str(v)) for k, v in svc.items()}}]}


def test_compare_js_formats_deltas_as_python_does(page, site_url):
    """The same hand-made pair (served in place of two scenarios' JSON) rendered by compare.js and by render_pair:
    identical markup, and the deltas are those worked out by hand: +1,233.568 and -0.063 in the facts; +9,000,
    +0.063 and -1,234.568 per service; none where A has no value."""
    from atlas.pages.compare import render_pair
    a = _fake("bsf-3-1", "Hand A", 1.0, 0.0625, {"replicas": 1.0, "cpu_pod": 0.0, "cpu_total": 1234.5678, "cpu_obs": None})
    b = _fake("bsf-3-2", "Hand B", 1234.5678, 0.0, {"replicas": 9001.0, "cpu_pod": 0.0625, "cpu_total": 0.0, "cpu_obs": 50.0})
    def serve(x):
        return lambda route: route.fulfill(json=x)
    for x in (a, b):
        page.route(f"**/assets/data/compare/{x['id']}.json", serve(x))
    page.goto(f"{site_url}/tools/compare/?a=bsf-3-1&b=bsf-3-2", wait_until="load")
    page.wait_for_selector('#atlas-compare-result[data-a="bsf-3-1"][data-b="bsf-3-2"][data-prerendered="false"]', timeout=30000)
    deltas = page.locator("#atlas-compare-result .atlas-delta").all_inner_texts()
    assert deltas == ["(+1,233.568)", "(-0.063)", "(+9,000)", "(+0.063)", "(-1,234.568)"]
    js = page.evaluate(NORMALISE, page.inner_html("#atlas-compare-result"))
    py = page.evaluate(NORMALISE, render_pair(a, b))
    assert js == py
