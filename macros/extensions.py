"""Auto-discovered extension modules: every ``macros/pages_*.py``.

A module may define any of these (all optional):

* ``macros(r) -> dict[str, callable]``: Jinja macros for pages (r is the Renderer);
* ``bundle(atlas) -> dict``: extra keys for the calculator bundle;
* ``table_addon(r, doc, table) -> str``: HTML appended under every rendered table;
* ``post_build(config, r, site_dir)``: write files into the built site.

Discovery keeps features apart: a new page family or calculator adds its own
module instead of editing shared ones.
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def modules() -> tuple:
    return tuple(importlib.import_module(f"macros.{p.stem}") for p in sorted(HERE.glob("pages_*.py")))


def each(name: str):
    """(module, function) for every extension module defining ``name``."""
    for m in modules():
        fn = getattr(m, name, None)
        if fn is not None:
            yield m, fn
