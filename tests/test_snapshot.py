"""Calculator pages boot Python from the build's memory snapshot (Pyodide's heap with
every calculator imported and its data loaded, made in Node by tools/make_snapshot.mjs), and fall back
to Python's own start-up, the code pack and the data bundle on any failure of the snapshot: missing,
truncated, made by another Pyodide, or not a snapshot at all. Why and how much sooner:
tools/snapshot_experiment.py."""
from __future__ import annotations

import hashlib
import json
import re
import struct
from pathlib import Path

import pytest

from calculators.catalogue import CATALOGUE, FILE_BUNDLES
from conftest import BOOT_LIMIT_MS, ROOT, _Handler, computed, result_cell, serve, serve_manifest_and_pages, site_manifest

CALC = "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70"
SNAPSHOT = re.compile(r"/assets/py/snapshot\.[0-9a-f]{12}\.pack$")
MAGIC = 0x706E7300
"""The first 32-bit word of every Pyodide memory snapshot (pyodide.asm.mjs, API.makeSnapshot; Pyodide's
src/tests/test_snapshots.py writes it as 0x706e7300)."""


def _snapshot(site: Path) -> tuple[dict, bytes]:
    entry = site_manifest(site)["snapshot"]
    return entry, (site / "assets" / "py" / entry["file"]).read_bytes()


def test_the_build_writes_one_snapshot_of_the_served_pyodide_for_every_calculator(built_site):
    entry, data = _snapshot(built_site)
    assert re.fullmatch(r"snapshot\.[0-9a-f]{12}\.pack", entry["file"]), entry["file"]
    assert entry["file"].split(".")[1] == hashlib.sha256(data).hexdigest()[:12]  # named by its content
    assert entry["bytes"] == len(data)
    # every calculator but those whose data is a file of its own (the query page's database: catalogue.FILE_BUNDLES)
    assert entry["calculators"] == sorted(set(CATALOGUE) - set(FILE_BUNDLES)) and "query" in FILE_BUNDLES
    assert struct.unpack_from("<I", data, 0)[0] == MAGIC
    # Words 4 to 11 of the header are Pyodide's BUILD_ID (a hash of pyodide.asm.mjs and .wasm), the
    # one the Pyodide the site serves checks before restoring the snapshot.
    build_id = "".join(f"{w:08x}" for w in struct.unpack_from("<8I", data, 16))
    assert build_id == entry["build_id"]
    served = (built_site / "assets" / "vendor" / "pyodide" / "pyodide.mjs").read_text(encoding="utf-8")
    assert re.findall(r'BUILD_ID:"([0-9a-f]{64})"', served) == [build_id]
    # The heap holds the calculators and the data, and no path of the machine that built it (Node's default
    # sys.executable would be the path of tools/make_snapshot.mjs). Pyodide's own build paths
    # (/root/repo/cpython/...) are in its WebAssembly data, as in any Pyodide.
    assert b"calculators/footprint.py" in data
    for local in (str(ROOT), str(built_site), str(ROOT / "node_modules")):
        assert local.encode() not in data, local


def _served_with_snapshot(alter, built=False) -> type[_Handler]:
    """A handler (its own class each call) serving the built site with the snapshot's bytes passed
    through ``alter(bytes) -> bytes | None`` (None: HTTP 404). ``built``: as a build would have written them (the
    manifest giving their size and SHA-256, the pages naming that manifest), so that they pass the worker's check
    and reach Pyodide; else the manifest is the build's, and the worker finds that the bytes are not."""
    class Altered(_Handler):
        def do_GET(self):
            if built:
                from atlas.assets import file_digest
                manifest = site_manifest(Path(self.directory))
                snap = Path(self.directory) / "assets" / "py" / manifest["snapshot"]["file"]
                manifest["digests"][f"assets/py/{snap.name}"] = file_digest(alter(snap.read_bytes()))
                manifest["snapshot"]["bytes"] = manifest["digests"][f"assets/py/{snap.name}"]["bytes"]
                if serve_manifest_and_pages(self, manifest):
                    return
            if not SNAPSHOT.search(self.path.split("?")[0]):
                return super().do_GET()
            body = alter(Path(self.translate_path(self.path)).read_bytes())
            if body is None:
                return self.send_error(404)
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    return Altered


def _requests(page) -> list[str]:
    urls: list[str] = []
    page.context.on("request", lambda r: urls.append(r.url.split("?")[0]))
    return urls


def _footprint_computed(page) -> None:
    """126K TPS on BSF scenario 3.3 at a 70 % target: BSF Management Service 17 replicas (memory binds) and
    Diameter Gateway's sidecar 18 (test_calculators.test_observed_cpu_rule_scenario_3_3 computes them by hand
    from Table 3-25); the prerendered default is 14."""
    computed(page)
    assert result_cell(page, "BSF Management Service", "app", "Replicas (target)") == "17"
    assert result_cell(page, "Diameter Gateway", "istio-proxy", "Replicas (target)") == "18"


@pytest.mark.browser
def test_the_calculator_boots_from_the_snapshot_without_the_pack_or_the_bundle(page, site_url, built_site):
    urls = _requests(page)
    page.goto(site_url + CALC, wait_until="load")
    _footprint_computed(page)
    assert page.get_attribute("#atlas-calculator", "data-boot-from") == "snapshot"
    assert page.get_attribute("#atlas-calculator", "data-snapshot-error") is None
    assert page.get_attribute("#atlas-calculator", "data-bytecode") == "used"  # the snapshot imported the bytecode
    manifest = site_manifest(built_site)
    assert [u for u in urls if SNAPSHOT.search(u)] == [site_url + "/assets/py/" + manifest["snapshot"]["file"]]
    assert not [u for u in urls if "/assets/py/code." in u or "/assets/data/" in u], urls
    assert page.js_errors == []


def _build_id_of_another_pyodide(data: bytes) -> bytes:
    return data[:16] + bytes(range(32)) + data[48:]


def _one_byte_changed(data: bytes) -> bytes:
    """The snapshot with the byte at its middle changed (its length kept): a stale or damaged copy under its name."""
    i = len(data) // 2
    return data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1:]


FALLBACKS = {
    # (alter, as a build would have written it (the manifest's digest follows), what data-snapshot-error says)
    "missing": (lambda d: None, False, r"assets/py/snapshot\.[0-9a-f]{12}\.pack is missing: the server answered HTTP 404\."),
    "truncated": (lambda d: d[:-65536], False,
                  r"assets/py/snapshot\.[0-9a-f]{12}\.pack is [\d,]+ bytes where the build wrote [\d,]+: it is truncated, or not this build's\."),
    "changed-byte": (_one_byte_changed, False,
                     r"assets/py/snapshot\.[0-9a-f]{12}\.pack is not the file this build wrote: its SHA-256 begins [0-9a-f]{12} where the build's begins [0-9a-f]{12}\."),
    "another-pyodide": (_build_id_of_another_pyodide, True, r"^Snapshot build id mismatch$"),
    "not-a-snapshot": (lambda d: bytes(4) + d[4:], True, r"^Snapshot has invalid magic number$"),
}


@pytest.mark.browser
@pytest.mark.parametrize("case", sorted(FALLBACKS))
def test_a_snapshot_that_cannot_be_used_falls_back_to_the_files_and_still_computes(page, built_site, case):
    alter, built, words = FALLBACKS[case]
    httpd, url = serve(built_site, _served_with_snapshot(alter, built))
    try:
        urls = _requests(page)
        page.goto(url + CALC, wait_until="load")
        _footprint_computed(page)
        assert page.get_attribute("#atlas-calculator", "data-boot-from") == "files"
        reason = page.get_attribute("#atlas-calculator", "data-snapshot-error") or ""
        assert re.search(words, reason), reason
        manifest = site_manifest(built_site)
        assert url + "/assets/py/" + manifest["packs"]["footprint"]["pack"] in urls
        assert url + "/assets/data/" + manifest["bundles"]["footprint"]["marshal"] in urls
        assert page.js_errors == []
    finally:
        httpd.shutdown()


@pytest.mark.browser
def test_after_a_snapshot_boot_the_worker_warms_up_without_touching_the_result(page, site_url):
    """The warm-up (pyworker.mjs, WARM_RUNS): after the first result of a snapshot boot the worker computes the same
    inputs eight more times, each run's ms reported, and drops them: no result shown, no run counted, the downloads
    still the reader's; the reader's next run computes as before."""
    page.goto(site_url + CALC, wait_until="load")
    _footprint_computed(page)
    assert page.get_attribute("#atlas-calculator", "data-boot-from") == "snapshot"
    page.wait_for_function("""() => { const a = document.getElementById('atlas-calculator').getAttribute('data-warm-ms');
        return a && JSON.parse(a).length === 8; }""", timeout=BOOT_LIMIT_MS)
    warm = json.loads(page.get_attribute("#atlas-calculator", "data-warm-ms"))
    assert all(ms is None or (isinstance(ms, int) and ms >= 0) for ms in warm) and any(ms is not None for ms in warm), warm
    assert page.get_attribute("#atlas-calculator", "data-warm-error") is None
    assert page.get_attribute("#atlas-calculator", "data-runs-computed") == "1"
    assert page.get_attribute("#atlas-calculator", "data-result-seq") == "1"
    page.wait_for_selector('#atlas-calculator[data-downloads-for="1"]', state="attached", timeout=BOOT_LIMIT_MS)
    with page.expect_download() as dl:
        page.click("#calc-dl-csv")
    assert "# target_load: 126000\n" in open(dl.value.path(), encoding="utf-8").read()
    page.click("#calc-run")
    page.wait_for_selector('#atlas-calculator[data-result-seq="2"]:not([data-busy])', state="attached", timeout=BOOT_LIMIT_MS)
    assert page.get_attribute("#atlas-calculator", "data-runs-computed") == "2"
    assert result_cell(page, "BSF Management Service", "app", "Replicas (target)") == "17"
    assert result_cell(page, "Diameter Gateway", "istio-proxy", "Replicas (target)") == "18"
    assert page.js_errors == []
