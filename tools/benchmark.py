"""Speed benchmark of the Benchmark Atlas (run with `make bench`).

    .venv/bin/python tools/benchmark.py [RUNS] [--builds N] [--site DIR] [--tests] [--links-only] [--link-runs N] [--mutation-scores]

Runs vary by a few hundred ms on a 2-core machine: keep RUNS at 11 or more for the medians.

Prints, for this machine (JSON):
  * with --tests, the whole test suite's wall time as `make test` runs it (first, alone: it takes minutes);
  * full build time (`python -m atlas build`: every step, then MkDocs strict) (median of N builds, default 3; --site DIR reuses a built site);
  * calculator readiness against the bare Pyodide boot (Pyodide as npm ships it, its own deflated standard library
    included: bench/python_stdlib.zip, not the site's repacked one) in a module worker, on the same server
    and browser in the same run, cold cache, runs interleaved (median of RUNS, default 11): the
    footprint calculator opened from a permalink, timed from navigation to "ready" (Python
    loaded, the calculator imported, its data parsed) and to the first result computed by
    Pyodide shown in the page, each as overhead in percent over the bare boot (the goal: under
    10 %); with the worker's start (ms after navigation, also for the bare page) and boot phases
    (runtime, import, data), and the run time in Python, and how many runs booted from the build's
    memory snapshot (``calculator_booted_from``: "snapshot", or "files" when it could not be used;
    tools/snapshot_experiment.py measures the snapshot against the bare boot alone);
  * first visits per link (``first_result_per_link``): each of LINKS emulated by the server (``Link``: a round trip
    before each response, one shared rate for the bodies; Chromium's CDP emulation does not reach the worker), cold cache, the build's .br files served
    to a browser that accepts them (``Precompressed``), the footprint page's first result (it boots from the memory
    snapshot) against the bare Pyodide boot on the same link, interleaved, median of --link-runs (default 3); and
    the revisit in the same browser context (the service worker then answers from its cache); --links-only
    measures only this; ``--link MBIT,MS`` (repeatable) measures those links instead of LINKS, and ``--boot files``
    or ``--boot snapshot`` makes every visit take that boot (the copy of the site's worker gets another
    SNAPSHOT_MIN_MBIT: ``force_boot``), to find where the two boots cross;
  * a warm revisit: the footprint page opened again in the same browser profile (on disk, as a reader's), served
    with the Hosting page's Cache-Control, timed to its first result, with the body bytes the server sent;
  * that the prerendered result is visible at first paint: it is in the HTML as served, and
    first contentful paint happens before any script could compute it;
  * bytes and requests per page type (as sent here, uncompressed, and as a server sending the build's
    precompressed .br files would send them), and whether Vega and Pyodide were loaded there;
  * table enhancement on the largest scenario page (tables enhanced, ms spent, one sort);
  * a burst of input on the footprint calculator: 100 changes, each submitted, 10 ms apart,
    three times: runs computed per burst (the first change and the newest), Python's heap
    after each burst (WebAssembly memory, bytes: flat means the same), ms from the last change
    to the newest result shown, the longest main-thread task and the largest timer lag;
  * a pasted 5,000-row CSV on the over-target calculator (set as a paste sets it, then its input
    event): the run in Python and the longest main-thread task from the paste to the result shown;
  * the mutation scores recorded in tools/mutation_samples/scores.json (``mutation_scores``), and per module the one
    that counts (``mutation_summary``: a draw's first measure, or a run of every mutant) against the 85 % goal; the
    summary also as a table on stderr, and with every measurement alone with --mutation-scores. Read from that file:
    tools/mutation_sample.py measures them with mutmut, the benchmark never runs mutmut.
Everything is served from 127.0.0.1. Other hosts are blocked in Chromium's resolver and every
request to anything but 127.0.0.1 is counted (watched, not intercepted: Playwright's request
interception sends each request through this process and delayed the calculator page's worker
by about 80 ms, against about 10 ms for the bare page with its few requests). Speed
targets are checked here, not in the tests.
"""
from __future__ import annotations

import argparse
import functools
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlparse

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
BLOCK_OTHER_HOSTS = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
CALC_URL = "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70"
BIG_SCENARIO = "/products/policy/policy-3-1-5/"

BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare</title>
<script type="module" src="bare-main.mjs"></script>"""
BARE_MAIN = """const w = new Worker(new URL('bare-worker.mjs', import.meta.url), {type: 'module'});
w.onmessage = (e) => { document.body.setAttribute('data-ready', String(performance.now()));
  document.body.setAttribute('data-start', String(e.data - performance.timeOrigin)); };"""
BARE_WORKER = """const startedAt = performance.timeOrigin + performance.now();
const {loadPyodide} = await import(new URL('../assets/vendor/pyodide/pyodide.mjs', import.meta.url).href);
const py = await loadPyodide({indexURL: new URL('../assets/vendor/pyodide/', import.meta.url).href,
                              stdLibURL: new URL('python_stdlib.zip', import.meta.url).href});
py.runPython('1+1'); postMessage(startedAt);"""


HASHED = re.compile(re.search(r'if \(\$uri ~ "([^"]+)"\)', (ROOT / "docs" / "about" / "hosting.md").read_text(encoding="utf-8"))[1])
"""The content-hashed names the Hosting page's nginx configuration keeps for good (as ``?v=`` addresses), read from it."""


class Quiet(SimpleHTTPRequestHandler):
    """The site as docs/about/hosting.md serves it, less compression: ``Cache-Control`` immutable for ``?v=`` addresses
    and content-hashed names, ``no-cache`` (revalidate: ``304 Not Modified`` when unchanged) for everything else."""
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript", ".json": "application/json"}

    sent: list | None = None
    """While a list: (path, body bytes) of each response (0 for a 304 or a HEAD), for the warm revisit."""

    def send_response(self, code, message=None):
        self._status = code
        super().send_response(code, message)

    def send_header(self, keyword, value):
        if keyword.lower() == "content-length" and Quiet.sent is not None:
            body = int(value) if self.command == "GET" and getattr(self, "_status", 0) == 200 else 0
            Quiet.sent.append((self.path, body))
        super().send_header(keyword, value)

    def end_headers(self):
        u = urlparse(self.path)
        keep = "v=" in u.query or HASHED.search(u.path)
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if keep else "no-cache")
        super().end_headers()

    def log_message(self, *a):
        pass


class Precompressed(Quiet):
    """Quiet, with the build's precompressed files as the Hosting page's servers send them: ``<file>.br`` to a browser
    that accepts Brotli (``Content-Encoding: br``, the file's own type, ``Vary: Accept-Encoding``), and a
    ``304 Not Modified`` to a revalidation of an unchanged file; over the emulated ``Link``."""

    def copyfile(self, source, outputfile):
        while chunk := source.read(64 * 1024):
            Link.send(len(chunk))
            outputfile.write(chunk)

    def send_head(self):
        Link.wait_round_trip()
        path = self.translate_path(self.path)
        br = path + ".br"
        if "br" not in self.headers.get("Accept-Encoding", "") or not os.path.isfile(br) or not os.path.isfile(path):
            return super().send_head()
        mtime = int(os.stat(path).st_mtime)
        since = self.headers.get("If-Modified-Since")
        if since:
            from email.utils import parsedate_to_datetime
            try:
                if int(parsedate_to_datetime(since).timestamp()) >= mtime:
                    self.send_response(304)
                    self.end_headers()
                    return None
            except (TypeError, ValueError):
                pass
        f = open(br, "rb")
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "br")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(os.fstat(f.fileno()).st_size))
        self.send_header("Last-Modified", self.date_time_string(mtime))
        self.end_headers()
        return f


LINKS = [("localhost", None), ("100 Mbit/s, 5 ms", (100, 5)), ("20 Mbit/s, 30 ms", (20, 30)),
         ("10 Mbit/s, 50 ms", (10, 50)), ("3 Mbit/s, 300 ms", (3, 300))]
"""The links first visits are measured on: name, (Mbit/s each way, round-trip latency ms) or None for no emulation.
The first four are the links a field engineer reported; the last a slow office or field link."""


class Link:
    """The link between the reader and the server, emulated by the server for every response (``Precompressed``):
    one round trip (``ms``) before each response, and the bodies of all responses in flight sharing ``mbit`` Mbit/s
    (one clock for the link, so parallel downloads share it as on a real link). Chromium's own emulation (CDP
    Network.emulateNetworkConditions on the page) was tried first and not kept: it does not reach a dedicated worker's
    requests, which fetch nearly everything a calculator boots from (on 4 Mbit/s, 100 ms the footprint page's ~9 MB
    snapshot boot came in 13.6 s, where the link alone needs 18 s)."""
    lock = threading.Lock()
    mbit: float | None = None
    ms: float = 0
    free_at = 0.0

    @classmethod
    def set(cls, link) -> None:
        cls.mbit, cls.ms = link if link else (None, 0)
        cls.free_at = 0.0

    @classmethod
    def wait_round_trip(cls) -> None:
        if cls.mbit:
            time.sleep(cls.ms / 1000)

    @classmethod
    def send(cls, n: int) -> None:
        """Holds the caller until ``n`` more bytes would have crossed the link."""
        if not cls.mbit:
            return
        with cls.lock:
            start = max(time.perf_counter(), cls.free_at)
            cls.free_at = start + n * 8 / (cls.mbit * 1e6)
            until = cls.free_at
        delay = until - time.perf_counter()
        if delay > 0:
            time.sleep(delay)


def force_boot(site: Path, boot: str) -> None:
    """Makes the copy of the built site in ``site`` take ``boot`` ("files" or "snapshot") on every first visit,
    whatever the link measures: its worker's SNAPSHOT_MIN_MBIT becomes 1e9 or 0 Mbit/s (and the worker's
    precompressed copies are removed, so the changed one is served). Raises SystemExit when the worker has no such
    constant (the rule was renamed: this would measure nothing)."""
    worker = site / "assets" / "js" / "pyworker.mjs"
    text = worker.read_text(encoding="utf-8")
    changed, n = re.subn(r"SNAPSHOT_MIN_MBIT\s*=\s*[0-9.e+]+;", "SNAPSHOT_MIN_MBIT=" + ("1e9;" if boot == "files" else "0;"), text)
    if n != 1:
        raise SystemExit(f"{worker}: found {n} SNAPSHOT_MIN_MBIT assignments where 1 was expected; --boot cannot force a boot")
    worker.write_text(changed, encoding="utf-8")
    for ext in (".br", ".gz"):
        Path(str(worker) + ext).unlink(missing_ok=True)


def per_link(p, url: str, runs: int, links=None) -> dict:
    """First visits per link (LINKS): for each, ``runs`` times in a new browser context (cold cache), interleaved, the
    bare Pyodide boot (bench/bare.html) and the footprint page's first result (it boots from the snapshot where it
    can), then the footprint page again in the same context (the revisit: the service worker answers from its cache),
    and the bare page likewise (its revisit: the browser's HTTP cache). Returns per link the medians, the runs, the
    differences from the bare boot in percent (first visit against the bare first visit, revisit against the bare
    revisit) and the boots the footprint page took; the table of them (``link_table``) goes to stderr."""
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS + [BLOCK_OTHER_HOSTS])
    out = {}
    try:
        for name, link in links or LINKS:
            Link.set(link)
            bare, bare_again, first, again, boot_from, again_from = [], [], [], [], [], []
            for i in range(runs):
                for kind in (("bare", "calc") if i % 2 == 0 else ("calc", "bare")):
                    ctx = b.new_context()
                    pg = ctx.new_page()
                    if kind == "bare":
                        pg.goto(url + "/bench/bare.html")
                        pg.wait_for_selector("body[data-ready]", state="attached", timeout=300000)
                        bare.append(float(pg.get_attribute("body", "data-ready")))
                        # the bare boot's revisit: the same page again in the same context (the browser's HTTP cache)
                        pg2 = ctx.new_page()
                        pg.close()
                        pg2.goto(url + "/bench/bare.html")
                        pg2.wait_for_selector("body[data-ready]", state="attached", timeout=300000)
                        bare_again.append(float(pg2.get_attribute("body", "data-ready")))
                    else:
                        pg.goto(url + CALC_URL)
                        pg.wait_for_selector('#atlas-calculator[data-result-seq="1"]', state="attached", timeout=300000)
                        first.append(float(pg.get_attribute("#atlas-calculator", "data-result-ms")))
                        boot_from.append(pg.get_attribute("#atlas-calculator", "data-boot-from") or "?")
                        # the files handed to the service worker once the first run is done, then the revisit
                        pg.wait_for_selector('html[data-atlas-offline="calculator"], html[data-atlas-offline="off"]',
                                             state="attached", timeout=300000)
                        pg2 = ctx.new_page()
                        pg.close()
                        pg2.goto(url + CALC_URL)
                        pg2.wait_for_selector('#atlas-calculator[data-result-seq="1"]', state="attached", timeout=300000)
                        again.append(float(pg2.get_attribute("#atlas-calculator", "data-result-ms")))
                        again_from.append(pg2.get_attribute("#atlas-calculator", "data-boot-from") or "?")
                    ctx.close()
            mb, mf, ma = statistics.median(bare), statistics.median(first), statistics.median(again)
            mba = statistics.median(bare_again)
            out[name] = {"bare_boot_ms_median": round(mb), "first_result_ms_median": round(mf),
                         "first_vs_bare_percent": round((mf / mb - 1) * 100, 1),
                         "bare_revisit_ms_median": round(mba),
                         "revisit_first_result_ms_median": round(ma), "revisit_vs_bare_percent": round((ma / mba - 1) * 100, 1),
                         "bare_revisit_runs_ms": [round(x) for x in bare_again],
                         "bare_runs_ms": [round(x) for x in bare], "first_runs_ms": [round(x) for x in first],
                         "revisit_runs_ms": [round(x) for x in again],
                         "booted_from": {k: boot_from.count(k) for k in sorted(set(boot_from))},
                         "revisit_booted_from": {k: again_from.count(k) for k in sorted(set(again_from))}}
            print(f"{name:>18}: bare {mb:8.0f} ms, first result {mf:8.0f} ms ({out[name]['first_vs_bare_percent']:+.1f} %), "
                  f"revisit: bare {mba:8.0f} ms, first result {ma:8.0f} ms ({out[name]['revisit_vs_bare_percent']:+.1f} %)", file=sys.stderr)
    finally:
        Link.set(None)
        b.close()
    print(link_table(out), file=sys.stderr)
    return out


def link_table(links: dict) -> str:
    """``per_link``'s medians as a text table: per link, first visit and revisit, the bare Pyodide boot against the
    atlas's first result (ms, and the difference in percent), and the boot the atlas took (runs per boot)."""
    rows = [("link", "first: bare", "first: atlas", "diff", "boot", "revisit: bare", "revisit: atlas", "diff", "boot")]
    for name, r in links.items():
        boots = lambda d: " ".join(f"{k} {v}" for k, v in d.items())
        rows.append((name, f"{r['bare_boot_ms_median']:,} ms", f"{r['first_result_ms_median']:,} ms", f"{r['first_vs_bare_percent']:+.1f} %",
                     boots(r["booted_from"]), f"{r['bare_revisit_ms_median']:,} ms", f"{r['revisit_first_result_ms_median']:,} ms",
                     f"{r['revisit_vs_bare_percent']:+.1f} %", boots(r["revisit_booted_from"])))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))) for row in rows)


def build(out: Path) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "atlas", "build", "-d", str(out), "--docs-dir", str(out.with_name(f".{out.name}.docs"))], cwd=ROOT, check=True,
                   env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def page_types(site: Path) -> dict[str, tuple[str, str]]:
    """Name -> (path, selector that says the page is ready)."""
    # a chart the build drew is ready as "static" (drawn live only when the reader uses it: docs/assets/js/charts.js)
    chart = '.atlas-chart[data-rendered="true"], .atlas-chart[data-rendered="static"], .atlas-chart[data-rendered="failed"]'
    calc = '#atlas-calculator[data-state="ready"], #atlas-calculator[data-state="failed"]'
    pages = {"home": ("/", chart), "product (BSF)": ("/products/bsf/", "body"),
             "scenario (BSF 3.3)": ("/products/bsf/bsf-3-3/", chart),
             "scenario, largest (Policy 3.1.5)": (BIG_SCENARIO, chart),
             "compare": ("/tools/compare/?a=bsf-3-1&b=policy-3-2-2", '#atlas-compare-result[data-prerendered="false"]'),
             "services index": ("/services/", "body"), "service (ingress-gateway)": ("/services/ingress-gateway/", chart)}
    for folder in ("calculators", "data", "tools", "about"):
        for md in sorted((ROOT / "docs" / folder).glob("*.md")):
            path = f"/{folder}/{md.stem}/"
            if (site / folder / md.stem / "index.html").exists() and path not in {p for p, _ in pages.values()}:
                # a page is a calculator when its front matter names one (calculators/accuracy is not)
                is_calc = "\ncalculator:" in md.read_text(encoding="utf-8").split("\n---", 1)[0]
                pages[f"{folder}/{md.stem}"] = (path, calc if is_calc else "body")
    return pages


def compressed_size(site: Path, base: str, url: str, body: int) -> int:
    """What a server that sends the build's precompressed files (docs/about/hosting.md) would send for ``url``:
    the size of the ``.br`` file beside the file it names, where there is one, else ``body`` (the bytes
    this benchmark's plain server sent)."""
    if not url.startswith(base + "/"):
        return body
    path = unquote(urlparse(url).path).lstrip("/")
    f = site / path / "index.html" if path == "" or path.endswith("/") else site / path
    br = f.with_name(f.name + ".br")
    return br.stat().st_size if br.is_file() else body


LONGTASKS = """() => { window.__atlasLT = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__atlasLT.push(e.duration))).observe({type: 'longtask'}); }"""
BURST = """async (from) => {
    const form = document.querySelector('#atlas-calculator form'), load = document.getElementById('calc-load');
    let lag = 0, last = 0;
    for (let i = 0; i < 100; i++) {
        load.value = String(from + 100 * i);
        form.requestSubmit();
        last = performance.now();
        await new Promise((r) => setTimeout(r, 10));
        lag = Math.max(lag, performance.now() - last - 10);
    }
    return [last, lag];
}"""


def burst_and_paste(b, url: str, context) -> dict:
    """A burst of 100 input changes, and a 5,000-row CSV pasted."""
    ctx = context(b)
    pg = ctx.new_page()
    pg.goto(url + CALC_URL)
    pg.wait_for_selector('#atlas-calculator[data-result-seq="1"]:not([data-busy])', state="attached", timeout=120000)
    pg.evaluate(LONGTASKS)
    runs, heaps, latency, lag = [], [], [], 0.0
    before = int(pg.get_attribute("#atlas-calculator", "data-runs-computed"))
    for n, start in enumerate((60000, 90000, 120000), 1):
        last, burst_lag = pg.evaluate(BURST, start)
        pg.wait_for_selector(f'#atlas-calculator[data-result-seq="{1 + 100 * n}"]:not([data-busy])', state="attached", timeout=120000)
        done = int(pg.get_attribute("#atlas-calculator", "data-runs-computed"))
        runs.append(done - before)
        before = done
        heaps.append(int(pg.get_attribute("#atlas-calculator", "data-heap-bytes")))
        latency.append(round(float(pg.get_attribute("#atlas-calculator", "data-result-ms")) - last))
        lag = max(lag, burst_lag)
    burst = {"runs_computed_per_burst": runs, "heap_bytes_after_each_burst": heaps,
             "newest_result_shown_ms_after_last_change": latency,
             "longest_main_thread_task_ms": round(max(pg.evaluate("window.__atlasLT"), default=0)),
             "largest_timer_lag_ms": round(lag)}
    ctx.close()
    ctx = context(b)
    pg = ctx.new_page()
    pg.goto(url + "/calculators/over-target/")
    pg.wait_for_selector('#atlas-calculator[data-state="ready"]', state="attached", timeout=120000)
    rows = ["name,replicas,cpu_request,observed,target"] + [f"svc{i},{i % 50 + 1},2,{(i * 7) % 100 + 1}%,70" for i in range(5000)]
    pg.focus("#calc-csv")
    pg.evaluate(LONGTASKS)
    # The text goes in as a paste lands (the value, then an input event): live results compute it (after the
    # 250 ms pause), no Compute press. Not through Playwright's insert_text: Chromium's own editor takes minutes
    # to insert 5,000 lines into any textarea (248 s into a bare <textarea> on a page with no script, on a
    # loaded 2-core machine), which would time Chromium, not the page.
    pg.evaluate("""t => { const el = document.getElementById('calc-csv'); el.value = t;
        el.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'})); }""", "\n".join(rows))
    paste_task = max(pg.evaluate("window.__atlasLT"), default=0)
    pg.evaluate(LONGTASKS)
    pg.wait_for_function("""() => { const c = document.getElementById('atlas-calculator');
        return !c.hasAttribute('data-busy') && Number(c.getAttribute('data-result-seq') || 0) >= 1; }""", timeout=120000)
    pg.wait_for_timeout(1000)  # tasks that follow the result (table enhancement) are counted too
    paste = {"rows": 5000, "run_in_python_ms": float(pg.get_attribute("#atlas-calculator", "data-run-ms")),
             "rows_in_page": pg.locator("table.atlas-own tbody tr").count(),
             "longest_main_thread_task_pasting_ms": round(paste_task),
             "longest_main_thread_task_compute_to_result_ms": round(max(pg.evaluate("window.__atlasLT"), default=0))}
    ctx.close()
    return {"burst_100_changes": burst, "own_csv_5000_rows": paste, "recompute_largest_with_packing": recompute(b, url, context)}


def deployment_pods(n: int = 500) -> tuple[str, str]:
    """``kubectl get -o json`` and ``kubectl top`` text of ``n`` pods: the Policy example of the "Your deployment" page
    (docs/assets/examples/deployment/, Policy 3.2.8's own tables) copied into namespaces ``site0``, ``site1``... until
    ``n`` pods, the last workload's replicas cut to fit."""
    ex = ROOT / "docs" / "assets" / "examples" / "deployment"
    items = json.loads((ex / "policy-pcf-sm.json").read_text())["items"]
    top = (ex / "policy-pcf-sm-top.txt").read_text().splitlines()
    out, lines, pods, k = [], [top[0]], 0, 0
    while pods < n:
        for it in items:
            if pods >= n:
                break
            it = json.loads(json.dumps(it))
            it["metadata"]["namespace"] = f"site{k}"
            if it["kind"] != "HorizontalPodAutoscaler":
                rep = min(it["spec"]["replicas"], n - pods)
                it["spec"]["replicas"] = rep
                mine = [x.split(None, 1)[1] for x in top[1:] if x.split()[1].startswith(it["metadata"]["name"] + "-")]
                names = []
                for x in mine:
                    if x.split()[0] not in names:
                        names.append(x.split()[0])
                keep = set(names[:rep])
                lines += [f"site{k}   {x}" for x in mine if x.split()[0] in keep]
                pods += rep
            out.append(it)
        k += 1
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": out}), "\n".join(lines) + "\n"


def deployment_paste(b, url: str, context, n: int = 5) -> dict:
    """The goal: 500 pods pasted into the "Your deployment" page, from the paste to the first answer after
    Python is ready (goal within 2 s); ``n`` pastes, each in a fresh page, timed by the page's own clock (the paste
    stamped with performance.now(), the answer by calculator.js's data-result-ms)."""
    objects, top = deployment_pods(500)
    times, py = [], []
    for _ in range(n):
        ctx = context(b)
        pg = ctx.new_page()
        pg.goto(url + "/calculators/deployment/?product=policy&call_model=pcf-sm&load=43000")
        pg.wait_for_selector('#atlas-calculator[data-result-seq="1"]:not([data-busy])', state="attached", timeout=120000)
        t0 = pg.evaluate("""([o, t]) => { const f = document.querySelector('#atlas-calculator form');
            f.elements.top.value = t; f.elements.objects.value = o; const t0 = performance.now();
            f.elements.objects.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'}));
            return t0; }""", [objects, top])
        pg.wait_for_function("""() => { const c = document.getElementById('atlas-calculator');
            return !c.hasAttribute('data-busy') && Number(c.getAttribute('data-result-seq') || 0) >= 2; }""", timeout=120000)
        times.append(float(pg.get_attribute("#atlas-calculator", "data-result-ms")) - t0)
        py.append(float(pg.get_attribute("#atlas-calculator", "data-run-ms")))
        headline = pg.inner_text("#deployment-headline")
        ctx.close()
    return {"pods": 500, "paste_to_answer_ms_median": round(statistics.median(times)), "runs_ms": [round(x) for x in times],
            "run_in_python_ms_median": round(statistics.median(py)), "headline": headline[:200],
            "goal_ms": 2000, "note": "includes the 250 ms wait after the last input (live results)"}


RECOMPUTE_URL = ("/calculators/footprint/?scenario=policy-3-1-5&load=93000&target=70&redundancy=n%2B1&node_cores=64"
                 "&node_mem=512&spare_nodes=1")
"""The largest scenario (Policy 3.1.5: 114 resource rows) at 93,000 TPS on one site, N+1, packed onto 64-core, 512 GiB
nodes with one spare node."""


def warm_revisits(p, url: str, n: int) -> tuple[list[float], list[int]]:
    """The footprint page opened a second time in the same browser profile, timed to its first result
    as the cold runs are; ``n`` times, each in a new profile on disk (Playwright's ordinary contexts keep an in-memory
    cache that stores no file as large as pyodide.asm.wasm, which a reader's browser keeps on disk). Returns the times
    (ms) and the body bytes the server sent for each revisit (200 responses; a 304 sends none)."""
    times, sent = [], []
    for _ in range(n):
        with tempfile.TemporaryDirectory(prefix="atlas-profile-") as profile:
            ctx = p.chromium.launch_persistent_context(profile, executable_path="/usr/bin/chromium", args=ARGS + [BLOCK_OTHER_HOSTS])
            try:
                for visit in ("first", "again"):
                    Quiet.sent = []
                    pg = ctx.new_page()
                    pg.goto(url + CALC_URL)
                    pg.wait_for_selector('#atlas-calculator[data-result-seq="1"]', state="attached", timeout=120000)
                    if visit == "again":
                        times.append(float(pg.get_attribute("#atlas-calculator", "data-result-ms")))
                        sent.append(sum(size for _, size in Quiet.sent))
                    pg.close()
            finally:
                Quiet.sent = None
                ctx.close()
    return times, sent


def recompute(b, url: str, context, n: int = 11) -> dict:
    """The speed goal of a recompute: one recompute of the largest scenario with packing on, in Pyodide (goal <= 16 ms):
    the Python time the worker reports for each of ``n`` presses of Compute, the first pressed as soon as the first
    result is shown (so the presses meet the worker's warm-up runs after a snapshot boot, which are reported too:
    ``warm_up_runs_ms``, each run's ms at the time of the last press, None for one skipped)."""
    ctx = context(b)
    pg = ctx.new_page()
    pg.goto(url + RECOMPUTE_URL)
    pg.wait_for_selector('#atlas-calculator[data-result-seq="1"]:not([data-busy])', state="attached", timeout=120000)
    ms = []
    for i in range(2, n + 2):
        pg.click("#calc-run")
        pg.wait_for_selector(f'#atlas-calculator[data-result-seq="{i}"]:not([data-busy])', state="attached", timeout=120000)
        ms.append(float(pg.get_attribute("#atlas-calculator", "data-run-ms")))
    nodes = pg.locator("#atlas-calc-result .atlas-nodes").first.inner_text() if pg.locator("#atlas-calc-result .atlas-nodes").count() else ""
    warm = json.loads(pg.get_attribute("#atlas-calculator", "data-warm-ms") or "[]")
    booted = pg.get_attribute("#atlas-calculator", "data-boot-from")
    ctx.close()
    return {"url": RECOMPUTE_URL, "run_in_python_ms_median": statistics.median(ms), "runs_ms": ms, "booted_from": booted,
            "warm_up_runs_ms": warm, "packing": nodes[:160]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="?", type=int, default=11)
    ap.add_argument("--builds", type=int, default=3)
    ap.add_argument("--site", type=Path, help="benchmark this built site instead of building (no build times)")
    ap.add_argument("--link-runs", type=int, default=3, help="runs per link of the first visits per link (default 3)")
    ap.add_argument("--links-only", action="store_true", help="measure only the first visits per link (needs --site)")
    ap.add_argument("--link", action="append", default=[], metavar="MBIT,MS",
                    help="with --links-only: measure this emulated link (Mbit/s, round trip ms) instead of LINKS; repeatable")
    ap.add_argument("--boot", choices=("files", "snapshot"),
                    help="with --links-only: every visit takes this boot, whatever the link measures (force_boot)")
    ap.add_argument("--mutation-scores", action="store_true",
                    help="only print the mutation scores recorded in tools/mutation_samples/scores.json, then stop")
    ap.add_argument("--tests", action="store_true",
                    help="also time the whole test suite as `make test` runs it, set-up done (minutes: run it alone)")
    opt = ap.parse_args()
    if (opt.link or opt.boot) and not opt.links_only:
        ap.error("--link and --boot measure first visits per link only: add --links-only (and --site)")
    if opt.mutation_scores:
        print(mutation_summary_table(mutation_summary(mutation_scores())) + "\n\nEvery measurement:\n"
              + mutation_table(mutation_scores()))
        return
    suite = test_suite() if opt.tests else None
    tmp = Path(tempfile.mkdtemp(prefix="atlas-bench-"))
    builds = []
    if opt.site:
        site = tmp / "site"
        subprocess.run(["cp", "-a", str(opt.site), str(site)], check=True)
    else:
        builds = [build(tmp / f"site{i}") for i in range(max(1, opt.builds))]
        site = tmp / "site0"
    bench = site / "bench"
    bench.mkdir(exist_ok=True)
    (bench / "bare.html").write_text(BARE_HTML)
    (bench / "bare-main.mjs").write_text(BARE_MAIN)
    (bench / "bare-worker.mjs").write_text(BARE_WORKER)
    # the bare boot is Pyodide as npm ships it: its own standard library (deflated, 2.5 MB), not the site's repacked one
    shutil.copyfile(ROOT / "node_modules" / "pyodide" / "python_stdlib.zip", bench / "python_stdlib.zip")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}"
    brotli = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Precompressed, directory=str(site)))
    threading.Thread(target=brotli.serve_forever, daemon=True).start()
    if opt.links_only:
        if opt.boot:
            force_boot(site, opt.boot)
        chosen = None
        if opt.link:
            try:
                chosen = [(f"{m} Mbit/s, {ms} ms", (float(m), float(ms))) for m, ms in (x.split(",") for x in opt.link)]
            except ValueError:
                raise SystemExit(f"--link takes MBIT,MS (e.g. 20,30), not {opt.link}")
            if any(mbit <= 0 or ms < 0 for _, (mbit, ms) in chosen):
                raise SystemExit(f"--link: the rate must be above 0 Mbit/s and the round trip 0 ms or more: {opt.link}")
        with sync_playwright() as p:
            links = per_link(p, f"http://127.0.0.1:{brotli.server_address[1]}", opt.link_runs, chosen)
        print(json.dumps({"first_result_per_link": links}, indent=2))
        return
    outside: list[str] = []

    def watch(req):
        u = req.url
        if not u.startswith(("data:", "blob:")) and urlparse(u).hostname != "127.0.0.1":
            outside.append(u)

    def context(browser):
        ctx = browser.new_context()
        ctx.on("request", watch)
        return ctx

    bare, bare_start, calc, ready_ms, phases, run_ms, first_paint, boot_from = [], [], [], [], [], [], [], []
    sizes, tables = {}, {}
    html = (site / "calculators" / "footprint" / "index.html").read_text(encoding="utf-8")
    prerendered_in_html = 'id="atlas-calc-result" data-prerendered="true"' in html and "<table" in html.split('id="atlas-calc-result"', 1)[1]
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS + [BLOCK_OTHER_HOSTS])
        for i in range(opt.runs):
            for kind in (("bare", "calc") if i % 2 == 0 else ("calc", "bare")):
                ctx = context(b)
                pg = ctx.new_page()
                if kind == "bare":
                    pg.goto(url + "/bench/bare.html")
                    pg.wait_for_selector("body[data-ready]", state="attached", timeout=120000)
                    bare.append(float(pg.get_attribute("body", "data-ready")))
                    bare_start.append(float(pg.get_attribute("body", "data-start")))
                else:
                    pg.goto(url + CALC_URL)
                    fp = pg.evaluate("""() => new Promise(res => {
                        const e = performance.getEntriesByName('first-contentful-paint')[0];
                        if (e) return res(e.startTime);
                        new PerformanceObserver(l => res(l.getEntries()[0].startTime)).observe({type: 'paint', buffered: true});
                    })""")
                    first_paint.append(fp)
                    pg.wait_for_selector('#atlas-calculator[data-result-seq="1"]', state="attached", timeout=120000)
                    # the page stamps the result time itself (as the bare page stamps its boot), so
                    # Playwright's polling and round trips are not counted
                    calc.append(float(pg.get_attribute("#atlas-calculator", "data-result-ms")))
                    ready_ms.append(float(pg.get_attribute("#atlas-calculator", "data-ready-ms")))
                    phases.append(json.loads(pg.get_attribute("#atlas-calculator", "data-boot-phases") or "{}"))
                    run_ms.append(float(pg.get_attribute("#atlas-calculator", "data-run-ms") or "nan"))
                    boot_from.append(pg.get_attribute("#atlas-calculator", "data-boot-from") or "?")
                ctx.close()
        warm, warm_bytes = warm_revisits(p, url, max(3, opt.runs // 2))
        links = per_link(p, f"http://127.0.0.1:{brotli.server_address[1]}", opt.link_runs)
        for name, (path, ready) in page_types(site).items():
            ctx = context(b)
            pg = ctx.new_page()
            total = {"bytes": 0, "bytes_compressed": 0, "requests": 0, "vega": False, "pyodide": False}

            def done(req, total=total):
                s = req.sizes()
                total["bytes"] += s["responseBodySize"] + s["responseHeadersSize"]
                total["bytes_compressed"] += compressed_size(site, url, req.url, s["responseBodySize"]) + s["responseHeadersSize"]
                total["requests"] += 1
                total["vega"] |= "/vendor/vega/" in req.url
                total["pyodide"] |= "/vendor/pyodide/" in req.url
            pg.on("requestfinished", done)
            pg.goto(url + path, wait_until="load")
            pg.wait_for_selector(ready, state="attached", timeout=120000)
            pg.wait_for_timeout(500)
            sizes[name] = dict(total, kib=round(total["bytes"] / 1024), kib_compressed=round(total["bytes_compressed"] / 1024))
            ctx.close()
        under_load = burst_and_paste(b, url, context)
        under_load["deployment_500_pods"] = deployment_paste(b, url, context)
        # Tables on the largest scenario page: lazy enhancement while scrolling, one numeric sort.
        ctx = context(b)
        pg = ctx.new_page()
        pg.goto(url + BIG_SCENARIO, wait_until="load")
        pg.wait_for_timeout(300)
        at_load = pg.get_attribute("html", "data-atlas-tables")
        pg.evaluate("""async () => { for (let y = 0; y < document.body.scrollHeight; y += 600) { scrollTo(0, y); await new Promise(r => requestAnimationFrame(r)); } }""")
        pg.wait_for_timeout(300)
        after_scroll = pg.get_attribute("html", "data-atlas-tables")
        sort_ms = pg.evaluate("""() => {
            const t = Array.from(document.querySelectorAll('table.atlas-data')).sort((a, b) => b.rows.length - a.rows.length)[0];
            window.atlasTables.enhance(t);
            const th = t.tHead.rows[0].cells[t.tHead.rows[0].cells.length - 1];
            const t0 = performance.now(); th.click(); return [t.rows.length, performance.now() - t0];
        }""")
        tables = {"page": BIG_SCENARIO, "tables": pg.locator("table.atlas-data").count(), "cells": pg.locator("table.atlas-data td").count(),
                  "enhanced_at_load": at_load, "enhanced_after_scrolling_through": after_scroll,
                  "sort_largest_table": {"rows": sort_ms[0], "ms": round(sort_ms[1], 1)}}
        ctx.close()
        b.close()
    httpd.shutdown()
    brotli.shutdown()
    med_bare, med_calc, med_ready = statistics.median(bare), statistics.median(calc), statistics.median(ready_ms)
    report = {
        "build_seconds_median": round(statistics.median(builds), 2) if builds else None, "build_seconds": [round(x, 2) for x in builds],
        "bare_pyodide_boot_ms_median": round(med_bare), "bare_runs_ms": [round(x) for x in bare],
        "bare_worker_start_ms_median": round(statistics.median(bare_start)),
        "calculator_ready_ms_median": round(med_ready), "calculator_ready_runs_ms": [round(x) for x in ready_ms],
        "calculator_ready_overhead_vs_bare_percent": round((med_ready / med_bare - 1) * 100, 1),
        "calculator_first_result_ms_median": round(med_calc), "calculator_runs_ms": [round(x) for x in calc],
        "calculator_first_result_overhead_vs_bare_percent": round((med_calc / med_bare - 1) * 100, 1),
        "first_result_per_link": links,
        "calculator_warm_revisit_first_result_ms_median": round(statistics.median(warm)), "warm_revisit_runs_ms": [round(x) for x in warm],
        "warm_revisit_body_bytes_sent_median": round(statistics.median(warm_bytes)),
        "calculator_boot_phases_ms_median": {k: round(statistics.median(p.get(k, math.nan) for p in phases))
                                             for k in (phases[0] if phases else {})},
        "calculator_run_in_python_ms_median": round(statistics.median(run_ms)) if run_ms else None,
        "calculator_booted_from": {k: boot_from.count(k) for k in sorted(set(boot_from))},
        "calculator_first_contentful_paint_ms": [round(x) if x else None for x in first_paint],
        "prerendered_result_in_html": prerendered_in_html,
        "prerendered_result_visible_at_first_paint": prerendered_in_html and all(x and x < med_bare for x in first_paint),
        "bytes_per_page": sizes,
        # every page without a calculator moves at most 400 KB (uncompressed, headers included) before use
        "pages_over_400_kb_before_use": {n: v["bytes"] for n, v in sizes.items() if not v["pyodide"] and v["bytes"] > 400_000},
        "tables": tables, **under_load, "requests_outside_127_0_0_1": outside,
        "backtest": backtest_headline(),
        "mutation_scores": mutation_scores(),
        "mutation_summary": mutation_summary(mutation_scores()),
        "test_suite": suite or "not timed (pass --tests: `make test`'s pytest run, alone on the machine)",
    }
    print(json.dumps(report, indent=2))
    print(mutation_summary_table(report["mutation_summary"]), file=sys.stderr)  # stdout stays JSON


def test_suite() -> dict:
    """The test-suite goal (at most 6 minutes on 2 cores): the wall time of the whole suite as `make test` runs it
    (``python -m pytest``, with pytest.ini's options; the set-up `make test` does first is not timed), its summary
    line, the lines naming each test that failed (pytest's -ra summary, 300 characters each) and the load average
    before and after (other work on the machine slows it)."""
    t0 = time.perf_counter()
    load0 = os.getloadavg()
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True)
    secs = time.perf_counter() - t0
    summary = next((line.strip("= ") for line in reversed(r.stdout.splitlines()) if " in " in line and (" passed" in line or " failed" in line)), "")
    failed = [line[:300] for line in r.stdout.splitlines() if line.startswith(("FAILED ", "ERROR "))]
    return {"seconds": round(secs, 1), "minutes": round(secs / 60, 2), "exit_code": r.returncode, "summary": summary,
            "failed": failed, "load_average_before_after": [round(load0[0], 2), round(os.getloadavg()[0], 2)]}


MUTATION_SCORES = ROOT / "tools" / "mutation_samples" / "scores.json"
"""The mutation scores tools/mutation_sample.py recorded (it runs mutmut; the benchmark only reads the file)."""


def mutation_scores(path: Path = MUTATION_SCORES) -> list[dict]:
    """Every recorded mutation score, as tools/mutation_sample.py wrote it (module, seed, sample, mutants, killed,
    survived, timeout, no_tests, other, score_percent, margin_percent (95 %), seconds_per_mutant, date, commit, note),
    by module, oldest first: a module's earlier scores stay beside its newest (before and after tests were written).
    [] when nothing was recorded. Raises ValueError (json) for a file that is not JSON."""
    if not path.is_file():
        return []
    return sorted(json.loads(path.read_text(encoding="utf-8")), key=lambda e: (e["module"], e["date"]))


def mutation_table(entries: list[dict]) -> str:
    """``mutation_scores`` as a text table, one line per measurement: module, mutants run (of the module's), killed,
    survived, timeouts, no tests, score with its 95 % margin (percentage points), seconds per mutant, date, commit,
    note."""
    head = ["module", "run / mutants", "killed", "survived", "timeout", "no tests", "score %", "s/mutant", "date",
            "commit", "note"]
    rows = [[e["module"], f"{e['sample']} / {e['mutants']}" + ("" if e.get("seed") is None else f" (seed {e['seed']})"),
             str(e["killed"]), str(e["survived"]), str(e["timeout"]), str(e["no_tests"]),
             f"{e['score_percent']:.1f} +/- {e['margin_percent']:.1f}",
             "" if e.get("seconds_per_mutant") is None else f"{e['seconds_per_mutant']:.1f}", e["date"], e["commit"],
             e.get("note", "")] for e in entries]
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in rows])


MUTATION_GOAL_PERCENT = 85.0
"""The mutation score every module of calculators/, atlas/tableview.py and atlas/downloads.py is to reach (the
structure issue's goal)."""


def mutation_summary(entries: list[dict]) -> list[dict]:
    """Per module, the scores that count, from ``mutation_scores``' entries (by module, oldest first, each seed's
    entries in the order they were recorded).

    A draw's *first measure* is the first entry recorded for its seed: the tests had not been written against those
    mutants yet (a later entry of the same seed re-runs them after tests were, and overstates the score). A run of
    every mutant of the module (``sample == mutants``, no seed) is exhaustive: no sampling margin. Returns
    ``[{"module", "newest": {"seed", "score_percent", "margin_percent", "sample", "mutants"} | None (the first
    measure of the newest seed drawn), "draws": [(seed, score_percent), ...] (every draw's first measure, oldest
    seed first), "exhaustive": entry | None (the newest run of every mutant, when it was recorded after the newest
    draw's first measure), "meets_goal": bool | None}]``, modules sorted. ``meets_goal`` compares the figure that
    counts (that exhaustive run, else the newest draw's first measure) with ``MUTATION_GOAL_PERCENT``; None when the
    module has neither."""
    by_module: dict[str, list[dict]] = {}
    for e in entries:
        by_module.setdefault(e["module"], []).append(e)
    out = []
    for module in sorted(by_module):
        first: dict[int, tuple[int, dict]] = {}
        exhaustive = None
        for at, e in enumerate(by_module[module]):
            if e.get("seed") is None:
                if e["sample"] == e["mutants"]:
                    exhaustive = (at, e)
                continue
            first.setdefault(e["seed"], (at, e))
        draws = [(seed, first[seed][1]["score_percent"]) for seed in sorted(first)]
        newest = first[max(first)] if first else None
        # the newer of the two counts: an exhaustive run measured before the code or its tests changed is history
        figure = max((x for x in (exhaustive, newest) if x), key=lambda x: x[0], default=(None, None))[1]
        exhaustive = exhaustive[1] if exhaustive and exhaustive[1] is figure else None
        newest = newest[1] if newest else None
        out.append({"module": module,
                    "newest": None if newest is None else {k: newest[k] for k in ("seed", "score_percent", "margin_percent",
                                                                                  "sample", "mutants")},
                    "draws": draws, "exhaustive": exhaustive,
                    "meets_goal": None if figure is None else figure["score_percent"] >= MUTATION_GOAL_PERCENT})
    return out


def mutation_summary_table(summary: list[dict]) -> str:
    """``mutation_summary`` as a text table, one line per module: the figure that counts (an exhaustive run newer
    than the newest draw, else the newest draw's first measure, with its 95 % margin), whether it meets the goal, and every draw's first
    measure; then how many modules meet it."""
    head = ["module", "counts", "score %", "goal", "every draw's first measure (seed: %)"]
    rows = []
    for m in summary:
        x, n = m["exhaustive"], m["newest"]
        counts = (f"all {x['mutants']} mutants" if x else f"draw {n['seed']}, {n['sample']} of {n['mutants']}" if n else "none")
        score = (f"{x['score_percent']:.1f}" if x else f"{n['score_percent']:.1f} +/- {n['margin_percent']:.1f}" if n else "")
        goal = {True: "met", False: "under", None: ""}[m["meets_goal"]]
        rows.append([m["module"], counts, score, goal, ", ".join(f"{s}: {v:.1f}" for s, v in m["draws"])])
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
    met = sum(1 for m in summary if m["meets_goal"])
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in rows]
                     + [f"{met} of {len(summary)} modules at or above {MUTATION_GOAL_PERCENT:g} % on the figure that counts."])


def backtest_headline() -> dict:
    """The backtest's headline figures (calculators.backtest over data/), as the "How accurate is this?" page gives
    them: per product and sizing method (the comparable runs, one run), the held-out comparisons with their median and
    90th-percentile absolute percentage errors, per service and for whole footprints, and the band on totals with its
    held-out coverage; the power each product's comparable runs are scaled by beyond their measured range
    (``calculators.backtest.select_power``) with each power's whole-footprint median and p90; then the PCF SM request of the sizing issue (50,000 TPS on two sites, N+1, 64-core / 256 GiB
    nodes) as the footprint answers it."""
    sys.path.insert(0, str(ROOT))
    from calculators import backtest, footprint
    from atlas.bundle import build as build_bundle
    from atlas.datastore import load
    bundle = build_bundle(load())
    res = backtest.run(bundle)
    r1 = lambda v: None if v is None else round(v, 1)
    stat = lambda v: {"comparisons": v["with_error"], "median_ape_percent": r1(v["median_ape"]), "p90_ape_percent": r1(v["p90_ape"])}
    out = {}
    for doc, by_m in res["summary"].items():
        for m, by_l in by_m.items():
            if not by_l["service"]["comparisons"] and not by_l["whole"]["comparisons"]:
                continue
            b = res["bands"][doc][m]["whole"]
            out[f"{doc}/{m}"] = {"whole_footprint": stat(by_l["whole"]), "per_service": stat(by_l["service"]),
                                 "band_on_totals": ({"lo": round(b["lo"], 3), "hi": round(b["hi"], 3), "comparisons": b["comparisons"],
                                                     "held_out_coverage_percent": r1(b.get("coverage")), "basis": b.get("basis")}
                                                    if "lo" in b else b.get("none"))}
    ex = footprint.recommend(bundle, "policy:pcf-sm", 50000, sites=2, redundancy="n+1", node_cores=64, node_mem_gib=256)
    rng = ex["range"]
    example = {"anchor": ex["evidence"]["anchor"], "nodes_per_site": ex["nodes_per_site"],
               "likely_nodes_per_site": [rng["low"]["nodes"], rng["high"]["nodes"]] if "low" in rng else None,
               "cpu_request_per_site": ex["totals"]["site"]["after"]["cpu_request"],
               "each_comparable_run_alone": {x["id"]: {"cpu_request_per_site": x.get("cpu_request_site"), "nodes_per_site": x.get("nodes_per_site")}
                                             for x in ex["evidence"]["spread"]}}
    powers = {doc: {"power": r["power"], "why": r["why"], "held_out_choices": r["held_out_choices"],
                    "whole_footprint_by_power": {f'{sc["power"]:g}': [r1(sc["median_ape"]), r1(sc["p90_ape"])] for sc in r["scores"]}}
              for doc, r in res["extrapolation"].items()}
    return {"by_product_and_method": out, "power_beyond_the_measured_range": powers,
            "pcf_sm_50k_tps_two_sites_n_plus_1": example}

if __name__ == "__main__":
    main()
