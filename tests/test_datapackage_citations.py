"""The data package's citations (``atlas.downloads``' datapackage.json): each guide cited as data/sources.yaml
describes it, at the package level and in each resource, in this process without building the site."""
from __future__ import annotations

import json


BSF = {"title": "Oracle Communications Cloud Native Core, Binding Support Function Benchmarking Guide",
       "publisher": "Oracle Communications", "version": "25.2.200", "document_id": "G54602-01", "date": "April 2026",
       "chapter": "whole book"}
"""data/sources.yaml, bsf: every field a citation takes (release as the package's 'version')."""
SHCM = {"title": "Sh Cache Microservice benchmarks", "publisher": "Metaswitch (Rhino platform)",
        "version": "not stated (master/latest.integration builds)", "chapter": "whole book"}
"""data/sources.yaml, shcm: no document id and no date given, so the citation has neither."""


def test_each_guide_cited_with_its_publisher_release_and_identifiers(download_build):
    """The package's sources: the five guides in sources.yaml's order, BSF and ShCM cited field for field; the
    db_operations resource cites BSF alone (only data/bsf has db_operations.csv), the measurements resource the four
    guides with measurements (data/policy, nef, dsr, shcm), in sources.yaml's order; the SQLite file all five."""
    pkg = json.loads(download_build.files["datapackage.json"])
    assert len(pkg["sources"]) == 5 and pkg["sources"][0] == BSF and pkg["sources"][4] == SHCM
    assert [s["publisher"] for s in pkg["sources"]] == ["Oracle Communications"] * 4 + ["Metaswitch (Rhino platform)"]
    res = {r["name"]: r for r in pkg["resources"]}
    assert res["db_operations"]["sources"] == [BSF]
    assert [s["title"] for s in res["measurements"]["sources"]] == [
        'Oracle Communications Cloud Native Core, Converged Policy Benchmarking Guide, chapter 3 "Benchmarking Policy '
        'Call Models"',
        'Oracle Communications Cloud Native Core, Network Exposure Function, chapter 3 "Benchmarking Model B"',
        'Oracle Communications Diameter Signaling Router, chapter 3 "Benchmarking Cloud Deployable DSR"',
        "Sh Cache Microservice benchmarks"]
    assert res["measurements"]["sources"][3] == SHCM
    assert res["sqlite"]["sources"] == pkg["sources"]
