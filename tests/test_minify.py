"""The site's own scripts and stylesheets are served minified (atlas.pages.generate.minify, esbuild): smaller than
their sources in docs/, without their comments; a source that does not parse stops the build naming it. That they
still work is what every browser test exercises."""
from __future__ import annotations

import pytest

from atlas.pages.generate import MINIFIED, minify
from conftest import ROOT

SOURCES = sorted(p for p in (ROOT / "docs" / "assets").rglob("*") if MINIFIED.search(p.relative_to(ROOT / "docs").as_posix()))


def test_every_own_script_and_stylesheet_is_served_minified(built_site):
    assert {p.name for p in SOURCES} >= {"calculator.js", "pyworker.mjs", "tables.js", "searchdefer.js", "atlas.css"}
    total = [0, 0]
    for src in SOURCES:
        served = built_site / src.relative_to(ROOT / "docs")
        text, source = served.read_text(encoding="utf-8"), src.read_text(encoding="utf-8")
        assert len(text) < len(source), src.name
        total = [total[0] + len(text), total[1] + len(source)]
        first_comment = source.split("*/", 1)[0].split("\n", 1)[0]  # the file's opening comment line
        assert first_comment.startswith(("/*", "//")) and first_comment not in text, src.name
    assert total[0] < 0.6 * total[1], total  # 134 KB of sources served as 75 KB
    # texts keep their characters (not escaped to \\uXXXX)
    assert "…" in (built_site / "assets" / "js" / "calculator.js").read_text(encoding="utf-8")


def test_a_source_that_does_not_parse_is_named(tmp_path):
    bad = tmp_path / "bad.js"
    bad.write_text("function (", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.js"):
        minify([bad])
    assert minify([]) == {}
