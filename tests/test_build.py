"""The site builds strictly from data/, search finds service names, and bad data stops the build."""
from __future__ import annotations

import json

from conftest import ROOT, build_site, copy_data


def test_build_strict_makes_every_page(built_site, atlas, bundle):
    """Every scenario page is its scenario's (its short title as the heading, its section in the page title, e.g.
    "BSF 3.3" for "63K TPS, 3-site setup, traffic on Site1 (with ASM)"); the browser's files are what they claim:
    WebAssembly, Vega-Embed, the calculators' own source, the calculator bundle of data/."""
    import re
    from html import unescape
    assert "<title>Benchmark Atlas - Benchmark Atlas</title>" in (built_site / "index.html").read_text(encoding="utf-8")
    for s in atlas.scenarios:
        html = (built_site / "products" / s["doc"] / s["id"] / "index.html").read_text(encoding="utf-8")
        heading = html.split("<h1", 1)[1].split(">", 1)[1].split("</h1>", 1)[0]
        assert unescape(re.sub(r"<[^>]+>", "", heading)).rstrip("¶").strip() == s["short_title"], s["id"]
        assert f" {s['section']} - Benchmark Atlas</title>" in html, s["id"]
    bsf = (built_site / "products/bsf/bsf-3-3/index.html").read_text(encoding="utf-8")
    assert "<title>BSF 3.3 - Benchmark Atlas</title>" in bsf and ">63K TPS, 3-site setup, traffic on Site1 (with ASM)" in bsf
    assert (built_site / "assets/vendor/pyodide/pyodide.asm.wasm").read_bytes()[:8] == b"\0asm\x01\0\0\0"  # wasm, v1
    assert "vegaEmbed" in (built_site / "assets/vendor/vega/vega-embed.min.js").read_text(encoding="utf-8")
    assert (built_site / "assets/py/calculators/footprint.py").read_bytes() == \
        (ROOT / "calculators/footprint.py").read_bytes()
    shipped = json.loads((built_site / "assets/data/calculator-bundle.json").read_text(encoding="utf-8"))
    assert shipped == json.loads(json.dumps(bundle))
    assert next(s for s in shipped["scenarios"] if s["id"] == "bsf-3-3")["load_per_site"] == 63000  # Table 3-21


def test_search_finds_diameter_gateway_on_its_table(built_site):
    index = json.loads((built_site / "search" / "search_index.json").read_text())
    hits = [d["location"] for d in index["docs"] if "Diameter Gateway" in d["text"] and "#table-" in d["location"]]
    assert "products/bsf/bsf-3-3/#table-3-25" in hits


def test_scenario_page_shows_value_without_javascript(built_site):
    """The table is in the HTML itself: Table 3-25's BSF Management Service row with its 14 replicas."""
    html = (built_site / "products" / "bsf" / "bsf-3-3" / "index.html").read_text()
    start = html.index('data-atlas-table="3-25"')
    row = html[start:].split("BSF Management Service", 1)[1].split("</tr>", 1)[0]
    assert "<td>14</td>" in row


def test_calculator_page_is_prerendered(built_site):
    html = (built_site / "calculators" / "footprint" / "index.html").read_text()
    # the default: BSF nBSF + Rx at 63,000 TPS sized from its three comparable runs (BSF 3.3's pods: the run at that load)
    assert 'data-prerendered="true"' in html and 'data-method="evidence"' in html and 'data-service="BSF Management Service"' in html
    assert 'id="calc-comparable-runs"' in html and 'href="?call_model=policy%3Apcf-sm&amp;load=50000' in html
    assert "calculator.js" in html
    scenario = (built_site / "products" / "bsf" / "bsf-3-3" / "index.html").read_text()
    assert "pyodide" not in scenario.lower() and "calculator.js" not in scenario


def test_bad_row_stops_the_build_with_file_row_column(tmp_path):
    d = copy_data(tmp_path)
    p = d / "bsf" / "resources.csv"
    lines = p.read_text().splitlines()
    cells = lines[3].split(",")
    cells[11] = "many"  # replicas of the third data row
    lines[3] = ",".join(cells)
    p.write_text("\n".join(lines) + "\n")
    r = build_site(tmp_path / "out", data=d)
    assert r.returncode != 0
    out = r.stdout + r.stderr
    assert "bsf/resources.csv" in out and "row 4" in out and "column replicas" in out


# Markup in data (a scenario's notes, title, service names) staying text in every built file: tests/test_security.py
# (the poisoned site), which covers what a test here built a whole site for.


def test_every_curated_table_is_on_a_page(built_site, atlas):
    """Each table of tables.yaml has its own anchored section on its product or scenario page."""
    from atlas.html import anchor
    for doc in atlas.docs():
        html = "".join(p.read_text() for p in (built_site / "products" / doc).rglob("index.html"))
        missing = [t["id"] for t in atlas.tables if t["doc"] == doc and f'id="{anchor(t["id"])}"' not in html]
        assert missing == [], f"{doc}: tables on no page: {missing}"
