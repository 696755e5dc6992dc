"""Which boot a calculator page takes on this visit (pyworker.mjs, chooseBoot): the build's memory snapshot when the
service worker kept it from an earlier visit, or when the link measured at least SNAPSHOT_MIN_MBIT (16 Mbit/s: where
the snapshot and Python's own start-up cross, tools/benchmark.py --links-only); Python's own start-up and the
calculator's files otherwise. Either way the page says which and why, and the numbers are the same."""
from __future__ import annotations

import json
import re
import subprocess
import time

import pytest

from conftest import ROOT, _Handler, computed, result_cell, serve

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


def test_the_rule_takes_the_snapshot_when_kept_or_on_a_link_of_16_mbit_s_or_more():
    out = _choose({
        "no snapshot": {"snapshot": False, "mbit": 500},
        "kept, slow link": {"snapshot": True, "snapshotKept": True, "mbit": 1},
        "files kept": {"snapshot": True, "filesKept": True},
        "all from a cache": {"snapshot": True, "mbit": None},
        "localhost": {"snapshot": True, "mbit": "Infinity"},
        "100 Mbit/s": {"snapshot": True, "mbit": 96.4},
        "at the threshold": {"snapshot": True, "mbit": 16},
        "just under": {"snapshot": True, "mbit": 15.9},
        "3 Mbit/s": {"snapshot": True, "mbit": 2.84},
    })
    assert {k: v["from"] for k, v in out.items()} == {
        "no snapshot": "files", "kept, slow link": "snapshot", "files kept": "files", "all from a cache": "files",
        "localhost": "snapshot", "100 Mbit/s": "snapshot", "at the threshold": "snapshot", "just under": "files",
        "3 Mbit/s": "files"}
    assert out["localhost"]["why"].startswith("the link measured over 1,000 Mbit/s: at 16 Mbit/s or more")
    assert out["100 Mbit/s"]["why"].startswith("the link measured 96 Mbit/s")
    assert out["3 Mbit/s"]["why"].startswith("the link measured 2.8 Mbit/s: under 16 Mbit/s")
    assert out["kept, slow link"]["why"] == "the memory snapshot was kept from an earlier visit"


SLOW_MBIT = 4
"""The emulated link of the slow handler: Pyodide's two JavaScript modules (about 1.27 MB uncompressed here) take
about 2.5 s at 4 Mbit/s, a quarter of the 16 Mbit/s the snapshot needs."""


class SlowModules(_Handler):
    """Serves the built site with Pyodide's JavaScript modules at SLOW_MBIT (the bytes the worker measures the link
    by before it chooses); everything else at full speed, so the test takes seconds."""
    def copyfile(self, source, outputfile):
        if not self.path.split("?")[0].endswith((".mjs",)) or "/vendor/pyodide/" not in self.path:
            return super().copyfile(source, outputfile)
        chunk = 32 * 1024
        while True:
            data = source.read(chunk)
            if not data:
                break
            outputfile.write(data)
            outputfile.flush()
            time.sleep(len(data) * 8 / (SLOW_MBIT * 1e6))


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
    assert re.fullmatch(r"the link measured (over 1,000|[\d.]+) Mbit/s: at 16 Mbit/s or more the memory snapshot comes first", why), why
    assert "Python booted from the build's memory snapshot: the link measured" in page.inner_text("#atlas-calc-status")
    assert [u for u in urls if SNAPSHOT.search(u)]
    assert page.js_errors == []


@pytest.mark.browser
def test_a_slow_link_boots_from_the_files_with_the_same_numbers(page, site_url, built_site):
    """Scenario 3.3 at 126K TPS and a 70 % target: BSF Management Service 17 replicas and Diameter Gateway's sidecar
    18 (computed by hand from Table 3-25 in test_calculators.test_observed_cpu_rule_scenario_3_3), and the whole
    result table the same as the snapshot boot's on the fast link."""
    page.goto(site_url + CALC, wait_until="load")
    computed(page)
    assert page.get_attribute("#atlas-calculator", "data-boot-from") == "snapshot"
    fast = _result_rows(page)
    httpd, url = serve(built_site, SlowModules)
    try:
        slow = page.context.new_page()
        urls = _requests(slow)
        events = _events(slow)
        slow.goto(url + CALC, wait_until="load")
        computed(slow)
        assert slow.get_attribute("#atlas-calculator", "data-boot-from") == "files"
        why = slow.get_attribute("#atlas-calculator", "data-boot-why") or ""
        m = re.fullmatch(r"the link measured ([\d.]+) Mbit/s: under 16 Mbit/s Python's own start-up comes before the memory snapshot would", why)
        assert m and float(m.group(1)) < 16, why
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
    finally:
        httpd.shutdown()
    assert page.js_errors == []


@pytest.mark.browser
def test_a_snapshot_kept_from_an_earlier_visit_is_taken_even_on_a_slow_link(page, built_site):
    """The service worker's cache (atlas-<build>) holding the snapshot, as after a first visit that booted from it:
    the revisit takes it without measuring the link."""
    httpd, url = serve(built_site, SlowModules)
    try:
        page.goto(url + "/", wait_until="load")
        manifest = json.loads((built_site / "assets" / "py" / "manifest.json").read_text())
        snap = url + "/assets/py/" + manifest["snapshot"]["file"]
        page.evaluate("""async (u) => { const c = await caches.open("atlas-test"); await c.add(u); }""", snap)
        page.goto(url + CALC, wait_until="load")
        computed(page)
        assert page.get_attribute("#atlas-calculator", "data-boot-from") == "snapshot"
        assert page.get_attribute("#atlas-calculator", "data-boot-why") == "the memory snapshot was kept from an earlier visit"
        assert result_cell(page, "BSF Management Service", "app", "Replicas (target)") == "17"
    finally:
        httpd.shutdown()
    assert page.js_errors == []
