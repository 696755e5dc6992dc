"""The site's pages. Generated pages (one per product, scenario and infrastructure-rules set) and the
hand-written pages of docs/ are written by ``atlas.pages.generate`` into the docs tree MkDocs renders.

``MACROS`` is the one declaration of what a hand-written page may call (``{{ footprint_calculator() }}``):
each name with the module function that renders it, called with the build's Renderer first. A page that
calls a name not listed here, or misspells one, stops the build (Jinja's StrictUndefined), instead of
being left as text.
"""
from __future__ import annotations

from typing import Callable

from calculators import footprint as _fp

from . import (accuracy, calc_asm, calc_deployment, calc_dsr, calc_footprint, calc_overtarget, calc_query, calc_shcm, compare,
               data, home, mesh, products, ranking, services)


def _ceilings(renderer) -> str:
    """The footprint's default normal and failover CPU ceilings, "40 and 80" (calculators.footprint)."""
    return f"{_fp.DEFAULT_NORMAL_CEILING} and {_fp.DEFAULT_FAILOVER_CEILING}"


MACROS: dict[str, Callable[..., str]] = {
    # page name in docs/ -> function(renderer, *args) returning Markdown/HTML
    "home_page": home.products_table,                  # docs/index.md
    "home_chart": home.home_chart,                     # docs/index.md
    "footprint_calculator": calc_footprint.page,       # docs/calculators/footprint.md
    "fp_ceilings": _ceilings,                          # docs/calculators/footprint.md (method text)
    "asm_calculator": calc_asm.page,                   # docs/calculators/asm.md
    "asm_example_observed": calc_asm.example_observed, # docs/calculators/asm.md (observed use example)
    "asm_example_compare": calc_asm.example_compare,   # docs/calculators/asm.md (like-for-like example)
    "overtarget_calculator": calc_overtarget.page,     # docs/calculators/over-target.md
    "dsr_calculator": calc_dsr.page,                   # docs/calculators/dsr.md
    "dsr_example": calc_dsr.example,                   # docs/calculators/dsr.md (worked example)
    "dsr_site_example": calc_dsr.site_example,         # docs/calculators/dsr.md (site-limit example)
    "deployment_calculator": calc_deployment.page,     # docs/calculators/deployment.md
    "shcm_calculator": calc_shcm.page,                 # docs/calculators/shcm.md
    "shcm_cpu_reading": calc_shcm.cpu_reading,         # docs/calculators/shcm.md (method step 3)
    "shcm_extrapolation": calc_shcm.extrapolation,     # docs/calculators/shcm.md (limits)
    "shcm_latency": calc_shcm.latency_limit,           # docs/calculators/shcm.md (limits)
    "backtest_page": accuracy.backtest_page,           # docs/calculators/accuracy.md
    "backtest_comparisons": accuracy.comparisons_page, # docs/calculators/accuracy-comparisons.md
    "compare_page": compare.compare_page,              # docs/tools/compare.md
    "ranking_page": ranking.ranking_page,              # docs/tools/ranking.md (services by CPU per 1K of load, every run)
    "mesh_page": mesh.mesh_page,                       # docs/tools/mesh.md (sidecar share of CPU, every ASM run)
    "datasets_page": data.datasets_page,               # docs/data/datasets.md
    "query_calculator": calc_query.page,               # docs/data/query.md (SQL on the SQLite database, in the browser)
    "query_database": calc_query.database_note,        # docs/data/query.md (the database it reads)
    "data_dictionary": data.dictionary_page,           # docs/data/dictionary.md
    "errata_page": data.errata_page,                   # docs/data/errata.md
    "coverage_page": data.coverage_page,               # docs/data/coverage.md
}

GENERATED: dict[str, Callable[..., str]] = {
    # generated page kind -> function(renderer, id) returning its body
    "product": lambda renderer, doc: renderer.product_page(doc),
    "scenario": lambda renderer, sid: renderer.scenario_page(sid),
    "guidance": products.guidance_page,
    "service": services.service_page,       # services/<slug>.md, one per canonical service (services.groups)
    "services": lambda renderer, _=None: services.index_page(renderer),  # services/index.md
}
