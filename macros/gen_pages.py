"""mkdocs-gen-files script: one page per product and per scenario, and the nav.

The pages hold macro calls only; macros/render.py fills them from data/.
"""
import sys
from pathlib import Path

import mkdocs_gen_files

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from macros import state  # noqa: E402

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
        label = (s.get("short_title") or s["title"]).replace("[", "(").replace("]", ")")
        nav.append(f"        * [{s['section']} {label}](products/{doc}/{s['id']}.md)")
nav += ["* Calculators", "    * [Footprint scaling](calculators/footprint.md)",
        "* About", "    * [Data model and method](about/data.md)"]
with mkdocs_gen_files.open("SUMMARY.md", "w") as f:
    f.write("\n".join(nav) + "\n")
