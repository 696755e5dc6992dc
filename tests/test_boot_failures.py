"""A calculator page under a mis-served or damaged site, and under runs that never end: every boot
failure is named in plain words with the file at fault (within 5 s of navigation for the files
checked before booting), every run has a time limit, and the status line never sticks."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import BOOT_LIMIT_MS, FAILED, READY, PackEditor, _Handler, result_cell, serve, status_points_at_the_message, wait_calc

CALC = "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70"
# Sizes of Pyodide 314.0.7's core files as npm ships them (node_modules/pyodide, `ls -l`).
WASM_BYTES = 9598218
# The standard library as the site serves it, its 614 members stored (atlas.assets.stdlib_zip): by the zip format,
# each member's bytes plus its local header (30 bytes) and central directory entry (46), each with its name, and the
# 22-byte end record: sum(file_size + 76 + 2 * len(name)) + 22 over npm's zip = 9,665,005.
STDLIB_BYTES = 9665005


def mangled(suffix: str, status: int = 200, ctype: str | None = None, keep=None) -> type[_Handler]:
    """A handler (its own class each call) serving the built site with the file whose path ends in
    ``suffix`` answered with HTTP ``status``, or with Content-Type ``ctype``, or with only its
    first ``keep(size)`` bytes (GET and HEAD alike, as a real server would)."""
    class Mangled(_Handler):
        def _mangle(self, body: bool) -> bool:
            if not self.path.split("?")[0].endswith(suffix):
                return False
            if status != 200:
                self.send_error(status)
                return True
            data = Path(self.translate_path(self.path)).read_bytes()
            if keep is not None:
                data = data[:keep(len(data))]
            self.send_response(200)
            self.send_header("Content-Type", ctype or self.guess_type(self.path))
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if body:
                self.wfile.write(data)
            return True

        def do_GET(self):
            if not self._mangle(True):
                super().do_GET()

        def do_HEAD(self):
            if not self._mangle(False):
                super().do_HEAD()
    return Mangled


def _failure(page, url) -> tuple[str, float]:
    page.goto(url + CALC, wait_until="load")
    page.wait_for_selector(FAILED, state="attached", timeout=BOOT_LIMIT_MS)
    status = page.inner_text("#atlas-calc-status")
    assert "The interactive calculator is unavailable" in status and "computed when the site was built" in status
    assert page.get_attribute("#atlas-calc-result", "data-prerendered") == "true"
    assert result_cell(page, "BSF Management Service") == "14"  # the prerendered default (63K TPS)
    assert page.is_disabled("#calc-run") and page.get_attribute("#atlas-calculator", "data-busy") is None
    return status, float(page.get_attribute("#atlas-calculator", "data-failed-ms"))


WASM = "assets/vendor/pyodide/pyodide.asm.wasm"
STDLIB = "assets/vendor/pyodide/python_stdlib.zip"
# (handler, words the status must hold, whether it links to Hosting); all are found by the checks
# made before booting, so each is named within 5 s of navigation.
EARLY = {
    "wasm-404": (mangled("/pyodide.asm.wasm", 404), [WASM + " is missing: the server answered HTTP 404."], False),
    "wasm-500": (mangled("/pyodide.asm.wasm", 500), [WASM + " is missing: the server answered HTTP 500."], False),
    "wasm-empty": (mangled("/pyodide.asm.wasm", keep=lambda n: 0), [WASM + " is empty (0 bytes)."], False),
    "wasm-truncated": (mangled("/pyodide.asm.wasm", keep=lambda n: n // 2),
                       [f"{WASM} is {WASM_BYTES // 2:,} bytes where the build wrote {WASM_BYTES:,}"], False),
    "wasm-octet-stream": (mangled("/pyodide.asm.wasm", ctype="application/octet-stream"),
                          [WASM + " is served as “application/octet-stream”",
                           "Configure the web server to send application/wasm for .wasm files; see Hosting."], True),
    "wasm-text-plain": (mangled("/pyodide.asm.wasm", ctype="text/plain"), [WASM + " is served as “text/plain”"], True),
    "stdlib-404": (mangled("/python_stdlib.zip", 404), [STDLIB + " is missing: the server answered HTTP 404."], False),
    "stdlib-truncated": (mangled("/python_stdlib.zip", keep=lambda n: n - 1000),
                         [f"{STDLIB} is {STDLIB_BYTES - 1000:,} bytes where the build wrote {STDLIB_BYTES:,}"], False),
    "lock-404": (mangled("/pyodide-lock.json", 404),
                 ["assets/vendor/pyodide/pyodide-lock.json is missing: the server answered HTTP 404."], False),
    "worker-404": (mangled("/pyworker.mjs", 404),
                   ["assets/js/pyworker.mjs (the calculator's worker script) is missing: the server answered HTTP 404."], False),
    "worker-text-plain": (mangled("/pyworker.mjs", ctype="text/plain"),
                          ["assets/js/pyworker.mjs (the calculator's worker script) is served as “text/plain”",
                           "send text/javascript for .mjs files; see Hosting."], True),
    # the page names the manifest by the start of its SHA-256 (data-manifest): a cut one is not the page's
    "manifest-truncated": (mangled("/assets/py/manifest.json", keep=lambda n: n - 40),
                           ["assets/py/manifest.json is not the one this page was built with: its SHA-256 begins"], False),
}


@pytest.mark.browser
@pytest.mark.parametrize("case", sorted(EARLY))
def test_a_mis_served_core_file_is_named_within_5_s(page, built_site, case):
    handler, words, hosting = EARLY[case]
    httpd, url = serve(built_site, handler)
    try:
        status, failed_ms = _failure(page, url)
        for w in words:
            assert w in status, (w, status)
        assert "Program terminated" not in status and "Unexpected token" not in status and "unknown error" not in status
        links = page.locator("#atlas-calc-status a").evaluate_all("els => els.map(a => a.href)")
        assert (links == [url + "/about/hosting/"]) == hosting, links
        assert failed_ms < 5000, failed_ms  # ms since navigation
        assert page.js_errors == []
    finally:
        httpd.shutdown()


class _CorruptPack(PackEditor):
    """Calculators/catalogue.py's bytecode overwritten with zeros after its 16-byte header (the pack and
    its manifest stay consistent in length): the code pack is damaged."""

    @staticmethod
    def edit(files):
        key = next(k for k in files if k.startswith("calculators/__pycache__/catalogue."))
        files[key] = files[key][:16] + bytes(len(files[key]) - 16)
        return files


class _CorruptBundle(PackEditor):
    """The footprint page's data bundle cut short after its magic number and a few bytes, as a build would have
    written it (the manifest gives its new size and SHA-256, so it passes the worker's check and reaches Python; and
    names no memory snapshot, so that the page boots from the files). Bytes that differ from what the manifest
    gives: tests/test_fetch_trust.py."""

    @staticmethod
    def edit_bundle(data):
        return data[:4 + 1000]


@pytest.mark.browser
@pytest.mark.parametrize("handler,words", [
    (_CorruptPack, [r"assets/py/code\.footprint\.[0-9a-f]{12}\.pack is damaged \(its Python code does not import\): ValueError: bad marshal data"]),
    (_CorruptBundle, [r"assets/data/calculator-bundle\.footprint\.[0-9a-f]{12}\.marshal is damaged \(it does not load\): EOFError"]),
], ids=["pack", "bundle"])
def test_a_damaged_code_pack_or_data_bundle_is_named_with_the_traceback_behind_details(page, built_site, handler, words):
    """``words``: regular expressions (the files' names carry their content hash)."""
    httpd, url = serve(built_site, handler)
    try:
        status_el = page.locator("#atlas-calc-status")
        status, _ = _failure(page, url)
        for w in words:
            assert re.search(w, status), (w, status)
        # the Python traceback is there for whoever needs it, folded away
        assert status_el.locator("details.atlas-details").count() == 1
        assert not status_el.locator("details.atlas-details").evaluate("d => d.open")
        assert "Traceback" in status_el.locator("details.atlas-details pre").text_content()
        assert "Traceback" not in status_el.evaluate("s => s.firstChild.textContent")
        assert page.js_errors == []
    finally:
        httpd.shutdown()


# --- runs have a time limit ---------------------------------------------------------------------

class _EndlessPython(PackEditor):
    """Calculators/catalogue.py with run() looping for ever when the load is 777, recursing without end when it is
    778, failing as the runtime does when it cannot go on (an error naming a fatal error, after 0.3 s) when it is
    779, and failing after taking Python's heap past 1 GiB (a 1.2 GB buffer it keeps) when it is 780 (no bytecode,
    so that the edited source is what Pyodide imports)."""

    @staticmethod
    def edit(files):
        files = {k: v for k, v in files.items() if not k.startswith("calculators/__pycache__/catalogue.")}
        files["calculators/catalogue.py"] += (b"\n_real_run = run\n\ndef _deep(n):\n    return _deep(n + 1) + 1\n\n"
                                        b"def run(bundle, params, later=False):\n"
                                        b"    if params.get('load') == '777':\n"
                                        b"        while True:\n            pass\n"
                                        b"    if params.get('load') == '778':\n"
                                        b"        import sys\n        sys.setrecursionlimit(10 ** 9)\n        _deep(0)\n"
                                        b"    if params.get('load') == '779':\n"
                                        b"        import time\n        t = time.monotonic()\n"
                                        b"        while time.monotonic() - t < 0.3:\n            pass\n"
                                        b"        raise RuntimeError('Pyodide has suffered a fatal error (simulated)')\n"
                                        b"    if params.get('load') == '780':\n"
                                        b"        global _hog\n        _hog = bytearray(1_200_000_000)\n"
                                        b"        raise MemoryError('simulated: the run took 1.2 GB')\n"
                                        b"    return _real_run(bundle, params, later)\n")
        return files


_IDLE_AFTER = """() => { const c = document.getElementById('atlas-calculator');
    return c.dataset.state === 'ready' && !c.hasAttribute('data-busy') && +c.dataset.resultSeq > N
        && new URLSearchParams(location.search).get('load') === 'LOAD'; }"""
"""Python is idle, a result newer than number N is shown, and it is that of load LOAD (the permalink follows the
result shown)."""


@pytest.mark.browser
@pytest.mark.parametrize("load", ["777", "778"], ids=["loop", "recursion"])
def test_a_run_that_never_returns_is_stopped_said_and_python_restarted(page, built_site, load):
    httpd, url = serve(built_site, _EndlessPython)
    try:
        page.goto(url + CALC + "&atlas_run_timeout_ms=4000", wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-result-seq="1"]:not([data-busy])', state="attached", timeout=BOOT_LIMIT_MS)
        assert result_cell(page, "BSF Management Service") == "17"  # 126K TPS at 70 %: memory binds (test_footprint_rules, Tables 3-25/3-28)
        page.fill("#calc-load", load)
        page.click("#calc-run")
        page.fill("#calc-load", "80000")
        page.click("#calc-run")  # pressed while the endless run holds Python: waits, is not lost
        # Either the run limit stops it, or the runtime dies of the recursion (a fatal error): both restart Python.
        wait_calc(page, '#atlas-calculator[data-restarts="1"]')
        msg = page.inner_text("#atlas-calc-message")
        # "is restarting" while it does; "was restarted" once it is back (the newer inputs' result then clears it)
        assert ("did not finish within 4 s" in msg or "internal error" in msg) and ("Python is restarting" in msg or "Python was restarted" in msg), msg
        # the press made while the endless run held Python is computed after the restart: the result of the newest
        # inputs (80000) is shown, Python idle. Its number is 3, or higher where typing's own run (250 ms after the last
        # key) started before the press that followed it, as it can on a busy machine
        wait_calc(page, "80000 computed after the restart", until=_IDLE_AFTER.replace("N", "2").replace("LOAD", "80000"))
        assert page.inner_text("#atlas-calc-status").startswith("Computed in your browser")
        # and the page works on: a further run answers
        shown = int(page.get_attribute("#atlas-calculator", "data-result-seq"))
        page.fill("#calc-load", "126000")
        page.click("#calc-run")
        wait_calc(page, "126000 computed", until=_IDLE_AFTER.replace("N", str(shown)).replace("LOAD", "126000"))
        assert result_cell(page, "BSF Management Service") == "17"
        assert page.js_errors == []
    finally:
        httpd.shutdown()


@pytest.mark.browser
def test_a_fatal_error_while_newer_inputs_wait_restarts_python_and_computes_them(page, built_site):
    """Python fails fatally (load 779: the error comes 0.3 s after the press, long after the page's 60 ms pause
    between inputs) while newer inputs (80000 TPS) wait: Python restarts and computes them. They were lost before:
    sent to the dying Python, then dropped by the restart."""
    httpd, url = serve(built_site, _EndlessPython)
    try:
        page.goto(url + CALC, wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-result-seq="1"]:not([data-busy])', state="attached", timeout=BOOT_LIMIT_MS)
        # both presses in one task of the page: 80000 is surely waiting when 779 fails (Playwright's own fill and click
        # can take more than 0.3 s each on a busy machine; then 779, typed and pressed, was computed twice, failing twice)
        page.evaluate("""() => { const form = document.querySelector('#atlas-calculator form'), load = document.getElementById('calc-load');
            load.value = '779'; form.requestSubmit(); load.value = '80000'; form.requestSubmit(); }""")
        page.wait_for_selector('#atlas-calculator[data-restarts="1"]', state="attached", timeout=BOOT_LIMIT_MS)
        assert "fatal error (simulated)" in page.inner_text("#atlas-calc-message")
        wait_calc(page, "80000 computed after the restart", until=_IDLE_AFTER.replace("N", "2").replace("LOAD", "80000"))
        assert page.input_value("#calc-load") == "80000"
        assert page.get_attribute("#atlas-calculator", "data-restarts") == "1"
        assert page.js_errors == []
    finally:
        httpd.shutdown()


@pytest.mark.browser
def test_an_error_that_leaves_python_past_1_gib_restarts_it(page, built_site):
    """A run that fails after taking Python's heap past 1 GiB (load 780 keeps a 1.2 GB buffer; a runaway recursion
    with a long run limit reaches the 4 GiB ceiling and leaves every later run failing with "lost sys.stderr") restarts
    Python, saying how large it had grown; the restarted Python computes with its heap back to tens of MB."""
    httpd, url = serve(built_site, _EndlessPython)
    try:
        page.goto(url + CALC, wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-result-seq="1"]:not([data-busy])', state="attached", timeout=BOOT_LIMIT_MS)
        before = int(page.get_attribute("#atlas-calculator", "data-heap-bytes"))
        # one press, no typing: typed, 780 would also be computed by the live run, and fail twice on a busy machine
        page.evaluate("""() => { document.getElementById('calc-load').value = '780';
            document.querySelector('#atlas-calculator form').requestSubmit(); }""")
        page.wait_for_selector('#atlas-calculator[data-restarts="1"][data-state="ready"]', state="attached", timeout=BOOT_LIMIT_MS)
        msg = page.inner_text("#atlas-calc-message")
        assert "MemoryError: simulated" in msg and "Python's memory had grown to 1." in msg and "Python was restarted" in msg, msg
        shown = int(page.get_attribute("#atlas-calculator", "data-result-seq"))
        page.fill("#calc-load", "126000")
        page.click("#calc-run")
        wait_calc(page, "126000 computed after the restart", until=_IDLE_AFTER.replace("N", str(shown)).replace("LOAD", "126000"))
        assert result_cell(page, "BSF Management Service") == "17"
        assert int(page.get_attribute("#atlas-calculator", "data-heap-bytes")) < 4 * before < 2 ** 30
        assert page.js_errors == []
    finally:
        httpd.shutdown()


@pytest.mark.browser
def test_inputs_that_blew_up_python_are_not_run_again_by_themselves_and_the_status_says_one_thing(page, built_site):
    """The same inputs waiting (typed, then pressed: here both presses in one task) when they blow
    Python's memory up (load 780 keeps a 1.2 GB buffer) ran again after the restart, and blew it up again (two
    restarts), while "Python is restarting." stayed in the message beside the status line's "Python was restarted".
    Now Python restarts once, the inputs are not run again by themselves, the message and the status line both say it
    was restarted (nothing says it is restarting), and the message says the inputs may be changed or tried again;
    changed, they compute."""
    httpd, url = serve(built_site, _EndlessPython)
    try:
        page.goto(url + CALC, wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-result-seq="1"]:not([data-busy])', state="attached", timeout=BOOT_LIMIT_MS)
        page.evaluate("""() => { const form = document.querySelector('#atlas-calculator form'), load = document.getElementById('calc-load');
            load.value = '780'; form.requestSubmit(); form.requestSubmit(); }""")
        # Python back and idle (no run in flight or waiting) after a restart: the second press would have kept it busy
        wait_calc(page, "idle after the restart", until="""() => { const c = document.getElementById('atlas-calculator');
            return c.hasAttribute('data-restarts') && c.dataset.state === 'ready' && !c.hasAttribute('data-busy'); }""")
        assert page.get_attribute("#atlas-calculator", "data-restarts") == "1"
        # the first Python's result 1 and the run that blew it up; the restarted Python has run nothing
        assert page.get_attribute("#atlas-calculator", "data-runs-computed") == "2"
        msg, status = page.inner_text("#atlas-calc-message"), page.inner_text("#atlas-calc-status")
        assert msg.startswith("The calculator hit an internal error: MemoryError: simulated: the run took 1.2 GB (Python's memory had grown to 1."), msg
        assert msg.endswith("The result below is unchanged. Python was restarted; those inputs are not run again by themselves: "
                            "change them, or press Compute to try them again."), msg
        assert status == "Python was restarted after it ran out of memory. Change the inputs and press Compute.", status
        assert "restarting" not in msg + status
        assert result_cell(page, "BSF Management Service") == "17"  # the result before, unchanged
        assert page.input_value("#calc-load") == "780"  # left for the reader to change
        page.fill("#calc-load", "126000")
        page.click("#calc-run")
        wait_calc(page, "126000 computed after the restart", until=_IDLE_AFTER.replace("N", "1").replace("LOAD", "126000"))
        assert page.get_attribute("#atlas-calculator", "data-restarts") == "1"
        assert page.inner_text("#atlas-calc-status").startswith("Computed in your browser") and page.locator("#atlas-calc-message").is_hidden()
        assert page.js_errors == []
    finally:
        httpd.shutdown()


# --- the status line never sticks; links cannot lift the limits ---------------------------------

@pytest.mark.browser
def test_a_refused_permalink_says_why_in_the_status_line(page, site_url):
    page.goto(site_url + "/calculators/footprint/?scenario=bsf-3-3&load=-5", wait_until="load")
    page.wait_for_selector(READY + ':not([data-busy])', state="attached", timeout=BOOT_LIMIT_MS)
    page.wait_for_selector("#atlas-calc-message:not([hidden])", timeout=BOOT_LIMIT_MS)
    status = page.inner_text("#atlas-calc-status")
    assert "computing" not in status and "refused" in status and "default inputs" in status, status
    msg = page.inner_text("#atlas-calc-message")
    assert "This link's inputs were not valid" in msg and "-5" in msg, msg
    # the status line is above the message box and says so (it said "see the message above")
    assert "(see the message below)" in status_points_at_the_message(page)
    assert result_cell(page, "BSF Management Service") == "14"  # the prerendered default
    assert page.js_errors == []


@pytest.mark.browser
def test_a_number_the_field_cannot_hold_is_reported_not_replaced_by_the_default(page, site_url):
    page.goto(site_url + "/calculators/footprint/?scenario=bsf-3-3&load=126000&sites=1e400", wait_until="load")
    msg = page.inner_text("#atlas-calc-message")
    assert "This link could not be used" in msg and "sites “1e400” is too large a number" in msg, msg
    assert page.input_value("#calc-load") == "63000"  # nothing from the link was applied
    page.wait_for_selector(READY, state="attached", timeout=BOOT_LIMIT_MS)
    assert page.get_attribute("#atlas-calculator", "data-result-seq") is None  # nothing was computed
    # typed into the field, the same number is refused, not computed with the default sites. Typing is key by key, so
    # on a busy machine a live run may compute a readable prefix ("1", "1e4") between two keys: the claim is about what
    # happens once the whole text is in, so the count is taken then, with Python idle (no run in flight or waiting).
    page.locator("#calc-sites").press_sequentially("1e400")
    page.fill("#calc-load", "126000")
    idle = READY + ":not([data-busy])"
    page.wait_for_selector(idle, state="attached", timeout=BOOT_LIMIT_MS)
    before = page.get_attribute("#atlas-calculator", "data-result-seq")
    page.click("#calc-run")
    assert "could not read sites as a number" in page.inner_text("#atlas-calc-message")
    page.wait_for_selector(idle, state="attached", timeout=BOOT_LIMIT_MS)
    assert page.get_attribute("#atlas-calculator", "data-result-seq") == before  # the press computed nothing
    assert page.get_attribute("#calc-sites", "aria-invalid") == "true"
    assert page.js_errors == []


@pytest.mark.browser
@pytest.mark.parametrize("param,raw,used", [
    ("atlas_timeout_ms", "0", 3000), ("atlas_timeout_ms", "99999999", 300000), ("atlas_timeout_ms", "-1", 60000),
    ("atlas_timeout_ms", "Infinity", 60000), ("atlas_run_timeout_ms", "0", 1000), ("atlas_run_timeout_ms", "1e9", 20000),
])
def test_a_link_cannot_remove_a_limit(page, site_url, param, raw, used):
    """The boot limit is 3 to 300 s (default 60 s, the page's data-timeout-ms), the run limit 1 to 120 s (default 20 s)."""
    page.goto(site_url + CALC + f"&{param}=" + raw, wait_until="load")
    lo, hi = (3000, 300000) if param == "atlas_timeout_ms" else (1000, 120000)
    msg = page.inner_text("#atlas-calc-message")
    assert f"{param}=“{raw}” is outside {lo} to {hi} ms; using {used} ms." in msg, msg
    attr = "data-boot-limit-ms" if param == "atlas_timeout_ms" else "data-run-limit-ms"
    assert page.get_attribute("#atlas-calculator", attr) == str(used)
    if param == "atlas_timeout_ms" and used == 3000 and page.get_attribute("#atlas-calculator", "data-state") == "failed":
        # 3 s from the navigation is a limit a loaded machine's boot may really overrun: then it fails for 3 s, never
        # for the 0 the link asked for (data-failed-ms: the page's clock when it gave up, from the navigation)
        assert "Python did not finish loading within 3 s" in page.inner_text("#atlas-calc-status")
        assert int(page.get_attribute("#atlas-calculator", "data-failed-ms")) >= 3000
    else:
        assert page.get_attribute("#atlas-calculator", "data-state") != "failed"
    assert page.js_errors == []


# --- a large CSV of your own; a burst of input ----------------------------------------------------

def _own_csv(n: int) -> str:
    """N rows; observed (i x 7 mod 100) + 1 % runs through 1..100 % once every 100 rows (7 and 100
    are coprime), against a 70 % target."""
    return "\n".join(["name,replicas,cpu_request,observed,target"] +
                     [f"svc{i},{i % 50 + 1},2,{(i * 7) % 100 + 1}%,70" for i in range(n)])


def test_a_large_own_csv_is_counted_in_full_but_only_its_first_rows_are_written_into_the_page(bundle):
    from calculators import catalogue
    res = catalogue.run(bundle, {"calc": "overtarget", "csv": _own_csv(5000)})
    assert res["ok"], res
    html = res["html"]
    # by hand: of each 100 rows, observed 70..100 % is over a 70 % target (31 rows), 63..69 % near
    # (7: within 10 % relative, 0.9 x 70 = 63), 1..62 % ok (62); times 50
    assert "5,000 rows evaluated: <strong>1,550</strong> over, <strong>350</strong> near, 3,100 ok." in html
    assert html.count("<tr data-service=\"svc") == 100
    assert 'data-service="svc99"' in html and 'data-service="svc100"' not in html
    assert "The first 100 of your 5,000 rows are shown here; the CSV download has all of them" in html
    csv_rows = res["downloads"]["csv"]["text"].splitlines()
    assert sum(1 for r in csv_rows if r.startswith("own-cpu,")) == 5000
    # a short CSV is shown whole, with no note
    small = catalogue.run(bundle, {"calc": "overtarget", "csv": _own_csv(100)})["html"]
    assert small.count("<tr data-service=\"svc") == 100 and "are shown here" not in small


@pytest.mark.browser
def test_a_5000_row_paste_is_computed_and_the_page_shows_the_first_100(page, site_url):
    page.goto(site_url + "/calculators/over-target/", wait_until="load")
    page.wait_for_selector(READY, state="attached", timeout=BOOT_LIMIT_MS)
    # The text goes in as a paste lands: the value, then an input event. Not through Playwright's insert_text:
    # Chromium's editor takes it character by character (1,000 rows: 6.4 s in a bare textarea, with or without
    # spellcheck; 5,000 rows: about 100 s of this test), which measures Playwright, not the page.
    page.evaluate("""(text) => { const el = document.getElementById('calc-csv'); el.focus(); el.value = text;
        el.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'})); }""", _own_csv(5000))
    page.click("#calc-run")
    # the result of the pasted rows, Python idle: result 1, or 2 where the paste's own run (250 ms after it) started
    # before the press, as it can on a busy machine
    wait_calc(page, "the paste computed", until="""() => { const c = document.getElementById('atlas-calculator');
        return c.dataset.state === 'ready' && !c.hasAttribute('data-busy') && +c.dataset.resultSeq >= 1; }""")
    assert page.locator("table.atlas-own tbody tr").count() == 100
    assert "5,000 rows evaluated: 1,550 over, 350 near, 3,100 ok." in page.inner_text("#atlas-calc-result")
    assert page.inner_text("#atlas-calc-status").startswith("Computed in your browser")
    assert page.js_errors == []


@pytest.mark.browser
def test_a_burst_of_100_changes_computes_only_the_newest_and_memory_stays_flat(page, site_url):
    page.goto(site_url + CALC, wait_until="load")
    page.wait_for_selector('#atlas-calculator[data-result-seq="1"]:not([data-busy])', state="attached", timeout=BOOT_LIMIT_MS)
    # 100 changes, each submitted, within a second: back to back, then 10 ms apart (runs of this
    # calculator take a few ms, so there each change would find Python idle)
    burst = """async ([from, gap]) => {
        const form = document.querySelector('#atlas-calculator form'), load = document.getElementById('calc-load');
        for (let i = 0; i < 100; i++) {
            load.value = String(from + 100 * i);
            form.requestSubmit();
            await (gap ? new Promise((r) => setTimeout(r, gap)) : Promise.resolve());
        }
    }"""
    heaps, runs = [], [1]
    for n, (start, gap) in enumerate(((60000, 0), (90000, 10)), 1):
        page.evaluate(burst, [start, gap])
        page.wait_for_selector(f'#atlas-calculator[data-result-seq="{1 + 100 * n}"]:not([data-busy])', state="attached",
                               timeout=BOOT_LIMIT_MS)
        runs.append(int(page.get_attribute("#atlas-calculator", "data-runs-computed")))
        assert f"load={start + 9900}" in page.url  # the newest is shown
        heaps.append(int(page.get_attribute("#atlas-calculator", "data-heap-bytes")))
    # back to back: the first change (sent at once) and the newest. Spaced by timers: the same, unless this busy
    # machine's timers stall past the 60 ms pause that ends a burst. With the suite in two processes, 19 of 100 were
    # computed once (timers firing 60+ ms late); 50 is half of one run per change, which coalescing would not be.
    assert runs[1] - runs[0] == 2 and runs[2] - runs[1] <= 50, runs
    assert heaps[0] == heaps[1], heaps  # Python's heap did not grow in the second burst
    assert page.js_errors == []
