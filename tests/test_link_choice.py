"""Which boot a calculator page takes on this visit (pyworker.mjs, chooseBoot): the build's memory snapshot when the
service worker kept it from an earlier visit, or when the link measured at least SNAPSHOT_MIN_MBIT (22 Mbit/s: where
the snapshot and Python's own start-up cross, tools/benchmark.py --links-only --boot files|snapshot); Python's own
start-up and the calculator's files otherwise. Either way the page says which and why, and the numbers are the same.
The link is measured from what has come, Pyodide's WebAssembly and standard library included while they still
arrive (inFlight)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from http.server import SimpleHTTPRequestHandler

import pytest

from conftest import ROOT, computed, result_cell, serve

sys.path.insert(0, str(ROOT / "tools"))
import benchmark  # noqa: E402  (tools/ is not a package: its emulated link and precompressed server)

WORKER = ROOT / "docs" / "assets" / "js" / "pyworker.mjs"
CALC = "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70"
SNAPSHOT = re.compile(r"/assets/py/snapshot\.[0-9a-f]{12}\.pack$")


def _choose(cases: dict) -> dict:
    """chooseBoot, as pyworker.mjs has it (between its "choose begin" and "choose end" lines), run in Node on ``cases``."""
    source = WORKER.read_text(encoding="utf-8")
    part = source[source.index("// choose begin"):source.index("// choose end")]
    threshold = re.search(r"const SNAPSHOT_MIN_MBIT = (\d+);", source).group(1)
    script = f"const SNAPSHOT_MIN_MBIT = {threshold};\n" + part + """
const cases = JSON.parse(process.argv[1], (k, v) => (v === "Infinity" ? Infinity : v));
const out = {};
for (const [name, c] of Object.entries(cases)) out[name] = chooseBoot(c);
console.log(JSON.stringify(out));
"""
    run = subprocess.run(["node", "-e", script, json.dumps(cases)], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def _in_flight(cases: dict) -> dict:
    """inFlight, as pyworker.mjs has it (between its "in-flight begin" and "in-flight end" lines), run in Node."""
    source = WORKER.read_text(encoding="utf-8")
    part = source[source.index("// in-flight begin"):source.index("// in-flight end")]
    script = part + """
const cases = JSON.parse(process.argv[1]);
const out = {};
for (const [name, t] of Object.entries(cases)) out[name] = inFlight(t);
console.log(JSON.stringify(out));
"""
    run = subprocess.run(["node", "-e", script, json.dumps(cases)], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def test_a_file_still_arriving_counts_the_bytes_the_link_carried():
    """Pyodide's WebAssembly as the Hosting page's servers send it: pyodide.asm.wasm is 9,598,218 bytes, its .br
    3,284,635. 1,000,000 decoded bytes in, the link carried 1,000,000 x 3,284,635 / 9,598,218 = 342,213.0 -> 342,213
    (by hand). Sent as is, the decoded bytes are the link's; compressed with no length, or done, or not begun: none."""
    wasm = {"done": False, "at": 120.5, "got": 1_000_000, "total": 9_598_218}
    out = _in_flight({
        "brotli": {**wasm, "encoding": True, "encodedLength": 3_284_635},
        "as is": {**wasm, "encoding": False, "encodedLength": 9_598_218},
        "no length": {**wasm, "encoding": True, "encodedLength": None},
        "size unknown yet": {**wasm, "total": None, "encoding": True, "encodedLength": 3_284_635},
        "done": {**wasm, "done": True, "encoding": False},
        "no response yet": {**wasm, "at": None, "encoding": False},
        "nothing yet": {**wasm, "got": 0, "encoding": False},
    })
    assert out == {"brotli": 342_213, "as is": 1_000_000, "no length": None, "size unknown yet": None, "done": None,
                   "no response yet": None, "nothing yet": None}


def test_the_benchmark_forces_a_boot_in_its_copy_of_the_site(tmp_path):
    """tools/benchmark.py --boot: the copy's worker (minified, as the build writes it) takes one boot on every link."""
    js = tmp_path / "assets" / "js"
    js.mkdir(parents=True)
    (js / "pyworker.mjs").write_text("a=1,SNAPSHOT_MIN_MBIT=22;function chooseBoot(t){}")
    (js / "pyworker.mjs.br").write_bytes(b"old")
    benchmark.force_boot(tmp_path, "files")
    assert (js / "pyworker.mjs").read_text() == "a=1,SNAPSHOT_MIN_MBIT=1e9;function chooseBoot(t){}"
    assert not (js / "pyworker.mjs.br").exists()
    benchmark.force_boot(tmp_path, "snapshot")
    assert (js / "pyworker.mjs").read_text() == "a=1,SNAPSHOT_MIN_MBIT=0;function chooseBoot(t){}"
    (js / "pyworker.mjs").write_text("function chooseBoot(t){}")
    with pytest.raises(SystemExit, match="found 0 SNAPSHOT_MIN_MBIT"):
        benchmark.force_boot(tmp_path, "files")


def test_the_rule_takes_the_snapshot_when_kept_or_on_a_link_of_22_mbit_s_or_more():
    out = _choose({
        "no snapshot": {"snapshot": False, "mbit": 500},
        "kept, slow link": {"snapshot": True, "snapshotKept": True, "mbit": 1},
        "files kept": {"snapshot": True, "filesKept": True},
        "all from a cache": {"snapshot": True, "mbit": None},
        "localhost": {"snapshot": True, "mbit": "Infinity"},
        "100 Mbit/s": {"snapshot": True, "mbit": 96.4},
        "at the threshold": {"snapshot": True, "mbit": 22},
        "just under": {"snapshot": True, "mbit": 21.9},
        "20 Mbit/s": {"snapshot": True, "mbit": 18.7},
        "3 Mbit/s": {"snapshot": True, "mbit": 2.84},
    })
    assert {k: v["from"] for k, v in out.items()} == {
        "no snapshot": "files", "kept, slow link": "snapshot", "files kept": "files", "all from a cache": "files",
        "localhost": "snapshot", "100 Mbit/s": "snapshot", "at the threshold": "snapshot", "just under": "files",
        "20 Mbit/s": "files", "3 Mbit/s": "files"}
    assert out["localhost"]["why"].startswith("the link measured over 1,000 Mbit/s: at 22 Mbit/s or more")
    assert out["100 Mbit/s"]["why"].startswith("the link measured 96 Mbit/s")
    assert out["3 Mbit/s"]["why"].startswith("the link measured 2.8 Mbit/s: under 22 Mbit/s")
    assert out["kept, slow link"]["why"] == "the memory snapshot was kept from an earlier visit"


SLOW_MBIT = 10
"""The emulated link of the slow handler, under the 22 Mbit/s the snapshot needs: Pyodide's files (its JavaScript
modules, WebAssembly and standard library, about 5.1 MB with Brotli) take about 4 s."""


class SlowLink(benchmark.Precompressed):
    """Serves the built site as tools/benchmark.py does (the build's .br files to a browser that accepts them), with
    Pyodide's files (vendor/pyodide/: what the worker measures the link by) over its emulated ``Link``, one rate they
    share (the ``slow_link`` fixture sets it to SLOW_MBIT); everything else at full speed, so the test takes
    seconds."""

    def copyfile(self, source, outputfile):
        if "/vendor/pyodide/" in self.path:
            return super().copyfile(source, outputfile)
        return SimpleHTTPRequestHandler.copyfile(self, source, outputfile)


@pytest.fixture
def slow_link(built_site):
    """The built site served by SlowLink at SLOW_MBIT (no added round trip): its URL; the link reset afterwards."""
    benchmark.Link.set((SLOW_MBIT, 0))
    httpd, url = serve(built_site, SlowLink)
    try:
        yield url
    finally:
        httpd.shutdown()
        benchmark.Link.set(None)


def _requests(page) -> list[str]:
    urls: list[str] = []
    page.context.on("request", lambda r: urls.append(r.url.split("?")[0]))
    return urls


def _events(page) -> list[tuple[str, str]]:
    """("request" | "finished", file name) of every request of ``page``'s context (its worker's too), in order."""
    events: list[tuple[str, str]] = []
    page.context.on("request", lambda r: events.append(("request", r.url.split("?")[0].rsplit("/", 1)[-1])))
    page.context.on("requestfinished", lambda r: events.append(("finished", r.url.split("?")[0].rsplit("/", 1)[-1])))
    return events


def _result_rows(page) -> str:
    return page.inner_text("#atlas-calc-result table")


@pytest.mark.browser
def test_a_fast_link_boots_from_the_snapshot_and_says_why(page, site_url):
    urls = _requests(page)
    page.goto(site_url + CALC, wait_until="load")
    computed(page)
    assert page.get_attribute("#atlas-calculator", "data-boot-from") == "snapshot"
    why = page.get_attribute("#atlas-calculator", "data-boot-why") or ""
    assert re.fullmatch(r"the link measured (over 1,000|[\d.]+) Mbit/s: at 22 Mbit/s or more the memory snapshot comes first", why), why
    assert "Python booted from the build's memory snapshot: the link measured" in page.inner_text("#atlas-calc-status")
    assert [u for u in urls if SNAPSHOT.search(u)]
    assert page.js_errors == []


@pytest.mark.browser
def test_a_slow_link_boots_from_the_files_with_the_same_numbers(page, site_url, slow_link):
    """Scenario 3.3 at 126K TPS and a 70 % target: BSF Management Service 17 replicas and Diameter Gateway's sidecar
    18 (computed by hand from Table 3-25 in test_calculators.test_observed_cpu_rule_scenario_3_3), and the whole
    result table the same as the snapshot boot's on the fast link."""
    page.goto(site_url + CALC, wait_until="load")
    computed(page)
    assert page.get_attribute("#atlas-calculator", "data-boot-from") == "snapshot"
    fast = _result_rows(page)
    url = slow_link
    slow = page.context.new_page()
    urls = _requests(slow)
    events = _events(slow)
    slow.goto(url + CALC, wait_until="load")
    computed(slow)
    assert slow.get_attribute("#atlas-calculator", "data-boot-from") == "files"
    why = slow.get_attribute("#atlas-calculator", "data-boot-why") or ""
    m = re.fullmatch(r"the link measured ([\d.]+) Mbit/s: under 22 Mbit/s Python's own start-up comes before the memory snapshot would", why)
    assert m and float(m.group(1)) < 22, why
    assert "Python booted from its own start-up and the calculator's files: the link measured" in slow.inner_text("#atlas-calc-status")
    assert not [u for u in urls if SNAPSHOT.search(u)], "the snapshot was fetched on the slow link"
    assert result_cell(slow, "BSF Management Service", "app", "Replicas (target)") == "17"
    assert result_cell(slow, "Diameter Gateway", "istio-proxy", "Replicas (target)") == "18"
    assert _result_rows(slow) == fast
    # the code pack and data bundle are asked for only once Pyodide's WebAssembly and standard library have come,
    # not beside them (they would share the slow link with the 4.9 MB Python waits for)
    first = {}
    for i, e in enumerate(events):
        first.setdefault(e, i)
    pack = next(i for (kind, name), i in first.items() if kind == "request" and re.fullmatch(r"code\.footprint\.\w+\.pack", name))
    bundle = next(i for (kind, name), i in first.items() if kind == "request" and name.endswith(".marshal"))
    for core in ("pyodide.asm.wasm", "python_stdlib.zip"):
        assert first[("finished", core)] < min(pack, bundle), (core, events)
    assert page.js_errors == []


@pytest.mark.browser
def test_a_snapshot_kept_from_an_earlier_visit_is_taken_even_on_a_slow_link(page, built_site, slow_link):
    """The service worker's cache (atlas-<build>) holding the snapshot, as after a first visit that booted from it:
    the revisit takes it without measuring the link."""
    url = slow_link
    page.goto(url + "/", wait_until="load")
    manifest = json.loads((built_site / "assets" / "py" / "manifest.json").read_text())
    snap = url + "/assets/py/" + manifest["snapshot"]["file"]
    page.evaluate("""async (u) => { const c = await caches.open("atlas-test"); await c.add(u); }""", snap)
    page.goto(url + CALC, wait_until="load")
    computed(page)
    assert page.get_attribute("#atlas-calculator", "data-boot-from") == "snapshot"
    assert page.get_attribute("#atlas-calculator", "data-boot-why") == "the memory snapshot was kept from an earlier visit"
    assert result_cell(page, "BSF Management Service", "app", "Replicas (target)") == "17"
    assert page.js_errors == []
