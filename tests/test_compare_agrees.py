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
