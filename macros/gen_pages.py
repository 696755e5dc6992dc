"""mkdocs-gen-files script: one page per product and per scenario, and the nav.

The pages hold macro calls only; macros/render.py fills them from data/.
"""
import sys
from pathlib import Path

import mkdocs_gen_files
import yaml

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from macros import state  # noqa: E402

SECTIONS = {"calculators": "Calculators", "data": "Data", "tools": "Tools", "about": "About"}


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


r = state.renderer()
a = r.a
nav = ["* [Home](index.md)", "* Products"]
for doc in a.docs():
    src = a.source(doc)
    with mkdocs_gen_files.open(f"products/{doc}/index.md", "w") as f:
        f.write(f'---\ntitle: "{src["short_name"]} benchmarks"\n---\n{{{{ product_page("{doc}") }}}}\n')
    nav.append(f"    * [{src['short_name']}](products/{doc}/index.md)")
    if a.extras.get(doc, {}).get("guidance"):
        with mkdocs_gen_files.open(f"products/{doc}/guidance.md", "w") as f:
            f.write(f'---\ntitle: "{src["short_name"]} infrastructure rules"\n---\n{{{{ guidance_page("{doc}") }}}}\n')
        nav.append(f"        * [Infrastructure rules](products/{doc}/guidance.md)")
    for s in a.scenarios:
        if s["doc"] != doc:
            continue
        with mkdocs_gen_files.open(f"products/{doc}/{s['id']}.md", "w") as f:
            f.write(f'---\ntitle: "{src["short_name"]} {s["section"]}"\ncharts: true\n---\n{{{{ scenario_page("{s["id"]}") }}}}\n')
        from macros.render import md_esc  # data is text: no HTML, Markdown or Jinja from it in the nav
        label = md_esc(s.get("short_title") or s["title"]).replace("\\{", "&#123;").replace("\\}", "&#125;")  # mkdocs-macros renders {{ }} in nav titles
        nav.append(f"        * [{s['section']} {label}](products/{doc}/{s['id']}.md)")
nav += static_nav(ROOT / "docs")
with mkdocs_gen_files.open("SUMMARY.md", "w") as f:
    f.write("\n".join(nav) + "\n")
