"""Search costs nothing until used: the 1.2 MB search index is requested only when the reader starts to search,
and search then works as before (offline, Material's own worker)."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def _index_requests(page) -> list[str]:
    reqs: list[str] = []
    page.on("request", lambda r: reqs.append(r.url) if "search_index" in r.url else None)
    return reqs


def _worker_requests(page) -> list[str]:
    """The search worker's scripts as they are requested: the site's wrapper and Material's worker (39 KB)."""
    reqs: list[str] = []
    page.context.on("request", lambda r: reqs.append(r.url.split("?")[0].rsplit("/", 1)[1])
                    if re.search(r"/assets/(js/searchworker\.js|javascripts/workers/search\.[0-9a-f]+\.min\.js)", r.url) else None)
    return reqs


@pytest.mark.parametrize("path", ["/products/bsf/", "/products/policy/policy-3-1-5/", "/"])
def test_index_waits_for_the_search_box(page, site_url, path):
    reqs, scripts = _index_requests(page), _worker_requests(page)
    page.goto(site_url + path, wait_until="load")
    # Material's bundle has started (it mounts the search box and makes its worker) and asked for the index: held
    # back, and the worker not started
    page.wait_for_function("window.atlasSearch && window.atlasSearch.worker() && document.querySelector('[data-md-component=search-query]')")
    page.wait_for_load_state("networkidle")
    assert reqs == [] and page.evaluate("window.atlasSearch.requested()") is False
    assert scripts == [] and page.evaluate("window.atlasSearch.worker().started()") is False
    page.fill("input[data-md-component=search-query]", "Diameter Gateway")
    page.wait_for_selector(".md-search-result__item", timeout=30000)
    assert len(reqs) == 1 and reqs[0].endswith("/search/search_index.json")
    assert scripts[0] == "searchworker.js" and re.fullmatch(r"search\.[0-9a-f]+\.min\.js", scripts[1]) and len(scripts) == 2, scripts
    assert "Diameter Gateway" in page.inner_text(".md-search-result__list")


def test_slash_shortcut_opens_search_and_loads_the_index(page, site_url):
    reqs = _index_requests(page)
    page.goto(site_url + "/products/bsf/", wait_until="load")
    page.wait_for_function("window.atlasSearch && document.querySelector('[data-md-component=search-query]')")
    page.keyboard.press("/")
    page.keyboard.type("ingress")
    page.wait_for_selector(".md-search-result__item", timeout=30000)
    assert len(reqs) == 1


def test_query_in_the_url_searches_at_once(page, site_url):
    reqs = _index_requests(page)
    page.goto(site_url + "/products/bsf/?q=Diameter", wait_until="load")
    page.wait_for_function("window.atlasSearch && window.atlasSearch.requested()")
    assert len(reqs) == 1
