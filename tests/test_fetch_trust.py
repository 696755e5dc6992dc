"""The calculator's worker trusts no byte by its name, and names a file that stops arriving.

Every file the worker fetches (each page's code pack, its data bundle as .marshal and its .json fallback, the memory
snapshot, the report pack, and Pyodide's lock file, WebAssembly and standard library) is checked against the size and
full SHA-256 the build wrote into assets/py/manifest.json (``digests``: atlas.assets.fetched_digests says why there), and
the manifest against the start of its SHA-256 that the page names it by, before anything is computed from it. A
mismatch is named at once (the file, the hash expected and the hash got): a pack, a bundle, the manifest or a Pyodide
file stops the calculator and keeps the prerendered result; the snapshot falls back to the files
(tests/test_snapshot.py). While files arrive the status line counts their bytes, and a file that sends nothing for 5 s
is named there; the page keeps waiting (a slow link may resume) up to its 60 s limit.

The measured times are printed (run with -s to see them): how soon after its last byte a changed file was named
(goal: 1 s), and how long a file had sent nothing when it was named (goal: 5 s)."""
from __future__ import annotations

import hashlib
import json
import re
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from conftest import (BOOT_LIMIT_MS, CHROMIUM, CHROMIUM_ARGS, FAILED, READY, ROOT, PackEditor, _Handler, _send, computed,
                      result_cell, serve, site_manifest, status_points_at_the_message, wait_calc, wasm_holder)

CALC = "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70"
"""126K TPS on BSF scenario 3.3 at a 70 % target: BSF Management Service 17 replicas (Table 3-25, memory binds:
test_calculators.test_observed_cpu_rule_scenario_3_3); the prerendered default shows 14."""
SNAPSHOT = re.compile(r"/assets/py/snapshot\.[0-9a-f]{12}\.pack$")
WORKER = ROOT / "docs" / "assets" / "js" / "pyworker.mjs"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- what the build writes --------------------------------------------------------------------------------------

def test_the_manifest_gives_the_size_and_sha256_of_every_file_the_worker_fetches(built_site):
    """``digests``: one entry per file the worker fetches, by its path under the site, each the file's byte size and
    full SHA-256 as served (hashlib here); nothing else. The manifest itself is named by the page (data-manifest)."""
    manifest = site_manifest(built_site)
    wanted = {f"assets/py/{e['pack']}" for e in manifest["packs"].values()} | {f"assets/py/{manifest['report']['pack']}"}
    wanted |= {f"assets/data/{e[ext]}" for e in manifest["bundles"].values() for ext in ("marshal", "json") if ext in e}
    # the query page's data is one file of the site (catalogue.FILE_BUNDLES: the SQLite database), checked the same way
    files = {f"assets/data/{e['file']}" for e in manifest["bundles"].values() if "file" in e}
    assert len(files) == 1 and next(iter(files)).endswith(".sqlite")
    wanted |= files | {f"assets/py/{manifest['snapshot']['file']}"}
    wanted |= {f"assets/vendor/pyodide/{n}" for n in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")}
    assert set(manifest["digests"]) == wanted
    for rel, d in manifest["digests"].items():
        data = (built_site / rel).read_bytes()
        assert d == {"bytes": len(data), "sha256": _sha(data)}, rel
        if re.search(r"\.[0-9a-f]{12}\.[a-z]+$", rel):  # a content-hashed name is the start of the same hash
            assert rel.rsplit(".", 2)[1] == d["sha256"][:12], rel


def test_the_workers_own_sha256_agrees_with_hashlib(tmp_path):
    """The SHA-256 the worker computes where Web Crypto is not offered (a page that is not a secure context), run in
    Node as the part of pyworker.mjs between its "sha256 begin" and "sha256 end" lines: FIPS 180-4's "abc" vector,
    and for lengths around the 64-byte block and the 56-byte padding limit, fed whole and in chunks of 1, 7, 64 and
    100 bytes, the digest hashlib gives for the same bytes."""
    source = WORKER.read_text(encoding="utf-8")
    part = source[source.index("// sha256 begin"):source.index("// sha256 end")]
    cases = {"abc": b"abc"}
    for n in (0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 100_003):
        cases[str(n)] = bytes((i * 131 + n) % 251 for i in range(n))
    (tmp_path / "cases.json").write_text(json.dumps({k: v.hex() for k, v in cases.items()}))
    script = part + """
const cases = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const out = {};
for (const [name, hex] of Object.entries(cases)) {
  const bytes = Uint8Array.from(Buffer.from(hex, "hex"));
  out[name] = [1, 7, 64, 100, bytes.length || 1].map((step) => {
    const h = new Sha256();
    for (let i = 0; i < bytes.length; i += step) h.update(bytes.subarray(i, i + step));
    return h.hex();
  });
}
console.log(JSON.stringify(out));
"""
    (tmp_path / "sha.cjs").write_text(script)
    out = json.loads(subprocess.run(["node", str(tmp_path / "sha.cjs"), str(tmp_path / "cases.json")],
                                    capture_output=True, text=True, check=True).stdout)
    assert out["abc"][0] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  # FIPS 180-4, B.1
    for name, data in cases.items():
        assert set(out[name]) == {_sha(data)}, name


# --- changed bytes under an unchanged name ---------------------------------------------------------------------

def _changed_marshal(data: bytes) -> bytes:
    """The issue's case: the first ``\\xe9\\x02\\0\\0\\0`` of the footprint bundle made ``\\xe9\\x09\\0\\0\\0`` (a list of 2
    becomes one of 9: cnDBTier went from 91 to 105 replicas, marked "Computed")."""
    i = data.index(b"\xe9\x02\0\0\0")
    return data[:i] + b"\xe9\x09\0\0\0" + data[i + 5:]


def _one_byte(data: bytes) -> bytes:
    """The byte at the middle flipped (the length kept)."""
    i = len(data) // 2
    return data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1:]


def _changed_on_the_server(changes: dict, snapshot: bool = True) -> type[_Handler]:
    """A handler (its own class each call) serving the built site with, for each file whose path matches a pattern of
    ``changes`` (pattern -> ``alter(bytes) -> bytes``), other bytes under the same name, the manifest left as built:
    a stale proxy or a half-replaced deployment. ``snapshot`` False: the memory snapshot answers 404 (the page boots
    from the files, as in the issue's case)."""
    class Changed(_Handler):
        served: dict[str, bytes] = {}

        def do_GET(self):
            path = self.path.split("?")[0]
            if not snapshot and SNAPSHOT.search(path):
                return self.send_error(404)
            for pattern, alter in changes.items():
                if re.search(pattern, path):
                    body = alter(Path(self.translate_path(self.path)).read_bytes())
                    self.served["assets/" + path.rsplit("/assets/", 1)[1]] = body
                    return _send(self, body, "application/octet-stream")
            super().do_GET()
    return Changed


class _JsonNeeded(PackEditor):
    """The data bundle's .marshal in another Pyodide's format (as a build for it would write it: the manifest gives its
    digest), so the worker needs the .json; that one changed by a byte under its name (the manifest left as built)."""
    served: dict[str, bytes] = {}

    @staticmethod
    def edit_bundle(data):
        return b"\x00\x00" + data[2:]

    def do_GET(self):
        path = self.path.split("?")[0]
        if re.search(r"/calculator-bundle\.footprint\.[0-9a-f]{12}\.json$", path):
            body = _one_byte(Path(self.translate_path(self.path)).read_bytes())
            self.served["assets/" + path.rsplit("/assets/", 1)[1]] = body
            return _send(self, body, "application/json")
        super().do_GET()


CHANGED = {
    # case: (handler, the file named, whether it is named at once: within 1 s of its last byte)
    "bundle-marshal": (lambda: _changed_on_the_server({r"/calculator-bundle\.footprint\.[0-9a-f]{12}\.marshal$": _changed_marshal},
                                                      snapshot=False), r"assets/data/calculator-bundle\.footprint\.[0-9a-f]{12}\.marshal"),
    "code-pack": (lambda: _changed_on_the_server({r"/code\.footprint\.[0-9a-f]{12}\.pack$": _one_byte}, snapshot=False),
                  r"assets/py/code\.footprint\.[0-9a-f]{12}\.pack"),
    "bundle-json": (lambda: _JsonNeeded, r"assets/data/calculator-bundle\.footprint\.[0-9a-f]{12}\.json"),
    # Pyodide's own files, with the snapshot: the standard library (Pyodide would not notice a changed byte in a
    # module's data) and the lock file
    "pyodide-stdlib": (lambda: _changed_on_the_server({r"/python_stdlib\.zip$": _one_byte}), r"assets/vendor/pyodide/python_stdlib\.zip"),
    "pyodide-lock": (lambda: _changed_on_the_server({r"/pyodide-lock\.json$": _one_byte}), r"assets/vendor/pyodide/pyodide-lock\.json"),
}


@pytest.mark.browser
@pytest.mark.parametrize("case", sorted(CHANGED))
def test_changed_bytes_under_an_unchanged_name_are_named_at_once_and_never_computed_from(page, built_site, case):
    """The reported case (one byte changed under an unchanged name) and its kin: the status names the file, the start of the SHA-256 the build wrote
    (manifest.json) and of the one its bytes have (hashlib of the bytes the test server sent), within 1 s of the
    file's last byte; the full hashes are behind "Details"; the prerendered default stays (14 replicas, not 17) and
    nothing was computed (no result, no run)."""
    make, file_re = CHANGED[case]
    handler = make()
    handler.served = {}
    httpd, url = serve(built_site, handler)
    try:
        page.goto(url + CALC, wait_until="load")
        wait_calc(page, FAILED)
        status = page.inner_text("#atlas-calc-status")
        (rel, sent), = [(k, v) for k, v in handler.served.items() if re.fullmatch(file_re, k)]
        want = site_manifest(built_site)["digests"][rel]["sha256"]
        got = _sha(sent)
        assert (f"The interactive calculator is unavailable: {rel} is not the file this build wrote: its SHA-256 begins "
                f"{got[:12]} where the build's begins {want[:12]}.") in status, status
        assert "reload the page" in status
        details = page.locator("#atlas-calc-status details.atlas-details pre").text_content()
        assert want in details and got in details
        assert page.get_attribute("#atlas-calc-result", "data-prerendered") == "true"
        assert result_cell(page, "BSF Management Service") == "14"
        assert page.get_attribute("#atlas-calculator", "data-result-seq") is None
        assert page.get_attribute("#atlas-calculator", "data-runs-computed") is None
        # ms since navigation: the file's bytes and its digest both in, the worker naming it, this page's script taking
        # over (the worker's messages wait for it: calculator.js is deferred), and the page showing it
        at = {k: float(page.get_attribute("#atlas-calculator", f"data-{k}-ms")) for k in ("failed-file-arrived", "failed-named", "script", "failed")}
        shown_after = at["failed"] - max(at["failed-file-arrived"], at["script"])
        print(f"\n[{case}] {rel}: named by the worker {at['failed-named'] - at['failed-file-arrived']:.0f} ms after its bytes "
              f"were in, shown {at['failed'] - at['failed-file-arrived']:.0f} ms after ({shown_after:.0f} ms after the page's "
              f"script took over at {at['script']:.0f} ms), {at['failed']:.0f} ms after navigation")
        assert at["failed-named"] - at["failed-file-arrived"] < 1000 and shown_after < 1000, at
        assert page.js_errors == []
    finally:
        httpd.shutdown()


@pytest.mark.browser
def test_a_manifest_other_than_the_one_the_page_names_is_refused(page, built_site):
    """One space added to manifest.json (still valid JSON, every file still listed): it is not the manifest the page
    was built with (data-manifest, the first 12 hex digits of its SHA-256), so no file it names is trusted."""
    handler = _changed_on_the_server({r"/assets/py/manifest\.json$": lambda d: d + b" "})
    httpd, url = serve(built_site, handler)
    try:
        page.goto(url + CALC, wait_until="load")
        wait_calc(page, FAILED)
        status = page.inner_text("#atlas-calc-status")
        named = _sha((built_site / "assets" / "py" / "manifest.json").read_bytes())[:12]
        got = _sha((built_site / "assets" / "py" / "manifest.json").read_bytes() + b" ")[:12]
        assert (f"assets/py/manifest.json is not the one this page was built with: its SHA-256 begins {got} "
                f"where the page names {named}.") in status, status
        assert result_cell(page, "BSF Management Service") == "14"
        assert page.get_attribute("#atlas-calculator", "data-result-seq") is None
        assert page.js_errors == []
    finally:
        httpd.shutdown()


@pytest.mark.browser
def test_a_changed_report_pack_is_named_when_the_xlsx_is_asked_for(page, built_site):
    """The report pack (fetched on the first click on "XLSX") changed by a byte under its name: no workbook is made
    from it, the message names it and both hashes, and the result and its link stay as they were."""
    handler = _changed_on_the_server({r"/code\.report\.[0-9a-f]{12}\.pack$": _one_byte})
    handler.served = {}
    httpd, url = serve(built_site, handler)
    try:
        page.goto(url + CALC, wait_until="load")
        computed(page)
        page.click("#calc-dl-xlsx")
        page.wait_for_selector('#atlas-calculator[data-report="failed"]', state="attached", timeout=BOOT_LIMIT_MS)
        (rel, sent), = handler.served.items()
        want = site_manifest(built_site)["digests"][rel]["sha256"]
        msg = page.inner_text("#atlas-calc-message")
        assert (f"The XLSX report could not be made: {rel} is not the file this build wrote: its SHA-256 begins "
                f"{_sha(sent)[:12]} where the build's begins {want[:12]}.") in msg, msg
        assert "The XLSX report failed (see the message below)" in status_points_at_the_message(page)
        assert page.get_attribute("#calc-dl-xlsx", "href") is None
        assert result_cell(page, "BSF Management Service") == "17"
        assert page.js_errors == []
    finally:
        httpd.shutdown()


INTRANET = "atlas-intranet.test"
"""A host name Chromium resolves to 127.0.0.1 in ``test_on_a_plain_http_address_...``: http://atlas-intranet.test:port/
is not a secure context (only https and localhost are), so Web Crypto's crypto.subtle is not offered there."""


@pytest.mark.browser
def test_on_a_plain_http_address_the_worker_checks_with_its_own_sha256(browser, built_site):
    """As on a plain-HTTP intranet address: the worker checks with its own SHA-256 (data-verified-with "script"), the
    page computes from the snapshot as usual, and the issue's changed bundle is named all the same. (A browser of its
    own, launched by the session's Playwright: the usual one resolves no name but 127.0.0.1.)"""
    args = [a for a in CHROMIUM_ARGS if not a.startswith("--host-resolver-rules")]
    args.append(f"--host-resolver-rules=MAP {INTRANET} 127.0.0.1, MAP * ~NOTFOUND")
    elsewhere: list[str] = []
    cases = [(_Handler, None), (_changed_on_the_server({r"/calculator-bundle\.footprint\.[0-9a-f]{12}\.marshal$": _changed_marshal},
                                                       snapshot=False), "assets/data/calculator-bundle.footprint.")]
    intranet = browser.browser_type.launch(executable_path=CHROMIUM, args=args)
    try:
        for handler, named in cases:
            httpd, url = serve(built_site, handler)
            ctx = intranet.new_context(service_workers="block")
            ctx.on("request", lambda r: r.url.startswith(("data:", "blob:")) or urlparse(r.url).hostname == INTRANET
                   or elsewhere.append(r.url))
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            try:
                page.goto(url.replace("127.0.0.1", INTRANET) + CALC, wait_until="load")
                assert page.evaluate("isSecureContext") is False
                if named is None:
                    computed(page)
                    assert page.get_attribute("#atlas-calculator", "data-verified-with") == "script"
                    assert page.get_attribute("#atlas-calculator", "data-boot-from") == "snapshot"
                    assert result_cell(page, "BSF Management Service") == "17"
                    hashed = json.loads(page.get_attribute("#atlas-calculator", "data-hash-ms"))
                    print(f"\n[no Web Crypto] ms to finish each SHA-256 (the worker's own, fed as the bytes came): {hashed}")
                else:
                    wait_calc(page, FAILED)
                    status = page.inner_text("#atlas-calc-status")
                    assert named in status and "is not the file this build wrote" in status, status
                    assert result_cell(page, "BSF Management Service") == "14"
                assert errors == []
            finally:
                ctx.close()
                httpd.shutdown()
    finally:
        intranet.close()
    assert elsewhere == [], elsewhere


# --- a file that stops arriving ----------------------------------------------------------------------------------

SENT_BEFORE_STALL = 12_300_000
"""Bytes of the snapshot the test server sends before it stops (12.3 MB, as the brief's example)."""


def _stalls_mid_file(pattern: str, sent: int) -> type[_Handler]:
    """A handler (its own class each call) that sends the first ``sent`` bytes of the file whose path matches
    ``pattern`` (with its full Content-Length), then holds until the test sets the class's ``release`` Event (60 s
    at most) and sends the rest: a link that stops mid-file and may resume. ``stopped``: set once it has stopped."""
    class StallsMidFile(_Handler):
        release = threading.Event()
        stopped = threading.Event()

        def do_GET(self):
            if not re.search(pattern, self.path.split("?")[0]):
                return super().do_GET()
            body = Path(self.translate_path(self.path)).read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:sent])
            self.wfile.flush()
            self.stopped.set()
            self.release.wait(60)
            self.wfile.write(body[sent:])
    return StallsMidFile


@pytest.mark.browser
def test_a_file_that_stops_arriving_is_named_within_5_s_and_the_boot_resumes_with_it(page, built_site):
    """The snapshot stops after 12.3 MB. While it arrives the status counts bytes, per file and in all; 5 s after its
    last byte it names the file, what came of it and of how much (37.7 MB: the build's size, manifest.json), and says
    it is still waiting; when the bytes resume, the name goes and Python boots from the snapshot."""
    snap = site_manifest(built_site)["snapshot"]
    size = f"{snap['bytes'] / 1e6:.1f}"  # 37,748,864 bytes -> 37.7 MB (this build's snapshot)
    handler = _stalls_mid_file(r"/assets/py/snapshot\.[0-9a-f]{12}\.pack$", SENT_BEFORE_STALL)
    httpd, url = serve(built_site, handler)
    try:
        page.goto(url + CALC, wait_until="load")
        wait_calc(page, "the snapshot named as stalled", until="() => document.getElementById('atlas-calculator').hasAttribute('data-stalled')")
        assert page.get_attribute("#atlas-calculator", "data-stalled") == f"assets/py/{snap['file']}"
        status = page.inner_text("#atlas-calc-status")
        assert re.search(rf"assets/py/{re.escape(snap['file'])}: no data for [5-9] s \(12\.3 of {size} MB received\)\. "
                         r"Still waiting: a slow link may resume", status), status
        # progress by bytes: in all, and for each file still coming (the snapshot's 12.3 MB among them)
        assert re.search(rf"\d+\.\d of \d+\.\d MB received \([^)]*{re.escape(snap['file'])} 12\.3 of {size} MB", status), status
        after = int(page.get_attribute("#atlas-calculator", "data-stall-named-after-ms"))
        print(f"\n[stall] {snap['file']}: named after {after} ms without data (goal: 5,000)")
        assert 5000 <= after < 6000, after
        assert page.get_attribute("#atlas-calculator", "data-state") == "booting"
        handler.release.set()
        computed(page)
        assert page.get_attribute("#atlas-calculator", "data-boot-from") == "snapshot"
        assert page.get_attribute("#atlas-calculator", "data-stalled") is None
        assert "no data" not in page.inner_text("#atlas-calc-status")
        assert result_cell(page, "BSF Management Service") == "17"
        assert page.js_errors == []
    finally:
        handler.release.set()
        httpd.shutdown()


_HeldWasm = wasm_holder()


@pytest.mark.browser
def test_a_file_that_never_comes_is_named_and_named_again_when_the_boot_limit_ends(page, built_site):
    """Pyodide's WebAssembly held by the server before any byte (conftest.wasm_holder), the boot limit set to 8 s:
    the status names it after 5 s (nothing of its 9.6 MB received: 9,598,218 bytes, manifest.json), and the failure at
    8 s names it again, instead of "the server or the network may be very slow" alone."""
    httpd, url = serve(built_site, _HeldWasm)
    try:
        page.goto(url + CALC + "&atlas_timeout_ms=8000", wait_until="load")
        wait_calc(page, "the wasm named as stalled", until="() => document.getElementById('atlas-calculator').hasAttribute('data-stalled')")
        assert page.get_attribute("#atlas-calculator", "data-stalled") == "assets/vendor/pyodide/pyodide.asm.wasm"
        status = page.inner_text("#atlas-calc-status")
        assert re.search(r"assets/vendor/pyodide/pyodide\.asm\.wasm: no data for [5-8] s \(0\.0 of 9\.6 MB received\)", status), status
        wait_calc(page, FAILED)
        status = page.inner_text("#atlas-calc-status")
        assert re.search(r"Python did not finish loading within 8 s of opening this page: assets/vendor/pyodide/pyodide\.asm\.wasm: "
                         r"no data for [5-9] s \(0\.0 of 9\.6 MB received\)\.", status), status
        assert result_cell(page, "BSF Management Service") == "14"
        assert page.js_errors == []
    finally:
        _HeldWasm.release.set()
        httpd.shutdown()
