"""Speed benchmark of the Benchmark Atlas (run with `make bench`).

Reports, on this machine:
  * full `mkdocs build --strict` time (median of 3);
  * time from navigation to the first calculator result computed by Pyodide,
    cold cache, median of N runs, against the bare Pyodide boot in a module
    worker (same server, same browser) as the baseline;
  * bytes transferred by a scenario page and by the calculator page.
Everything is served from 127.0.0.1; any other request is blocked and counted.
"""
from __future__ import annotations

import functools
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare</title>
<script type="module" src="bare-main.mjs"></script>"""
BARE_MAIN = """const w = new Worker(new URL('bare-worker.mjs', import.meta.url), {type: 'module'});
w.onmessage = () => { document.body.setAttribute('data-ready', String(performance.now())); };"""
BARE_WORKER = """const {loadPyodide} = await import(new URL('../assets/vendor/pyodide/pyodide.mjs', import.meta.url).href);
const py = await loadPyodide({indexURL: new URL('../assets/vendor/pyodide/', import.meta.url).href});
py.runPython('1+1'); postMessage('ready');"""


class Quiet(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm", ".mjs": "text/javascript"}

    def log_message(self, *a):
        pass


def build(out: Path) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)], cwd=ROOT, check=True,
                   env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"})
    return time.perf_counter() - t


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="atlas-bench-"))
    builds = [build(tmp / f"site{i}") for i in range(3)]
    site = tmp / "site0"
    bench = site / "bench"
    bench.mkdir()
    (bench / "bare.html").write_text(BARE_HTML)
    (bench / "bare-main.mjs").write_text(BARE_MAIN)
    (bench / "bare-worker.mjs").write_text(BARE_WORKER)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}"
    blocked: list[str] = []

    def route(r):
        u = r.request.url
        if u.startswith(("data:", "blob:")) or urlparse(u).hostname == "127.0.0.1":
            return r.continue_()
        blocked.append(u)
        return r.abort()

    bare, calc, first_paint = [], [], []
    sizes = {}
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for i in range(RUNS):
            for kind in ("bare", "calc"):
                ctx = b.new_context()
                ctx.route("**/*", route)
                pg = ctx.new_page()
                if kind == "bare":
                    pg.goto(url + "/bench/bare.html")
                    pg.wait_for_selector("body[data-ready]", state="attached", timeout=120000)
                    bare.append(float(pg.get_attribute("body", "data-ready")))
                else:
                    pg.goto(url + "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70")
                    fp = pg.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime || null")
                    first_paint.append(fp)
                    pg.wait_for_selector('#atlas-calculator[data-result-seq="1"]', timeout=120000)
                    calc.append(pg.evaluate("performance.now()"))
                ctx.close()
        for name, path, ready in (("scenario page (BSF 3.3)", "/products/bsf/bsf-3-3/", '.atlas-chart[data-rendered="true"]'),
                                  ("calculator page", "/calculators/footprint/", '#atlas-calculator[data-state="ready"]'),
                                  ("home page", "/", "body")):
            ctx = b.new_context()
            ctx.route("**/*", route)
            pg = ctx.new_page()
            total = {"bytes": 0, "requests": 0}

            def done(req, total=total):
                s = req.sizes()
                total["bytes"] += s["responseBodySize"] + s["responseHeadersSize"]
                total["requests"] += 1
            pg.on("requestfinished", done)
            pg.goto(url + path, wait_until="load")
            pg.wait_for_selector(ready, state="attached", timeout=120000)
            pg.wait_for_timeout(500)
            sizes[name] = dict(total)
            ctx.close()
        b.close()
    httpd.shutdown()
    med_bare, med_calc = statistics.median(bare), statistics.median(calc)
    report = {
        "build_seconds_median": round(statistics.median(builds), 2), "build_seconds": [round(x, 2) for x in builds],
        "bare_pyodide_boot_ms_median": round(med_bare), "bare_runs_ms": [round(x) for x in bare],
        "calculator_first_result_ms_median": round(med_calc), "calculator_runs_ms": [round(x) for x in calc],
        "calculator_overhead_vs_bare_percent": round((med_calc / med_bare - 1) * 100, 1),
        "calculator_first_contentful_paint_ms": [round(x) if x else None for x in first_paint],
        "bytes_per_page": sizes, "blocked_requests": len(blocked),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
