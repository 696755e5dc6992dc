"""Experiment: would a Pyodide memory snapshot get the first result sooner?

    .venv/bin/python tools/snapshot_experiment.py --site DIR [RUNS]

DIR is a built site (``python -m atlas build -d DIR``; it is copied, not changed). The script

1. makes, in Node with the site's own Pyodide (``loadPyodide({_makeSnapshot: true})``), a memory
   snapshot of the interpreter with the footprint calculator imported from its code pack and its
   data bundle slice (``.marshal``) loaded, and reports its size raw, gzip -9 and Brotli quality 5
   (the build's compression, atlas/compress.py);
2. serves the copy on 127.0.0.1 and, in Debian's Chromium, cold cache (a new context each run),
   interleaved in a rotating order, times from navigation:
   (a) ``bare``: the bare Pyodide boot in a module worker to ``runPython('1+1')`` (the page of
       tools/benchmark.py);
   (b) ``calc``: the footprint calculator page opened from a permalink, to its first result shown
       (``data-result-ms``);
   (c) ``snap``: a bare page whose module worker fetches the snapshot and boots with
       ``loadPyodide({_loadSnapshot})``, then computes the same footprint (first result in the worker);
3. prints medians, spreads and every run as JSON.

The rule of the issue: keep the snapshot only if (c) is at least 30 % faster than (a) here.

Figures measured on 2026-11-24 (Pyodide 314.0.7, Debian's Chromium, 11 runs each, on this 2-core
machine while five other jobs ran builds and browser tests: load average 15 to 30, so every boot was
slower than the usual 3.2 s; medians, with min-max):
  (a) bare boot 20,351 ms (8,978-30,396); (b) calculator first result 17,876 ms (9,241-45,253);
  (c) snapshot first result 2,493 ms (1,606-7,784), of which loadPyodide from the snapshot 1,667 ms
  and the footprint run 274 ms: (c) is 88 % faster than (a), and its slowest run beat (a)'s fastest.
  Snapshot of the footprint page: 31,457,408 bytes raw, 5,878,798 gzip -9, 5,036,646 Brotli 5 (the
  extra bytes a reader downloads, beside pyodide.asm.wasm's 3,284,635 Brotli bytes); one snapshot of
  all five calculators (what the build writes): 37,748,864 raw, 6,672,208 gzip, 5,500,028 Brotli.
By the issue's rule the snapshot is kept (atlas/assets.py make_snapshot, docs/assets/js/pyworker.mjs).
Again once integrated, 9 runs each, load average about 24 (a site built with the snapshot, so that (b) is
the real footprint page booting from the build's snapshot of all five calculators, 37,748,864 bytes):
  (a) bare boot 28,319 ms (20,627-42,066); (b) calculator page first result 6,063 ms (4,496-10,206),
  78.6 % faster than (a); (c) the bare snapshot page 5,234 ms (3,109-5,940).
The loaded machine slows Python's own start-up (which the snapshot skips) more than the rest, so on an
idle machine (bare boot about 3.2 s) the gain is likely smaller. Measured idle on 2026-11-24 (load average
below 1, 9 runs each, interleaved): (a) bare boot 3,218 ms (2,852-3,480); (b) calculator first result from the
files 3,459 ms (3,158-4,063), +7.5 %; (c) snapshot first result 949 ms (895-1,073), of which loadPyodide 749 ms
and the run 57 ms: 70.5 % faster than (a). Snapshot made in Node in 2,505 ms; 31,457,408 bytes, 5,021,451 Brotli. On the wire the
snapshot adds 5,494,265 bytes (Brotli) to a calculator page's first visit (once for all five pages; the
footprint code pack and data bundle, 162,294 Brotli bytes, are no longer fetched), beside Pyodide's own
6.07 MB: on a slow link that download can cost more than the start-up it saves.

Constraints of Pyodide's snapshot learnt from its source (pyodide.asm.mjs, ``API.makeSnapshot`` /
``API.restoreSnapshot``) and its tests (src/tests/test_snapshots.py): the snapshot is the whole
WebAssembly heap (``HEAP8``) after a 48-byte header (magic 0x706e7300, the heap offset, a JSON
length, the 256-bit ``BUILD_ID`` hashed from pyodide.asm.mjs and .wasm: another build refuses it
with "Snapshot build id mismatch") and a JSON list of the JavaScript objects Python held (only
``js`` globals reachable by a path, or what a serializer writes). The Emscripten file system is
JavaScript, not heap: it is not in the snapshot (python_stdlib.zip is still fetched and written;
the calculator's files are gone, so only modules imported before the snapshot are usable).
"""
from __future__ import annotations

import argparse
import functools
import gzip
import json
import shutil
import statistics
import subprocess
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]
PARAMS = {"scenario": "bsf-3-3", "load": "126000", "target": "70"}
CALC_URL = "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70"

MAKE = """// Node: the memory snapshot of Pyodide with a calculator imported and its data loaded.
// node make.mjs SITE CALC OUT -> prints {raw, make_ms} as JSON
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [, , site, calc, out] = process.argv;
const pyDir = path.join(site, "assets/vendor/pyodide/");
const manifest = JSON.parse(fs.readFileSync(path.join(site, "assets/py/manifest.json")));
const entry = manifest.packs[calc], data = manifest.bundles[calc];
const pack = fs.readFileSync(path.join(site, "assets/py", entry.pack));
const t0 = performance.now();
const { loadPyodide } = await import(pathToFileURL(path.join(pyDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyDir, _makeSnapshot: true, stdout: () => {}, stderr: (t) => console.error(t) });
for (const [f, off, len] of entry.files) {
  py.FS.mkdirTree("/atlas/" + f.split("/").slice(0, -1).join("/"));
  py.FS.writeFile("/atlas/" + f, pack.subarray(off, off + len));
}
py.FS.writeFile("/atlas/bundle.marshal", fs.readFileSync(path.join(site, "assets/data", data.marshal)));
// Everything in Python, so Python holds no JavaScript object the snapshot could not name.
py.runPython(`
import sys, json
for _d in reversed(["/atlas"] + ["/atlas/" + d for d in ${JSON.stringify(manifest.path || [])}]):
    _d in sys.path or sys.path.insert(0, _d)
import calculators.catalogue as _atlas_catalogue
assert _atlas_catalogue.prepare(${JSON.stringify(calc)})
_atlas_bundle = _atlas_catalogue.load_bundle_file("/atlas/bundle.marshal")
def _atlas_run(params_json):
    return json.dumps(_atlas_catalogue.run(_atlas_bundle, json.loads(params_json)))
`);
py.FS.unlink("/atlas/bundle.marshal");
fs.writeFileSync(out, py.makeMemorySnapshot());
console.log(JSON.stringify({ raw: fs.statSync(out).size, make_ms: Math.round(performance.now() - t0) }));
"""

PAGE = """<!doctype html><meta charset="utf-8"><title>{name}</title>
<script type="module">
const w = new Worker(new URL('{name}-worker.mjs', import.meta.url), {{type: 'module'}});
w.onmessage = (e) => {{ document.body.setAttribute('data-out', JSON.stringify(e.data));
  document.body.setAttribute('data-ready', String(performance.now()));
  document.body.setAttribute('data-start', String(e.data.startedAt - performance.timeOrigin)); }};
</script>"""
BARE_WORKER = """const startedAt = performance.timeOrigin + performance.now();
const {loadPyodide} = await import(new URL('../assets/vendor/pyodide/pyodide.mjs', import.meta.url).href);
const py = await loadPyodide({indexURL: new URL('../assets/vendor/pyodide/', import.meta.url).href});
py.runPython('1+1'); postMessage({startedAt});"""
SNAP_WORKER = """const startedAt = performance.timeOrigin + performance.now();
const snapshot = fetch(new URL('footprint.snap', import.meta.url)).then((r) => {
  if (!r.ok) throw new Error('snapshot: HTTP ' + r.status);
  return r.arrayBuffer();
});
const {loadPyodide} = await import(new URL('../assets/vendor/pyodide/pyodide.mjs', import.meta.url).href);
const t0 = performance.now();
const py = await loadPyodide({indexURL: new URL('../assets/vendor/pyodide/', import.meta.url).href, _loadSnapshot: snapshot});
const t1 = performance.now();
const out = JSON.parse(py.globals.get('_atlas_run')(JSON.stringify(PARAMS)));
postMessage({startedAt, ok: out.ok, html: out.html.length, boot_ms: Math.round(t1 - t0), run_ms: Math.round(performance.now() - t1)});"""


class Quiet(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript", ".json": "application/json"}

    def log_message(self, *a):
        pass


def sizes(path: Path) -> dict:
    """Bytes of ``path`` raw, gzip -9 and Brotli quality 5 (as atlas/compress.py writes them, in Node)."""
    data = path.read_bytes()
    br = subprocess.run(["node", "-e", "const z=require('zlib'),d=require('fs').readFileSync(process.argv[1]);"
                         "console.log(z.brotliCompressSync(d,{params:{[z.constants.BROTLI_PARAM_QUALITY]:5,"
                         "[z.constants.BROTLI_PARAM_SIZE_HINT]:d.length}}).length)", str(path)],
                        check=True, capture_output=True, text=True).stdout
    return {"raw": len(data), "gz": len(gzip.compress(data, 9)), "br": int(br)}


def spread(xs: list[float]) -> dict:
    return {"median": round(statistics.median(xs)), "min": round(min(xs)), "max": round(max(xs)),
            "runs": [round(x) for x in xs]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="?", type=int, default=11)
    ap.add_argument("--site", type=Path, required=True)
    opt = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="atlas-snap-"))
    site = tmp / "site"
    shutil.copytree(opt.site, site)
    bench = site / "bench"
    bench.mkdir(exist_ok=True)
    (bench / "make.mjs").write_text(MAKE)
    made = json.loads(subprocess.run(["node", str(bench / "make.mjs"), str(site), "footprint", str(bench / "footprint.snap")],
                                     check=True, capture_output=True, text=True).stdout)
    for name, worker in (("bare", BARE_WORKER), ("snap", SNAP_WORKER.replace("PARAMS", json.dumps({"calc": "footprint", **PARAMS})))):
        (bench / f"{name}.html").write_text(PAGE.format(name=name))
        (bench / f"{name}-worker.mjs").write_text(worker)
    vendor = site / "assets" / "vendor" / "pyodide"
    wasm_br = (vendor / "pyodide.asm.wasm.br").stat().st_size
    snap = sizes(bench / "footprint.snap")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}"
    times = {"bare": [], "calc": [], "snap": []}
    starts = {"bare": [], "snap": []}
    snap_out = []
    kinds = ["bare", "calc", "snap"]
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for i in range(opt.runs):
            for kind in kinds[i % 3:] + kinds[:i % 3]:  # each kind first, second and third in turn
                ctx = b.new_context()
                pg = ctx.new_page()
                if kind == "calc":
                    pg.goto(url + CALC_URL)
                    pg.wait_for_selector('#atlas-calculator[data-result-seq="1"]', state="attached", timeout=120000)
                    times[kind].append(float(pg.get_attribute("#atlas-calculator", "data-result-ms")))
                else:
                    pg.goto(f"{url}/bench/{kind}.html")
                    pg.wait_for_selector("body[data-ready]", state="attached", timeout=120000)
                    times[kind].append(float(pg.get_attribute("body", "data-ready")))
                    starts[kind].append(float(pg.get_attribute("body", "data-start")))
                    if kind == "snap":
                        snap_out.append(json.loads(pg.get_attribute("body", "data-out")))
                ctx.close()
        b.close()
    httpd.shutdown()
    bare, calc, snp = (statistics.median(times[k]) for k in kinds)
    report = {
        "runs_each": opt.runs,
        "snapshot_bytes": snap, "snapshot_make_ms_in_node": made["make_ms"],
        "pyodide_asm_wasm_br_bytes": wasm_br,
        "extra_bytes_a_reader_downloads_br": snap["br"],
        "a_bare_boot_ms": spread(times["bare"]), "b_calculator_first_result_ms": spread(times["calc"]),
        "c_snapshot_first_result_ms": spread(times["snap"]),
        "worker_start_ms_median": {k: round(statistics.median(v)) for k, v in starts.items()},
        "snapshot_worker_loadPyodide_ms_median": round(statistics.median(o["boot_ms"] for o in snap_out)),
        "snapshot_worker_run_ms_median": round(statistics.median(o["run_ms"] for o in snap_out)),
        "snapshot_results_ok": all(o["ok"] and o["html"] > 0 for o in snap_out),
        "b_vs_a_percent": round((calc / bare - 1) * 100, 1),
        "c_vs_a_percent": round((snp / bare - 1) * 100, 1),
        "c_vs_b_percent": round((snp / calc - 1) * 100, 1),
        "keep_by_the_issue_rule (c at least 30 % faster than a)": snp <= 0.7 * bare,
    }
    print(json.dumps(report, indent=2))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
