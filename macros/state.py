"""One validated Atlas and one Renderer per build process.

``data_root()`` is data/ unless the environment variable ATLAS_DATA names
another folder of the same shape (the tests build the site from fixtures).
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from .datastore import DATA, load
from .render import Renderer


def data_root() -> Path:
    return Path(os.environ.get("ATLAS_DATA") or DATA)


@lru_cache(maxsize=2)
def _renderer(root: str) -> Renderer:
    return Renderer(load(root))


def renderer() -> Renderer:
    return _renderer(str(data_root()))


def reset() -> None:
    """Forget the loaded data (mkdocs serve rebuilds after data/ changes)."""
    _renderer.cache_clear()
