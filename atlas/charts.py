"""Build step "static charts": every chart of a page that is not a calculator is drawn at build time, as SVG,
so the page shows it at first paint without loading Vega (vega, vega-lite, vega-embed and vega-interpreter:
about 830 KB, more than the rest of a page). ``docs/assets/js/charts.js`` loads Vega and replaces the drawing
with the live chart (tooltips, links) when the reader first points at, touches or focuses a chart.

* ``collect(docs_dir)``: the Vega-Lite specs the pages of the docs tree carry (``<script type="application/json"
  id=…>`` beside each ``<div class="atlas-chart" data-chart-id=…>``), keyed by a hash of the spec's text as
  written, which MkDocs passes into the HTML unchanged. Calculator pages are left out: their chart shows a
  computed result and waits for Python anyway.
* ``start(specs)``: ``node tools/vega_svg.mjs`` draws them (light theme, a wide and a narrow drawing each) in a
  process of its own, so it runs while MkDocs renders; ``Drawing.finish()`` waits for it. Drawings of earlier
  builds are reused from ``build/chart-cache`` (``CACHE``), by spec and drawing code.
* ``inject(site_dir, svgs)``: puts each drawing into its chart's ``<div>`` in the rendered HTML, and moves the
  spec of each drawn chart out of the page into ``assets/charts/<key>.json`` (fetched when the chart is used).
* ``dark_css()``: the stylesheet that repaints the drawings in the dark palette (``assets/css/charts.css``).

The colours are ``atlas/chart_theme.json``'s, which charts.js also uses for live charts.
"""
from __future__ import annotations

import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .assets import BuildError, node_modules

ROOT = Path(__file__).resolve().parent.parent
THEME_FILE = Path(__file__).with_name("chart_theme.json")
SCRIPT = ROOT / "tools" / "vega_svg.mjs"
CSS = "assets/css/charts.css"
"""Where the dark-theme stylesheet goes in the docs tree (linked by overrides/main.html on chart pages)."""

HOLDER = re.compile(r'<script type="application/json" id="([^"]+)">(.*?)</script>', re.S)
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)


def theme() -> dict:
    """atlas/chart_theme.json: font, light and dark colours (fg, muted, grid, mark, category[10]), and the wide
    and narrow drawing sizes (px)."""
    return json.loads(THEME_FILE.read_text(encoding="utf-8"))


def key(text: str) -> str:
    """The key of a spec: the first 16 hex digits of the SHA-256 of its JSON text as written in the page."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def collect(docs_dir: Path) -> dict[str, dict]:
    """The Vega-Lite spec of every chart on the non-calculator pages of ``docs_dir`` (Markdown files), by
    ``key``. Raises BuildError naming the page and chart if a spec is not valid JSON."""
    specs: dict[str, dict] = {}
    for md in sorted(Path(docs_dir).rglob("*.md")):
        text = md.read_text(encoding="utf-8")
        if "atlas-chart" not in text:
            continue
        fm = FRONT_MATTER.match(text)
        if fm and re.search(r"^calculator:", fm.group(1), re.M):
            continue
        for chart_id, body in HOLDER.findall(text):
            try:
                specs[key(body)] = json.loads(body)
            except json.JSONDecodeError as e:
                raise BuildError(f"{md.relative_to(docs_dir)}: chart {chart_id!r} has a spec that is not JSON ({e})") from None
    return specs


CACHE = ROOT / "build" / "chart-cache"
"""The drawings of earlier builds, one JSON file ({"wide": svg, "narrow": svg}) per spec and drawing code, so that a
build draws only the charts whose spec changed: drawing all 66 takes 7 s of Node (SVGO writing them, 3.5 s of it),
beside MkDocs' 4. A build removes the files it did not use once there are more than CACHE_KEPT."""
CACHE_KEPT = 2000


def _drawer() -> str:
    """A hash of what a drawing depends on besides its spec: the drawing script, the theme, and the versions of Vega,
    Vega-Lite and SVGO installed."""
    parts = [SCRIPT.read_bytes(), THEME_FILE.read_bytes()]
    parts += [(node_modules() / name / "package.json").read_bytes() for name in ("vega", "vega-lite", "svgo")]
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


@dataclass
class Drawing:
    """A running ``node tools/vega_svg.mjs`` (``start``); ``finish()`` returns its drawings with the cached ones."""
    proc: subprocess.Popen | None
    folder: Path
    count: int
    cached: dict[str, dict[str, str]] | None = None
    drawer: str = ""

    def finish(self, timeout: float = 600) -> dict[str, dict[str, str]]:
        """Waits for the drawings: {key: {"wide": svg, "narrow": svg}}, those drawn now (kept in CACHE) and those
        found there. Raises BuildError with Node's message if it failed (a spec Vega cannot draw is named by its
        key) or took longer than ``timeout`` seconds."""
        drawn = self._finish(timeout)
        for k, d in drawn.items():
            try:  # written under a temporary name, then renamed: builds may run side by side
                CACHE.mkdir(parents=True, exist_ok=True)
                tmp = CACHE / f"{self.drawer}-{k}.json.{os.getpid()}"
                tmp.write_text(json.dumps(d), encoding="utf-8")
                tmp.replace(CACHE / f"{self.drawer}-{k}.json")
            except OSError:
                break  # a read-only checkout draws them again next time
        return {**(self.cached or {}), **drawn}

    def _finish(self, timeout: float) -> dict[str, dict[str, str]]:
        try:
            if self.proc is None:
                return {}
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise BuildError(f"tools/vega_svg.mjs took more than {timeout:.0f} s for {self.count} charts") from None
            err = (self.folder / "err").read_text(encoding="utf-8", errors="replace").strip()
            if self.proc.returncode != 0:
                raise BuildError(f"tools/vega_svg.mjs failed: {err[-2000:] or f'exit status {self.proc.returncode}'}")
            return json.loads((self.folder / "out.json").read_text(encoding="utf-8"))
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


    def cancel(self) -> None:
        """Stops the drawing (a step before its own failed) and removes its files."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def start(specs: dict[str, dict]) -> Drawing:
    """Starts drawing ``specs`` ({key: Vega-Lite spec}) in Node, in the background: those without a drawing in CACHE
    (made by the same drawing code). Raises BuildError if Node or node_modules is missing."""
    folder = Path(tempfile.mkdtemp(prefix="atlas-charts-"))
    drawer, cached = _drawer() if specs else "", {}
    for k in specs:
        try:
            d = json.loads((CACHE / f"{drawer}-{k}.json").read_text(encoding="utf-8"))
            if isinstance(d, dict) and set(d) == {"wide", "narrow"}:
                cached[k] = d
        except (OSError, ValueError):
            pass
    _prune(drawer, set(specs))
    specs = {k: v for k, v in specs.items() if k not in cached}
    if not specs:
        return Drawing(None, folder, 0, cached, drawer)
    node = shutil.which("node")
    if not node:
        shutil.rmtree(folder, ignore_errors=True)
        raise BuildError("Node.js (node) is not on PATH: it draws the static charts (tools/vega_svg.mjs)")
    (folder / "in.json").write_text(json.dumps(specs), encoding="utf-8")
    with open(folder / "in.json", "rb") as stdin, open(folder / "out.json", "wb") as out, open(folder / "err", "wb") as err:
        proc = subprocess.Popen([node, str(SCRIPT), str(node_modules()), str(THEME_FILE)], stdin=stdin, stdout=out, stderr=err)
    return Drawing(proc, folder, len(specs), cached, drawer)


def _prune(drawer: str, keys: set[str]) -> None:
    """Removes from CACHE, when it holds more than CACHE_KEPT files, those this build does not use."""
    try:
        files = list(CACHE.glob("*.json"))
        if len(files) > CACHE_KEPT:
            used = {f"{drawer}-{k}.json" for k in keys}
            for f in files:
                if f.name not in used:
                    f.unlink(missing_ok=True)
    except OSError:
        pass


INERT_ARIA = re.compile(r' (?:role|aria-[a-z]+)="[^"]*"')
"""ARIA attributes of a drawing's elements (role, aria-label, aria-roledescription, aria-hidden, ...)."""
DEAD_SVG = re.compile(r' font-family="[^"]*"| opacity="1"|<path class="foreground" d=""(?: pointer-events="none")? display="none"/>'
                      r'|<path class="background" d="M0,0h0v0h0Z" pointer-events="none"/>')
"""What a drawing draws the same without (a ninth of a scenario page's drawings): Vega's font-family on every text
(atlas.css sets ``.atlas-static text`` to the page's font, and a stylesheet rule wins over the attribute), opacity 1
(the initial value; not inherited), and the empty paths Vega writes for each axis group (a foreground with no
path, not displayed; a background of zero size)."""
CHART_DIV = re.compile(r'<div class="atlas-chart([^"]*)" data-chart-id="([^"]+)"([^>]*)></div>')
SPECS = "assets/charts"
"""Where a drawn chart's spec goes, in the built site: ``<key>.json``, the spec's text as the page held it. The page
keeps the drawing and the key (``data-spec``); charts.js fetches the spec when the reader first uses the chart."""


def inject(site_dir: Path, svgs: dict[str, dict[str, str]]) -> int:
    """Puts each drawing into the empty ``<div class="atlas-chart" data-chart-id=…>`` of its chart in every HTML
    file of ``site_dir``, marked ``data-static`` and focusable (a keyboard reader uses the chart by focusing it).
    The spec of a drawn chart leaves the page for ``SPECS/<key>.json`` (the chart's ``data-spec`` names the key):
    only the live chart needs it, and it was a tenth of a chart page's HTML (59 KB of the accuracy page's 277 KB).
    Returns the number of charts drawn. A chart with no drawing is left to charts.js to draw live from the spec
    the page keeps."""
    done = 0
    specs = Path(site_dir) / SPECS
    for page in Path(site_dir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if "atlas-chart" not in text:
            continue
        holders = HOLDER.findall(text)
        keys = {cid: key(body) for cid, body in holders}
        drawings = {cid: svgs.get(k) for cid, k in keys.items()}
        drawn: set[str] = set()  # the charts put() drew: only their specs leave the page
        # a drawn chart's spec was read by collect(): it is JSON
        descriptions = {cid: json.loads(body).get("description") or "" for cid, body in holders if drawings[cid]}

        def put(m: re.Match) -> str:
            nonlocal done
            cls, cid, rest = m.groups()
            d = drawings.get(cid)
            if not d:
                return m.group(0)
            done += 1
            drawn.add(cid)
            label = html.escape(descriptions.get(cid) or "Chart", quote=True)
            parts = []
            for size in ("wide", "narrow"):
                # The drawing is one labelled graphic (its spec's description), and where the chart's element has
                # role="img" (with the page's label) not even that is read. Its marks' and axes' own ARIA attributes
                # are left out (tools/vega_svg.mjs draws with Vega's ARIA off, and this removes the rest): a third
                # of a drawing's bytes, repeating the table beside the chart. The live chart keeps Vega's ARIA.
                svg = DEAD_SVG.sub("", INERT_ARIA.sub("", d[size])).replace(
                    "<svg ", f'<svg role="graphics-document" aria-roledescription="visualization" aria-label="{label}" ', 1)
                parts.append(f'<div class="atlas-static atlas-static-{size}">{svg}</div>')
            focus = "" if "tabindex=" in rest else ' tabindex="0"'
            return (f'<div class="atlas-chart{cls}" data-chart-id="{cid}"{rest} data-static="true" data-spec="{keys[cid]}"{focus}>'
                    f'{"".join(parts)}</div>')

        def move(m: re.Match) -> str:
            cid, body = m.groups()
            if cid not in drawn:
                return m.group(0)
            specs.mkdir(parents=True, exist_ok=True)
            (specs / f"{keys[cid]}.json").write_text(body, encoding="utf-8")
            return ""

        new = HOLDER.sub(move, CHART_DIV.sub(put, text))
        if new != text:
            page.write_text(new, encoding="utf-8")
    return done


def dark_css() -> str:
    """The stylesheet that repaints the build's drawings (drawn in the light palette) in the dark palette:
    one rule per light colour, for ``fill`` and ``stroke``, under Material's dark scheme (``slate``)."""
    t = theme()
    light, dark = t["light"], t["dark"]
    pairs = [(light[k], dark[k]) for k in ("fg", "muted", "grid", "mark")]
    pairs += list(zip(light["category"], dark["category"]))
    seen: set[str] = set()
    rules = ["/* Static charts (atlas/charts.py): drawn at build time in the light palette; the dark palette by colour. */"]
    for lo, hi in pairs:
        if lo in seen:
            continue
        seen.add(lo)
        for attr in ("fill", "stroke"):
            rules.append(f'[data-md-color-scheme="slate"] .atlas-static [{attr}="{lo}"] {{ {attr}: {hi}; }}')
    return "\n".join(rules) + "\n"
