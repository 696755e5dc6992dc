"""The "generate pages" step: the Markdown tree MkDocs renders.

``write(renderer, docs_dir, src)`` writes into ``docs_dir``:

* one page per product (``products/<doc>/index.md``), per scenario (``products/<doc>/<id>.md``),
  per set of infrastructure rules (``products/<doc>/guidance.md``) and per canonical service
  (``services/<slug>.md``, with the index ``services/index.md``), their bodies rendered now from the
  data (``atlas.pages.GENERATED``);
* every hand-written page of ``src`` (docs/) with its macro calls expanded (``atlas.pages.MACROS``,
  Jinja with StrictUndefined: an unknown name stops the build), and every other file of ``src``
  (scripts, stylesheets, images) as it is;
* ``SUMMARY.md``, the navigation (mkdocs-literate-nav): products and their scenarios, then one
  section per folder of ``src``.

A file is rewritten only when its bytes change, so ``mkdocs serve`` reloads just what changed.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import jinja2
import yaml

from ..html import md_esc
from . import GENERATED, MACROS, services

SECTIONS = {"calculators": "Calculators", "data": "Data", "tools": "Tools", "about": "About"}
"""Nav sections for the folders of docs/, in this order (other folders after, capitalised)."""


def front(text: str) -> str:
    """A front-matter string: JSON quoting is valid YAML, so quotes or colons in data cannot break it."""
    return json.dumps(str(text))


def split_front_matter(text: str) -> tuple[str, str]:
    """(front matter block including its ``---`` lines, body) of a Markdown page; ('', text) without one."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end >= 0:
            return text[:end + 5], text[end + 5:]
    return "", text


def static_nav(docs: Path) -> list[str]:
    """Nav lines for the hand-written pages: one section per folder (SECTIONS order),
    pages ordered by their front matter's nav_order, then title."""
    groups: dict[str, list[tuple]] = {}
    for md in sorted(docs.rglob("*.md")):
        rel = md.relative_to(docs)
        if rel.as_posix() == "index.md" or rel.parts[0] == "assets":
            continue
        meta = {}
        text = md.read_text(encoding="utf-8")
        if text.startswith("---\n"):
            meta = yaml.safe_load(text.split("---\n", 2)[1]) or {}
        folder = rel.parts[0] if len(rel.parts) > 1 else meta.get("nav_section", "tools")
        title = meta.get("title") or md.stem.replace("-", " ").capitalize()
        groups.setdefault(folder, []).append((meta.get("nav_order", 50), title, rel.as_posix()))
    lines = []
    for folder in sorted(groups, key=lambda f: (list(SECTIONS).index(f) if f in SECTIONS else 99, f)):
        lines.append(f"* {SECTIONS.get(folder, folder.capitalize())}")
        lines += [f"    * [{t}]({path})" for _, t, path in sorted(groups[folder])]
    return lines


_GLUED = re.compile(r"(</t[dh]>)(?=<)")


def spaced_cells(text: str) -> str:
    """``text`` with a space after every table cell followed by a tag (``</td><td>`` -> ``</td> <td>``). The search
    index takes a page's text without its tags, so cells printed back to back would be glued into one word
    ("ingress-gatewayapp"), and a service name in a table could not be found. Only whitespace is added."""
    return _GLUED.sub(r"\1 ", text)


class Writer:
    """Writes files under ``root``, leaving a file whose bytes are unchanged untouched; ``written`` lists
    every path it was asked for (relative), so stale files can be removed afterwards."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.written: set[str] = set()

    def text(self, rel: str, text: str) -> None:
        """Write ``text`` (UTF-8) to ``rel`` under the root, unless the file already holds those bytes."""
        self.bytes(rel, text.encode("utf-8"))

    def bytes(self, rel: str, data: bytes) -> None:
        """Write ``data`` to ``rel`` under the root, unless the file already holds those bytes."""
        dest = self.root / rel
        self.written.add(Path(rel).as_posix())
        if dest.is_file() and dest.stat().st_size == len(data) and dest.read_bytes() == data:
            return
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)

    def copy(self, rel: str, src: Path) -> None:
        """Copy file ``src`` to ``rel`` under the root (with its times), unless a copy of the same size and time is there."""
        dest = self.root / rel
        self.written.add(Path(rel).as_posix())
        st = src.stat()
        if dest.is_file() and dest.stat().st_size == st.st_size and dest.stat().st_mtime_ns == st.st_mtime_ns:
            return
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest)


def _template_line(e: BaseException) -> int | None:
    """The template line a Jinja run-time error (an undefined name) was raised at, from its traceback."""
    tb, line = e.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def macro_environment(renderer, config_extra: dict) -> jinja2.Environment:
    """The Jinja environment hand-written pages are expanded in: every name of MACROS (bound to ``r``)
    and ``config.extra`` (mkdocs.yml's ``extra``, e.g. the CSP the Hosting page quotes). Undefined
    names raise (StrictUndefined)."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)
    env.globals.update({name: (lambda fn: lambda *args: fn(renderer, *args))(fn) for name, fn in MACROS.items()})
    env.globals["config"] = {"extra": config_extra}
    return env


def hand_written(renderer, src: Path, out: Writer, config_extra: dict) -> None:
    """Every file of ``src`` into ``out``: Markdown pages with their macros expanded, other files copied.
    Raises ValueError naming the page for a template error (an unknown macro, a Jinja syntax error)."""
    env = macro_environment(renderer, config_extra)
    minified = []
    for f in sorted(src.rglob("*")):
        if not f.is_file():
            continue
        rel = f.relative_to(src).as_posix()
        if MINIFIED.match(rel):
            minified.append((rel, f))
            continue
        if f.suffix != ".md":
            out.copy(rel, f)
            continue
        head, body = split_front_matter(f.read_text(encoding="utf-8"))
        if "{{" in body or "{%" in body:
            try:
                body = env.from_string(body).render()
            except jinja2.TemplateError as e:
                at = getattr(e, "lineno", None) or _template_line(e)
                line = f" line {at + head.count(chr(10))}" if at else ""
                raise ValueError(f"docs/{rel}{line}: {type(e).__name__}: {e}") from None
        out.text(rel, head + spaced_cells(body))
    texts = minify([f for _, f in minified])
    for rel, f in minified:
        out.text(rel, texts[f])


MINIFIED = re.compile(r"assets/(js/[^/]+\.(js|mjs)|css/[^/]+\.css)$")
"""The site's own scripts and stylesheets (docs/assets/js, docs/assets/css): served minified (``minify``)."""


def minify(files: list[Path]) -> dict[Path, str]:
    """Each of ``files`` (.js, .mjs, .css) minified by esbuild (tools/minify.mjs): the pages' own scripts and
    stylesheets a third to a half smaller (tables.js 19.2 to 10.6 KB, atlas.css 16.9 to 12.6 KB), the sources
    unchanged. Raises ValueError naming the file esbuild could not read or parse; BuildError when Node is missing."""
    if not files:
        return {}
    from ..assets import ROOT, _node
    job = [[str(f), "css" if f.suffix == ".css" else "js"] for f in files]
    r = subprocess.run([_node(), str(ROOT / "tools" / "minify.mjs")], input=json.dumps(job), capture_output=True,
                       text=True, timeout=120, cwd=ROOT)
    if r.returncode != 0:
        raise ValueError(f"tools/minify.mjs: {r.stderr.strip()[-2000:] or f'exit status {r.returncode}'}")
    out = json.loads(r.stdout)
    return {f: out[str(f)] for f in files}


def generated(renderer, out: Writer) -> list[str]:
    """The product, scenario, rules and service pages into ``out``; returns their nav lines."""
    a = renderer.atlas
    nav = ["* [Home](index.md)", "* Products"]
    for doc in a.docs():
        src = a.source(doc)
        out.text(f"products/{doc}/index.md",
                 f'---\ntitle: {front(src["short_name"] + " benchmarks")}\n---\n{spaced_cells(GENERATED["product"](renderer, doc))}\n')
        nav.append(f"    * [{src['short_name']}](products/{doc}/index.md)")
        if a.extras.get(doc, {}).get("guidance"):
            out.text(f"products/{doc}/guidance.md",
                     f'---\ntitle: {front(src["short_name"] + " infrastructure rules")}\n---\n{spaced_cells(GENERATED["guidance"](renderer, doc))}\n')
            nav.append(f"        * [Infrastructure rules](products/{doc}/guidance.md)")
        for s in a.scenarios:
            if s["doc"] != doc:
                continue
            out.text(f"products/{doc}/{s['id']}.md",
                     f'---\ntitle: {front(src["short_name"] + " " + s["section"])}\ncharts: true\n---\n'
                     f'{spaced_cells(GENERATED["scenario"](renderer, s["id"]))}\n')
            label = md_esc(s.get("short_title") or s["title"])  # data is text: no HTML or Markdown from it in the nav
            nav.append(f"        * [{s['section']} {label}](products/{doc}/{s['id']}.md)")
    out.text("services/index.md", f'---\ntitle: "Services"\nhide:\n- toc\n---\n{GENERATED["services"](renderer)}\n')
    for g in services.groups_of(renderer):
        out.text(f"services/{g['slug']}.md", f'{services.front_matter(g)}{GENERATED["service"](renderer, g["slug"])}\n')
    nav += services.nav(renderer)
    return nav


BUNDLING_FOLDERS = ("assets/py/", "assets/data/")
"""The folders step 2 (atlas.assets.calculators_and_bundles) replaces as a whole, in a thread, while the pages are
written: a file a page writes there is deleted or not depending on which finishes first."""


def write(renderer, docs_dir: Path, src: Path, config_extra: dict) -> Writer:
    """Write the generated and hand-written pages and SUMMARY.md into ``docs_dir`` (see the module
    docstring). Returns the Writer (its ``written`` set), for the later steps to add their files to.
    Raises ValueError for a page whose macros do not render or a page file under BUNDLING_FOLDERS, KeyError for an
    unknown document."""
    out = Writer(docs_dir)
    nav = generated(renderer, out)
    hand_written(renderer, src, out, config_extra)
    for rel, data in sorted(getattr(renderer, "files", {}).items()):  # files the pages made (calculator reports)
        if rel.startswith(BUNDLING_FOLDERS):
            raise ValueError(f"page file {rel}: assets/py/ and assets/data/ belong to the calculator bundle step, which "
                             "replaces them while the pages are written; write it elsewhere (e.g. assets/views/)")
        out.bytes(rel, data)
    nav += static_nav(src)
    out.text("SUMMARY.md", "\n".join(nav) + "\n")
    return out


def remove_stale(docs_dir: Path, keep: set[str]) -> list[str]:
    """Delete files under ``docs_dir`` not in ``keep`` (relative POSIX paths): a page or asset removed from
    docs/ or data/ must not linger in the tree MkDocs renders. Returns the removed paths."""
    removed = []
    for f in sorted(Path(docs_dir).rglob("*")):
        if f.is_file() and f.relative_to(docs_dir).as_posix() not in keep:
            f.unlink()
            removed.append(f.relative_to(docs_dir).as_posix())
    return removed
