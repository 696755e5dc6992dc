"""Guides: each vendor guide declares itself once, in one module.

A guide is its data (``data/<doc>/`` and its entry in ``data/sources.yaml``, written by ``curation/<doc>.py`` from its
seed) and, when it needs code of its own, one module ``atlas/guides/<doc>.py``. The module is found by its name, the
way ``curation/__main__.py`` finds each guide's ``curate()``: ``atlas.guides.<doc>`` for every document id, from this
folder or from the folders the environment variable ``ATLAS_GUIDES`` names (separated by ``os.pathsep``: a guide
kept outside this repository, or a test's). A guide that needs nothing of its own has no module: the defaults below
serve it (NEF's guide has none).

The interface (learned from Datasette's ``hookspecs.py``: each extension point declared once, here, with what it
receives and returns; the defaults are the behaviour of a guide that declares nothing). A guide module defines any
of these names; the document id is the module's name, so a guide's code names no other document:

``BUNDLE_KEYS`` and ``bundle(atlas, doc) -> dict``
    The keys this guide adds to the calculator bundle (its own metrics, e.g. DSR's runs) and the function that builds
    exactly those keys from the validated data (``atlas.bundle.BUILDERS`` runs it; other keys stop the build). Default:
    none.
``CALCULATOR``
    The name of the calculator (``calculators.catalogue.CATALOGUE``) that sizes this guide's runs from its own metrics.
    That calculator's module carries the guide's backtest rule (``backtest_points(bundle, excluded)``, which
    ``calculators.backtest`` runs for the documents whose bundle source names the calculator). Default: None (the
    footprint calculator sizes the guide's runs from their resource tables, and the backtest compares pods).
``scenarios_table(renderer, doc) -> str``
    The product page's scenarios table of a guide measured by its own metrics (MPS, SPS...) rather than Kubernetes
    requests. Default: None (the resource-request table, ``Renderer.scenarios_table``).
``calculator_button(renderer, sid) -> str``
    The scenario page's link to this guide's calculator with run ``sid`` preselected ('' when it cannot be sized).
    Default: ''.
``EXAMPLES``
    The site's worked examples and defaults this guide provides, by name (``EXAMPLE_NAMES`` says what each is); the
    first guide in ``data/sources.yaml`` order that provides a name gives it. They go into the bundle (key
    ``examples``) for the calculators' defaults.

A guide module may use ``figure`` (a printed metric with its table and row), ``missing`` (a figure the guide does not
print) and ``calculator_url`` (its calculator's page with a run preselected), from this package.

A guide module's own constants start with an underscore, so that a misspelt hook (``EXAMPLE``) is caught: ``module``
raises GuideError for a public upper-case name that is no hook, ``bundle`` without ``BUNDLE_KEYS`` or the reverse,
and an example name that ``EXAMPLE_NAMES`` does not declare.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
from types import ModuleType

from ._own_metrics import calculator_url, figure, missing  # noqa: F401 - the cells a guide's own tables use

EXAMPLE_NAMES = {
    "footprint": "the footprint calculator's default request: a call model ('<doc>:<call model>'), sized at the load "
                 "of its largest run on one site",
    "footprint_worked": "the footprint page's worked example (the form's parameters)",
    "asm": "the ASM calculator's default ASM-on run ({'on': scenario id}) and the method page's pair "
           "({'on', 'off'})",
    "compare": "the compare page's default pair of scenarios (two scenario ids)",
    "sql": "the datasets page's example query over the SQLite download (SQL text)",
}
"""Every example a guide may provide (``EXAMPLES``), with what it is; besides these, a calculator's name
(``calculators.catalogue.CATALOGUE``) gives that calculator's default run and its method page's worked example
(``{'scenario', ...}``: the calculator's page module says which parameters it reads)."""

HOOKS = ("BUNDLE_KEYS", "bundle", "CALCULATOR", "scenarios_table", "calculator_button", "EXAMPLES")
"""The names a guide module may define (this module's docstring says what each is)."""


class GuideError(ValueError):
    """A guide module that does not keep the interface (the message names the module and what is wrong)."""


def _extend_path() -> None:
    extra = [p for p in os.environ.get("ATLAS_GUIDES", "").split(os.pathsep) if p]
    for p in extra:
        if p not in __path__:
            __path__.insert(0, p)


def names() -> list[str]:
    """The document ids that have a guide module (this folder and ``ATLAS_GUIDES``), sorted."""
    _extend_path()
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def module(doc: str) -> ModuleType | None:
    """Guide ``doc``'s module, or None when the guide has no code of its own. Raises GuideError for a module that
    defines a name outside ``HOOKS`` in upper case (a misspelt hook) or an example or macro it may not declare."""
    _extend_path()
    if importlib.util.find_spec(f"{__name__}.{doc}") is None:
        return None
    mod = importlib.import_module(f"{__name__}.{doc}")
    _check(mod)
    return mod


def _check(mod: ModuleType) -> None:
    where = f"guide module {mod.__name__} ({getattr(mod, '__file__', '?')})"
    upper = [n for n in vars(mod) if n.isupper() and not n.startswith("_")]
    odd = [n for n in upper if n not in HOOKS]
    if odd:
        raise GuideError(f"{where}: {', '.join(odd)} is no hook of the guide interface ({', '.join(HOOKS)}); a "
                         "guide's own constants start with an underscore")
    if hasattr(mod, "bundle") != hasattr(mod, "BUNDLE_KEYS"):
        raise GuideError(f"{where}: declares one of bundle() and BUNDLE_KEYS without the other")
    from calculators.catalogue import CATALOGUE
    bad = [k for k in getattr(mod, "EXAMPLES", {}) if k not in EXAMPLE_NAMES and k not in CATALOGUE]
    if bad:
        raise GuideError(f"{where}: example {bad[0]!r} is not one of {', '.join(EXAMPLE_NAMES)} or a calculator's name")


def hook(doc: str, name: str, default=None):
    """Guide ``doc``'s hook ``name`` (one of ``HOOKS``), or ``default`` when it declares none."""
    if name not in HOOKS:
        raise KeyError(f"{name!r} is no hook of the guide interface ({', '.join(HOOKS)})")
    mod = module(doc)
    return getattr(mod, name, default) if mod is not None else default


def bundle_builders() -> list[tuple[tuple[str, ...], object]]:
    """``(keys, build(atlas))`` of every guide module that adds bundle keys, in document-id order
    (``atlas.bundle.BUILDERS`` appends them)."""
    out = []
    for doc in names():
        mod = module(doc)
        if hasattr(mod, "bundle"):
            out.append((tuple(mod.BUNDLE_KEYS), _bound(mod.bundle, doc, tuple(mod.BUNDLE_KEYS))))
    return out


def _bound(fn, doc: str, keys: tuple[str, ...]):
    """``fn(atlas, doc)`` as ``atlas.bundle.BUILDERS`` calls a builder: a dict of several keys as it is, the value of
    a single key alone (after checking that the dict holds exactly that key)."""
    def build(atlas):
        part = fn(atlas, doc)
        if len(keys) == 1:
            if not isinstance(part, dict) or set(part) != set(keys):
                raise ValueError(f"bundle builder {fn.__module__}.{fn.__name__} returned keys "
                                 f"{sorted(part) if isinstance(part, dict) else type(part).__name__}, declared {list(keys)} "
                                 "(its guide module's BUNDLE_KEYS)")
            return part[keys[0]]
        return part
    build.__name__, build.__module__ = fn.__name__, fn.__module__
    return build


def examples(docs: list[str]) -> dict:
    """Every example (``EXAMPLE_NAMES``) the guides of ``docs`` provide, the first guide in ``docs``' order winning:
    ``{name: value}``. A name no guide of ``docs`` provides is absent (the calculators then take their first run)."""
    out: dict = {}
    for doc in docs:
        for k, v in (hook(doc, "EXAMPLES") or {}).items():
            out.setdefault(k, v)
    return out


def example(renderer, name: str, default=None):
    """Example ``name`` of the build's data (``examples`` of its documents), or ``default``."""
    return examples(renderer.atlas.docs()).get(name, default)
