"""What goes wrong says so in plain words: bad data stops the build naming file, row and column; a
calculator whose Python is slow, broken or fed a malformed link keeps the prerendered (or previous)
result, tells the reader what happened, and never spins for ever."""
from __future__ import annotations

import pytest

from conftest import (BOOT_LIMIT_MS, FAILED, PackEditor, build_site, copy_data, result_cell, rewrite_csv_cell, serve,
                      status_points_at_the_message, wasm_holder)


# --- bad data stops the build -------------------------------------------------------------------

@pytest.mark.parametrize("file,index,column,value,words", [
    ("bsf/utilization.csv", 0, "abs_unit", "furlongs", ["row 2", "column abs_unit"]),
    ("bsf/latency.csv", 2, "scenario", "bsf-9-9", ["row 4", "column scenario", "unknown scenario 'bsf-9-9'"]),
], ids=["unknown-unit", "unknown-scenario"])
def test_bad_data_stops_the_build_naming_file_row_column(tmp_path, file, index, column, value, words):
    d = copy_data(tmp_path)
    rewrite_csv_cell(d / file, index, column, value)
    r = build_site(tmp_path / "out", data=d)
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "Invalid data" in out and "Traceback" not in out
    assert file in out and all(w in out for w in words), (words, out[-2000:])
    assert not (tmp_path / "out" / "index.html").exists()


UNTRACEABLE = ["seed-line-9999999", "erratum-line-999999", "seed-file-missing", "row-label-changed",
               "cell-and-raw-changed-3-to-30", "memory-250-percent", "cpu-limit-below-request", "sites-with-traffic-site9",
               "table-rows-one-more", "table-rows-one-fewer"]
"""The defects an audit planted in a copy of data/ that built with no error: a seed line 9,999,999, an
erratum citing line 999999, a seed_file that does not exist, a row label changed ('Appinfx'), a cell and its raw text
changed together (3 -> 30 cores), memory 250 %, a CPU limit below its request, sites_with_traffic: site9 in a 4-site
scenario, a table's row count off by one (either way). Each is a case of tests/test_bad_data.py (CASES): its
breakage and the file, row and column the message names."""


@pytest.mark.parametrize("case", UNTRACEABLE)
def test_what_the_build_cannot_trace_stops_it(tmp_path, case):
    """Each defect stops the build at its first step, naming the file, the row (or item) and the column (or field), in
    one line without a traceback, and no site is written."""
    from test_bad_data import CASES
    _, breakage, file, where, column, what = next(c for c in CASES if c[0] == case)
    d = copy_data(tmp_path)
    breakage(d)
    r = build_site(tmp_path / "out", data=d)
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "Build step 'validate data' failed: Invalid data: " in out and "Traceback" not in out, out[-2000:]
    line = next(x for x in out.splitlines() if "Invalid data" in x)
    assert f"{d}/{file}: " in line and where in line and column in line and what in line, line
    assert not (tmp_path / "out").exists()


# --- calculator failure modes in the browser ----------------------------------------------------


_SlowWasm = wasm_holder()


@pytest.mark.browser
def test_slow_pyodide_gives_up_after_timeout_and_keeps_prerendered(page, built_site):
    httpd, url = serve(built_site, _SlowWasm)
    try:
        page.goto(url + "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70&atlas_timeout_ms=3000",
                  wait_until="load")
        page.wait_for_selector(FAILED, timeout=BOOT_LIMIT_MS)
        status = page.inner_text("#atlas-calc-status")
        assert "unavailable" in status and "did not finish loading within 3 s" in status
        assert "computed when the site was built" in status
        assert page.is_disabled("#calc-run")
        assert page.get_attribute("#atlas-calc-result", "data-prerendered") == "true"
        assert result_cell(page, "BSF Management Service") == "14"
        assert page.js_errors == []
    finally:
        _SlowWasm.release.set()
        httpd.shutdown()


class _BrokenPython(PackEditor):
    """Serves calculators/catalogue.py with run() raising RuntimeError when the load is 666 (and
    without its bytecode, which would otherwise be imported instead of the edited source)."""

    @staticmethod
    def edit(files):
        files = {k: v for k, v in files.items() if not k.startswith("calculators/__pycache__/catalogue.")}
        files["calculators/catalogue.py"] += (b"\n_real_run = run\n\ndef run(bundle, params, later=False):\n"
                                        b"    if params.get('load') == '666':\n"
                                        b"        raise RuntimeError('injected failure for the test')\n"
                                        b"    return _real_run(bundle, params, later)\n")
        return files


@pytest.mark.browser
def test_python_exception_shows_internal_error_and_keeps_previous_result(page, built_site):
    httpd, url = serve(built_site, _BrokenPython)
    try:
        page.goto(url + "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70", wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-result-seq="1"]', timeout=BOOT_LIMIT_MS)
        assert result_cell(page, "BSF Management Service") == "17"
        page.fill("#calc-load", "666")
        page.click("#calc-run")
        page.wait_for_selector("#atlas-calc-message:not([hidden])", timeout=BOOT_LIMIT_MS)
        msg = page.inner_text("#atlas-calc-message")
        assert "internal error" in msg and "kept the previous result" in msg
        assert "RuntimeError: injected failure for the test" in msg
        assert "Traceback" not in msg  # the reader gets the error, not a Python stack dump
        assert "(see the message below)" in status_points_at_the_message(page)
        assert page.get_attribute("#atlas-calculator", "data-busy") is None
        assert page.get_attribute("#atlas-calculator", "data-state") == "ready"
        assert result_cell(page, "BSF Management Service") == "17"
        assert "load=126000" in page.url  # the permalink still describes the result shown
        assert page.js_errors == []
    finally:
        httpd.shutdown()


@pytest.mark.browser
def test_permalink_with_non_numeric_sites_is_refused_in_plain_words(page, site_url):
    page.goto(site_url + "/calculators/footprint/?scenario=bsf-3-3&load=126000&sites=abc", wait_until="load")
    msg = page.inner_text("#atlas-calc-message")
    assert "This link could not be used" in msg and "sites" in msg and "abc" in msg and "default inputs" in msg
    assert page.input_value("#calc-load") == "63000"  # nothing from the link was applied
    assert result_cell(page, "BSF Management Service") == "14"
    assert page.js_errors == []


@pytest.mark.browser
def test_permalink_with_markup_in_scenario_is_shown_as_text(page, site_url):
    payload = "<img src=x onerror=window.__pwned=1>"
    page.goto(site_url + "/calculators/footprint/?scenario=" + payload.replace("=", "%3D").replace(" ", "%20"),
              wait_until="load")
    msg_el = page.locator("#atlas-calc-message")
    assert payload in msg_el.inner_text() and "unknown scenario" in msg_el.inner_text()
    assert msg_el.locator("img").count() == 0 and page.locator("img[src=x]").count() == 0
    assert page.evaluate("window.__pwned") is None
    assert result_cell(page, "BSF Management Service") == "14"
    assert page.js_errors == []
