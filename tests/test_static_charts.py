"""Charts drawn at build time (bytes before use): a page that is not a calculator shows its
charts as SVG from the HTML as served, loads Vega (about 830 KB) only when the reader first uses a chart, and
then draws it live; the drawing follows the light and dark palettes and fits a phone."""
from __future__ import annotations

import json
import re

import pytest

from atlas import charts
from conftest import CHART_DONE, ROOT, _Handler, chart_spec, serve

SCENARIO = "/products/policy/policy-3-1-5/"
VEGA = "/assets/vendor/vega/"


def test_dark_css_repaints_every_light_colour_with_its_dark_one():
    t = charts.theme()
    css = charts.dark_css()
    pairs = [(t["light"][k], t["dark"][k]) for k in ("fg", "muted", "grid", "mark")] + list(zip(t["light"]["category"], t["dark"]["category"]))
    assert len({lo for lo, _ in pairs}) == 13  # fg, muted, grid and ten categories (the mark colour is the first)
    for lo, hi in pairs:
        for attr in ("fill", "stroke"):
            assert f'[data-md-color-scheme="slate"] .atlas-static [{attr}="{lo}"] {{ {attr}: {hi}; }}' in css


def test_live_charts_use_the_palettes_the_build_draws_with():
    """charts.js draws live charts with its own copy of the palettes: it must be the theme's."""
    js = (ROOT / "docs" / "assets" / "js" / "charts.js").read_text(encoding="utf-8")
    t = charts.theme()
    arrays = [json.loads(a) for a in re.findall(r'(\["#[0-9a-f]{6}"(?:, "#[0-9a-f]{6}")*\])', js)]
    assert t["dark"]["category"] in arrays and t["light"]["category"] in arrays
    for scheme in ("light", "dark"):
        for k in ("fg", "grid", "mark"):
            assert t[scheme][k] in js, (scheme, k)


def test_a_spec_vega_cannot_draw_stops_the_build_naming_it():
    bad = {"k-broken": {"mark": "bar", "data": {"values": [{"a": 1}]}, "encoding": {"x": {"field": "a", "type": "nonsense"}}}}
    with pytest.raises(charts.BuildError, match="k-broken"):
        charts.start(bad).finish(timeout=120)


def test_collect_skips_calculator_pages_and_keys_specs_by_their_text(tmp_path):
    body = '{"mark": "point", "description": "d"}'
    (tmp_path / "a.md").write_text(f'# A\n<div class="atlas-chart" data-chart-id="c1"></div>\n'
                                   f'<script type="application/json" id="c1">{body}</script>\n', encoding="utf-8")
    (tmp_path / "calc.md").write_text('---\ncalculator: footprint\n---\n<div class="atlas-chart" data-chart-id="calc-chart"></div>\n'
                                      '<script type="application/json" id="calc-chart">{"mark": "bar"}</script>\n', encoding="utf-8")
    assert charts.collect(tmp_path) == {charts.key(body): {"mark": "point", "description": "d"}}
    (tmp_path / "b.md").write_text('<div class="atlas-chart" data-chart-id="c2"></div>\n'
                                   '<script type="application/json" id="c2">{not json</script>\n', encoding="utf-8")
    with pytest.raises(charts.BuildError, match=r"b\.md: chart 'c2'"):
        charts.collect(tmp_path)


def test_scenario_page_as_served_holds_its_chart_drawn(built_site):
    """Policy 3.1.5's observed-CPU chart is in the HTML: one bar per value of the chart's data, the tallest
    Diameter Gateway's 76.15 % (Table 3-54, CPU at Site1), in a wide and a narrow drawing."""
    html = (built_site / SCENARIO.strip("/") / "index.html").read_text(encoding="utf-8")
    m = re.search(r'<div class="atlas-chart" data-chart-id="util-policy-3-1-5"[^>]*data-static="true"[^>]*>(.*?)</div></div>', html, re.S)
    assert m, "the chart is not drawn into the page"
    # the spec is not in the page (only the live chart needs it): in assets/charts/<key>.json, the key in data-spec
    spec = chart_spec(built_site, SCENARIO.strip("/"), "util-policy-3-1-5")
    assert re.search(r'data-spec="[0-9a-f]{16}"', m.group(0)) and '<script type="application/json" id="util-' not in html
    wide, narrow = re.findall(r'<div class="atlas-static atlas-static-(?:wide|narrow)">(<svg.*?</svg>)', m.group(0) + "</div>", re.S)
    values = [v["percent"] for v in spec["data"]["values"]]
    assert values[0] == 76.15 and spec["data"]["values"][0]["service"] == "diam-gateway"
    for svg in (wide, narrow):
        # one horizontal bar per value, in the data's order, each as long as its value on one linear scale
        marks = re.search(r'<g class="mark-rect role-mark[^"]*"[^>]*>(.*?)</g>', svg, re.S).group(1)
        lengths = [float(x) for x in re.findall(r'<path [^>]*d="M[-0-9.]+[ ,][-0-9.]+h([0-9.]+)v', marks)]
        assert len(lengths) == len(values) > 30
        scale = lengths[0] / 76.15
        assert all(abs(length - v * scale) < 0.5 for length, v in zip(lengths, values)), list(zip(lengths, values))[:5]
        # the marks carry no ARIA of their own (the chart is one labelled graphic): no per-mark labels
        assert "graphics-symbol" not in svg and svg.count("aria-label=") == 1
        # nor what draws the same without it (charts.DEAD_SVG): the font comes from atlas.css, opacity 1 is the default
        assert "font-family=" not in svg and ' opacity="1"' not in svg and 'd=""' not in svg and "<text" in svg
        # written by SVGO (tools/vega_svg.mjs): numbers to at most 3 decimals (Vega writes 15 digits), the grid's
        # lines as one path, the colours as drawn (charts.css repaints them for the dark palette by their value)
        assert not re.search(r"\d\.\d{4}", svg) and "<line" not in svg and 'fill="#3f51b5"' in svg
    assert 'width="760"' in wide and 'width="350"' in narrow
    assert VEGA + "vega.min.js" not in html and "vega-lite.min.js" not in html


def _scenario_chart(browser, base: str, **context):
    """Policy 3.1.5's page at 1280 x 900 (with ``context``'s options), its drawn chart shown: (context, page, the
    URLs requested so far and on, the chart's locator)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, **context)
    urls: list[str] = []
    ctx.on("request", lambda r: urls.append(r.url))
    pg = ctx.new_page()
    pg.goto(base + SCENARIO, wait_until="load")
    pg.wait_for_selector('.atlas-chart[data-rendered="static"]', state="attached")
    return ctx, pg, urls, pg.locator('.atlas-chart[data-chart-id="util-policy-3-1-5"]')


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chart_shows_without_vega_until_used_then_draws_live(browser, site_url, scheme):
    ctx, pg, urls, chart = _scenario_chart(browser, site_url, color_scheme=scheme)
    try:
        wide = chart.locator(".atlas-static-wide svg")
        assert wide.is_visible() and not chart.locator(".atlas-static-narrow svg").is_visible()
        box = wide.bounding_box()
        assert box["width"] > 500 and box["height"] > 400
        # the palette: axis labels in the scheme's foreground, the first category (app) bars in its colour
        t = charts.theme()["dark" if scheme == "dark" else "light"]
        fill = pg.evaluate("""() => { const s = document.querySelector('.atlas-static-wide svg');
            const label = s.querySelector('.role-axis-label text'), bar = s.querySelector('.mark-rect.role-mark path');  /* the first bar: diam-gateway, an app service */
            return [getComputedStyle(label).fill, getComputedStyle(bar).fill]; }""")
        rgb = lambda h: f"rgb({int(h[1:3], 16)}, {int(h[3:5], 16)}, {int(h[5:7], 16)})"  # noqa: E731
        assert fill == [rgb(t["fg"]), rgb(t["category"][0])]
        assert not [u for u in urls if VEGA in u and ".js" in u], "Vega loaded before the chart was used"
        # the live chart takes the drawing's place without moving the page below: same height, same next element
        before = chart.evaluate("c => [c.getBoundingClientRect().height, c.nextElementSibling.getBoundingClientRect().top + scrollY]")
        chart.hover()
        pg.wait_for_selector('.atlas-chart[data-chart-id="util-policy-3-1-5"]' + CHART_DONE.replace(".atlas-chart", ""), timeout=60000)
        after = chart.evaluate("c => [c.getBoundingClientRect().height, c.nextElementSibling.getBoundingClientRect().top + scrollY]")
        assert abs(after[0] - before[0]) <= 1 and abs(after[1] - before[1]) <= 1, (before, after)
        assert [u for u in urls if u.split("?")[0].endswith(VEGA + "vega.min.js")]
        assert chart.locator(".atlas-static").count() == 0 and chart.locator("svg").count() == 1
        assert pg.evaluate("() => document.querySelector('.atlas-chart').atlasView.data('source_0').length") > 30
    finally:
        ctx.close()


@pytest.mark.browser
def test_chart_fits_a_phone_and_a_keyboard_reader_can_use_it(browser, site_url):
    ctx = browser.new_context(viewport={"width": 390, "height": 800})
    pg = ctx.new_page()
    try:
        pg.goto(site_url + SCENARIO, wait_until="load")
        chart = pg.locator('.atlas-chart[data-chart-id="util-policy-3-1-5"]')
        narrow = chart.locator(".atlas-static-narrow svg")
        assert narrow.is_visible() and not chart.locator(".atlas-static-wide svg").is_visible()
        assert narrow.bounding_box()["width"] <= 390
        assert pg.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        height = chart.evaluate("c => c.getBoundingClientRect().height")
        chart.focus()  # focusable: the keyboard's way to use it
        pg.wait_for_selector('.atlas-chart[data-chart-id="util-policy-3-1-5"][data-rendered="true"] svg', timeout=60000)
        assert abs(chart.evaluate("c => c.getBoundingClientRect().height") - height) <= 1
    finally:
        ctx.close()


class _NoSpecs(_Handler):
    """Serves a built site without its charts' specs (assets/charts/*.json answer 404)."""

    def do_GET(self):
        if "/assets/charts/" in self.path:
            self.send_error(404)
            return
        super().do_GET()


@pytest.mark.browser
def test_a_chart_whose_spec_cannot_be_fetched_keeps_its_drawing_and_says_why(browser, built_site):
    """The spec of a drawn chart is fetched on its first use; when the server cannot send it, the build's drawing
    stays (and Vega is not loaded for nothing), and the chart's element names the file and the HTTP status."""
    httpd, url = serve(built_site, _NoSpecs)
    ctx, pg, urls, chart = _scenario_chart(browser, url)
    try:
        chart.hover()
        pg.wait_for_selector('.atlas-chart[data-chart-id="util-policy-3-1-5"][data-live-error]', state="attached", timeout=20000)
        err = chart.get_attribute("data-live-error")
        assert re.fullmatch(r"/assets/charts/[0-9a-f]{16}\.json: HTTP 404", err), err
        assert chart.get_attribute("data-rendered") == "static" and chart.locator(".atlas-static-wide svg").is_visible()
        assert not [u for u in urls if VEGA in u and ".js" in u], "Vega loaded for a chart it could not draw"
    finally:
        ctx.close()
        httpd.shutdown()


def test_a_spec_drawn_before_is_taken_from_the_cache_and_drawn_again_when_the_drawing_code_changes(tmp_path, monkeypatch):
    """The second build of an unchanged spec starts no Node and gets the same drawing; other drawing code (here: another
    hash of the script, theme and package versions) draws it again."""
    monkeypatch.setattr(charts, "CACHE", tmp_path / "cache")
    spec = {"data": {"values": [{"a": 1}]}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "quantitative"}}}
    first = charts.start({"k1": spec})
    assert first.proc is not None
    drawn = first.finish()
    assert set(drawn["k1"]) == {"wide", "narrow"} and drawn["k1"]["wide"].startswith("<svg")
    again = charts.start({"k1": spec})
    assert again.proc is None and again.finish() == drawn
    monkeypatch.setattr(charts, "_drawer", lambda: "another-drawer")
    other = charts.start({"k1": spec})
    assert other.proc is not None and other.finish() == drawn
    assert sorted(f.name for f in (tmp_path / "cache").iterdir()) == sorted([f"{first.drawer}-k1.json", "another-drawer-k1.json"])
