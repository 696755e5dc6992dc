"""Build step "trim stylesheets": Material's two stylesheets (``main`` and ``palette``: 150 KB that every page
loads before it can paint) cut to the rules the site can use, with PurgeCSS (npm, ``tools/purge_css.mjs``).

Which rules are kept: a rule stays when every class, id, element and attribute it names is a word of some
*content* file (``content``): every HTML page of the rendered site, and every script and Python module that
writes markup in the browser (Material's bundle: search results, tooltips, dialogs; the site's scripts;
tablesort, which marks sortable headers ``role="columnheader"``; the calculators' Python, whose results are
HTML). Material builds two class names by joining strings (``md-tag--<name>``, ``md-source__fact--<name>``):
they are kept by ``SAFELIST``. A custom property (``--md-…``) is kept when a kept rule uses it (PurgeCSS's
``variables``): Mermaid's colours, the icons of Material's features the site does not turn on and the like go,
about 7.5 KB. PurgeCSS judges a property after each sheet, by the sheets read so far: the properties that palette
takes from main (``--md-hue`` in the dark scheme), that the site's own stylesheets and Vega's use and that its
scripts name (charts.js reads colours with ``getPropertyValue``) are kept by name. The result is checked: a
property that a kept rule, the site's stylesheets or its scripts use and that is no longer declared stops the build
(BuildError). Keyframes and font faces are all kept. Measured on this site: ``main`` 137,572 to about 79,700
bytes, ``palette`` 11,930 to about 4,100 (the colours of the palettes mkdocs.yml does not use go).

Each trimmed stylesheet is written under a new name (Material's, with the trimmed text's content hash added:
``main.57a0d79d.<hash>.min.css``), every page's link is rewritten to it, and Material's file and its source
map (which describes the untrimmed file) are removed, so a browser never pairs a cached stylesheet with pages
of another build.
"""
from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path

from .assets import ROOT, BuildError, _node, node_modules

STYLESHEETS = re.compile(r"^(main|palette)\.([0-9a-f]{8})\.min\.css$")
"""Material's stylesheets in ``assets/stylesheets/`` (their names carry Material's own content hash)."""
SAFELIST = [r"^md-tag--", r"^md-source__fact--"]
"""Class names Material's bundle makes by joining strings (``md-tag--${…}``, ``md-source__fact--${…}``)."""
SOURCE_MAP = re.compile(r"/\*# sourceMappingURL=[^*]*\*/\s*$")
CUSTOM_PROPERTY = re.compile(r"(--[\w-]+)\s*:")
"""A custom property's declaration (``--md-hue:225deg``)."""
VAR_USE = re.compile(r"var\(\s*(--[\w-]+)")
"""A stylesheet's use of a custom property."""
READ_PROPERTY = re.compile(r"""["'](--[\w-]+)["']""")
"""A custom property a script names (charts.js reads Material's colours and font with getPropertyValue)."""


def content(site: Path) -> list[str]:
    """The files whose words keep a rule (see the module docstring), as paths and globs for PurgeCSS."""
    site = Path(site)
    return [str(site / "**" / "*.html"), str(site / "assets" / "javascripts" / "bundle.*.min.js"),
            str(site / "assets" / "js" / "*.js"), str(site / "assets" / "js" / "*.mjs"),
            str(site / "assets" / "vendor" / "tablesort" / "*.js"), str(ROOT / "calculators" / "*.py")]


def trim(site: Path) -> dict[str, dict]:
    """Trim Material's stylesheets in ``site`` (a rendered site) in place: write each trimmed one under its new
    name, rewrite every HTML file's links to it, remove Material's file and its ``.map``. Returns
    ``{old path: {"path": new path, "bytes_before": int, "bytes_after": int, "rules_removed": int}}`` (paths
    relative to ``site``). Raises BuildError if Material's stylesheets are missing, Node or the script fails,
    or a page still names a removed file."""
    site = Path(site)
    folder = site / "assets" / "stylesheets"
    found = sorted(f for f in folder.glob("*.min.css") if STYLESHEETS.match(f.name)) if folder.is_dir() else []
    if not found:
        raise BuildError(f"no Material stylesheet (main.<hash>.min.css) in {folder}: has the theme changed?")
    material = [f.read_text(encoding="utf-8") for f in found]
    others = [f.read_text(encoding="utf-8") for f in sorted(site.rglob("*.css")) if f.parent != folder]
    named = {v for f in sorted((site / "assets" / "js").glob("*.*js"))
             for v in READ_PROPERTY.findall(f.read_text(encoding="utf-8"))}
    # PurgeCSS drops a custom property unused by the sheets it has read so far, after each sheet (main, then palette):
    # what palette uses of main's (--md-hue, in the dark scheme's colours), the site's own stylesheets and Vega's use,
    # or its scripts name, is kept by name
    keep = sorted({v for text in others + material[1:] for v in VAR_USE.findall(text)} | named)
    # the texts without their source-map comment (the map describes the untrimmed file; PostCSS would read it)
    job = {"css": [SOURCE_MAP.sub("", text) for text in material], "content": content(site),
           "safelist": SAFELIST, "variables": keep}
    r = subprocess.run([_node(), str(ROOT / "tools" / "purge_css.mjs"), str(node_modules())], input=json.dumps(job),
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise BuildError(f"tools/purge_css.mjs failed: {r.stderr.strip()[-2000:]}")
    result = json.loads(r.stdout)
    declared = {v for out in result for v in CUSTOM_PROPERTY.findall(out["css"])}
    # every property still used (by the site's sheets, by Material's kept rules, or named by the site's scripts) is
    # still declared: checked, not assumed
    wanted = {v for text in others + [out["css"] for out in result] for v in VAR_USE.findall(text)} | named
    before = {v for text in material for v in CUSTOM_PROPERTY.findall(text)}
    lost = sorted((wanted & before) - declared)
    if lost:
        raise BuildError(f"trimming Material's stylesheets removed custom properties the site uses: {', '.join(lost)}")
    report: dict[str, dict] = {}
    renames: dict[str, str] = {}
    for f, out in zip(found, result, strict=True):
        text = out["css"].rstrip() + "\n"
        data = text.encode("utf-8")
        stem = f.name[: -len(".min.css")]
        new = folder / f"{stem}.{hashlib.sha256(data).hexdigest()[:10]}.min.css"
        new.write_bytes(data)
        renames[f.name] = new.name
        report[f.relative_to(site).as_posix()] = {"path": new.relative_to(site).as_posix(), "bytes_before": f.stat().st_size,
                                                  "bytes_after": len(data), "rules_removed": out["rejected"]}
    pattern = re.compile("|".join(re.escape(f"stylesheets/{old}") for old in renames))
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new_text = pattern.sub(lambda m: "stylesheets/" + renames[m.group(0).split("/", 1)[1]], text)
        stale = [old for old in renames if old in new_text]  # named some other way than the theme writes it
        if stale:
            raise BuildError(f"{page.relative_to(site)} names {', '.join(stale)} in a way the trim step cannot rewrite")
        if new_text != text:
            page.write_text(new_text, encoding="utf-8")
    for f in found:
        f.unlink()
        f.with_name(f.name + ".map").unlink(missing_ok=True)
    return report
