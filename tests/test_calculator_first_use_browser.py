"""Defects found on first use of the calculators, in Debian's Chromium: each defect found on first use is the failing case
of a test. The footprint link of a scenario page opens at the scenario's own benchmark; a permalink says its
result is the default example while Python boots and holds the default's downloads back; the footprint
totals fit a 390 px phone; every calculator control shows a keyboard focus ring; a refused value marks its
field aria-invalid."""
from __future__ import annotations

import pytest

from conftest import BOOT_LIMIT_MS, CALC_READY, computed, offline, serve, wasm_holder

pytestmark = pytest.mark.browser


def states(page) -> str:
    return page.inner_text("#atlas-calc-result ul.atlas-states")


# ------------------------------------------------------------------ 1. scale link carries the scenario's load and sites

@pytest.mark.parametrize("path, sid, load", [
    # NEF 24.2.0 Table 3-13, row 'Total TPS', column 'Total': 2500 (seed line 220), one site
    ("products/nef/nef-qos-1/", "nef-qos-1", "2500"),
    # Policy Table 3-133, row 'Call Rate (Ingress + Egress)': "75k on site-1 and no traffic on site-2" (seed line 1839)
    ("products/policy/policy-3-2-7/", "policy-3-2-7", "75000"),
])
def test_scale_link_opens_at_the_scenarios_own_load(page, site_url, path, sid, load):
    """Issue: the link carried only the scenario, so NEF QoS opened at the BSF default of 63,000 TPS (x25.2)
    and Policy 3.2.7 at x0.84. Followed from the scenario page, the result is at x1 the baseline."""
    page.goto(f"{site_url}/{path}", wait_until="load")
    page.click("#atlas-scale-link")
    page.wait_for_url(f"**/calculators/footprint/?scenario={sid}*")
    assert page.input_value("#calc-load") == load and page.input_value("#calc-sites") == "1"
    computed(page, 1)
    assert page.get_attribute("#atlas-calc-result .atlas-result", "data-scenario") == sid
    assert "(x1 the baseline)" in states(page), states(page)
    assert page.js_errors == []


def test_a_link_naming_only_the_scenario_takes_its_own_load(page, site_url):
    """An older link (?scenario= alone) means the scenario's own benchmark, as choosing it in the form does:
    NEF QoS 1 at 2,500 TPS (Table 3-13), not the default scenario's 63,000."""
    page.goto(f"{site_url}/calculators/footprint/?scenario=nef-qos-1", wait_until="load")
    assert page.input_value("#calc-load") == "2500"
    computed(page, 1)
    assert "(x1 the baseline)" in states(page), states(page)


# ------------------------------------------------------------------ 2. a permalink while Python boots

_Held = wasm_holder()


def test_permalink_while_python_boots_is_marked_default_and_holds_downloads(page, built_site):
    """Issue: a permalink showed the prerendered default (BSF 3.3) while Python booted, and its CSV/Helm links
    downloaded footprint-bsf-3-3.csv for a Policy link. While the wasm is held: a mark says the result is the
    default example and the link's inputs are being computed, and no download link is offered; once computed,
    the mark is gone and the downloads name the Policy scenario."""
    httpd, url = serve(built_site, _Held)
    try:
        page.goto(url + "/calculators/footprint/?scenario=policy-3-2-7&load=75000&sites=1", wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-state="booting"]', state="attached")
        mark = page.locator("#atlas-calc-pending")
        assert mark.is_visible()
        assert "Default example" in mark.inner_text() and "your link's inputs are being computed" in mark.inner_text()
        assert page.locator("#atlas-calc-downloads a").count() == 0
        assert "held back" in page.inner_text("#atlas-calc-downloads")
        # the prerendered result below the mark is still the default's
        assert page.get_attribute("#atlas-calc-result .atlas-result", "data-scenario") == "bsf-3-3"
        _Held.release.set()
        computed(page, 1)
        assert page.locator("#atlas-calc-pending").count() == 0
        assert page.get_attribute("#calc-dl-csv", "download") == "footprint-policy-3-2-7.csv"
        assert page.get_attribute("#calc-dl-helm", "download") == "footprint-policy-3-2-7-values.yaml"
    finally:
        _Held.release.set()
        httpd.shutdown()


def test_a_link_with_the_default_inputs_needs_no_mark(page, site_url):
    """A link that asks for what is prerendered (BSF nBSF + Rx at 63,000 TPS on one site, from its comparable runs)
    shows it as it is."""
    page.goto(site_url + "/calculators/footprint/?call_model=bsf%3Absf-nbsf-rx&load=63000&sites=1", wait_until="load")
    page.wait_for_selector("#atlas-calculator[data-state]", state="attached")
    assert page.locator("#atlas-calc-pending").count() == 0
    assert page.get_attribute("#calc-dl-csv", "download") == "footprint-bsf-bsf-nbsf-rx.csv"


# ------------------------------------------------------------------ 3. the totals at 390 px

def test_footprint_result_fits_a_390px_phone(browser, site_url):
    """Issue: at 390 px the footprint totals table overflowed the page (535 px wide). Now nothing of the
    calculator is wider than the viewport (wide per-row tables scroll inside their own box), and the totals
    are stacked: every value on screen behind its column's name."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    blocker = offline(ctx)
    page = ctx.new_page()
    try:
        page.goto(site_url + "/calculators/footprint/?scenario=policy-3-2-7&load=75000&sites=1", wait_until="load")
        computed(page, 1)
        sizes = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert sizes[0] <= sizes[1], sizes
        wide = page.evaluate("""() => { const w = document.documentElement.clientWidth;
            return [...document.querySelectorAll('#atlas-calculator *')]
              .filter(e => !e.parentElement.closest('.atlas-table-wrap:not(:has(> table.atlas-totals))'))
              .filter(e => e.getBoundingClientRect().right > w + 0.5)
              .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 5); }""")
        assert wide == [], wide
        cells = page.evaluate("""() => [...document.querySelectorAll('#atlas-calc-result table.atlas-totals td[data-label]')]
            .map(td => [td.getAttribute('data-label'), getComputedStyle(td, '::before').content, td.getBoundingClientRect().width])""")
        assert cells, "no labelled totals cells"
        for label, before, width in cells:
            assert before == f'"{label}"' and 0 < width <= 390
    finally:
        ctx.close()
    assert blocker.blocked == [], f"requests outside 127.0.0.1: {blocker.blocked}"


# ------------------------------------------------------------------ 5. keyboard focus and aria-invalid

@pytest.mark.parametrize("path", ["footprint", "over-target"])
def test_every_calculator_control_shows_a_focus_ring(page, site_url, path):
    """Issue: no visible keyboard focus on calculator inputs. Tabbing through the form, each input, select,
    textarea and button shows an outline of at least 2 px (or a box-shadow) while :focus-visible."""
    page.goto(f"{site_url}/calculators/{path}/", wait_until="load")
    page.click("h1")
    n = page.locator("#atlas-calculator form :is(input, select, textarea, button, a[href])").count()
    seen = {}
    for _ in range(n + 3):
        page.keyboard.press("Tab")
        info = page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
            return {inForm: !!e.closest('#atlas-calculator form'), id: e.id || e.name, visible: e.matches(':focus-visible'),
                    outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2, shadow: s.boxShadow !== 'none'}; }""")
        if info["inForm"]:
            seen[info["id"]] = info
        if info["id"] == "calc-run":
            break
    assert len(seen) == n, sorted(seen)
    bad = [k for k, v in seen.items() if not (v["visible"] and (v["outline"] or v["shadow"]))]
    assert bad == [], bad


def test_a_refused_value_marks_its_field_invalid_until_fixed(page, site_url):
    """A negative load is refused ("Target load must be greater than zero"): the load field gets
    aria-invalid="true" and aria-describedby naming the message; a valid load clears both."""
    page.goto(site_url + "/calculators/footprint/", wait_until="load")
    page.wait_for_selector(CALC_READY, state="attached", timeout=BOOT_LIMIT_MS)
    page.fill("#calc-load", "-5")
    page.wait_for_selector('#calc-load[aria-invalid="true"]', state="attached", timeout=BOOT_LIMIT_MS)
    desc = page.get_attribute("#calc-load", "aria-describedby")
    assert desc == "atlas-calc-message"
    assert "Target load must be greater than zero" in page.inner_text(f"#{desc}")
    assert page.locator('#atlas-calculator [aria-invalid="true"]').count() == 1
    page.fill("#calc-load", "63000")
    page.wait_for_selector("#calc-load:not([aria-invalid])", state="attached", timeout=BOOT_LIMIT_MS)
    assert page.get_attribute("#calc-load", "aria-describedby") is None


# ------------------------------------------------------------------ 4. ASM: the off side follows the on side's product

def test_asm_off_choices_follow_the_on_scenarios_product(page, site_url):
    """Choosing Policy 3.2.2 (ASM on) with BSF 3.1 still chosen as ASM-off was refused ("different products"):
    the ASM-off choices now follow the ASM-on scenario's product, so the pair computes, Policy against Policy."""
    page.goto(site_url + "/calculators/asm/", wait_until="load")
    page.wait_for_selector(CALC_READY, state="attached", timeout=BOOT_LIMIT_MS)
    page.select_option("#calc-on", "policy-3-2-2")
    assert page.input_value("#calc-off").startswith("policy-")
    assert page.locator('#calc-off option[value="bsf-3-1"]').is_disabled()
    assert not page.locator('#calc-off option[value="policy-3-1-1"]').is_disabled()
    page.wait_for_selector('#atlas-calculator[data-result-seq="1"]:not([data-busy])', state="attached", timeout=BOOT_LIMIT_MS)
    assert page.locator("#atlas-calc-message").is_hidden(), page.inner_text("#atlas-calc-message")
    off = page.input_value("#calc-off")
    assert f"policy-3-2-2 (ASM on) against {off} (ASM off)" in page.inner_text("#atlas-calc-result")
    assert page.get_attribute("#calc-dl-csv", "download") == f"asm-policy-3-2-2-vs-{off}.csv"
