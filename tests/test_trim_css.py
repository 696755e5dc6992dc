"""Build step "trim stylesheets" (atlas/trimcss.py): Material's stylesheets cut to the rules the site's pages and
scripts can use, renamed by content, every page's link rewritten."""
from __future__ import annotations

import re

import pytest

from conftest import ROOT


def _site(tmp_path):
    site = tmp_path / "site"
    (site / "assets" / "stylesheets").mkdir(parents=True)
    (site / "assets" / "js").mkdir(parents=True)
    (site / "deep" / "page").mkdir(parents=True)
    css = (".md-used{color:red}.md-made-by-script{color:blue}.md-nowhere{color:green}"
           ".md-tag--anything{color:gray}th[role=columnheader]{cursor:pointer}\n/*# sourceMappingURL=main.0123abcd.min.css.map*/")
    (site / "assets" / "stylesheets" / "main.0123abcd.min.css").write_text(css)
    (site / "assets" / "stylesheets" / "main.0123abcd.min.css.map").write_text("{}")
    (site / "assets" / "stylesheets" / "palette.89abcdef.min.css").write_text("[data-md-color-primary=indigo]{--x:1}"
                                                                              "[data-md-color-primary=pink]{--x:2}")
    (site / "assets" / "js" / "made.js").write_text('el.className = "md-made-by-script";')
    (site / "assets" / "vendor" / "tablesort").mkdir(parents=True)
    (site / "assets" / "vendor" / "tablesort" / "tablesort.min.js").write_text('th.setAttribute("role","columnheader")')
    page = ('<html><head><link rel="stylesheet" href="{up}assets/stylesheets/main.0123abcd.min.css">'
            '<link rel="stylesheet" href="{up}assets/stylesheets/palette.89abcdef.min.css"></head>'
            '<body data-md-color-primary="indigo"><p class="md-used">x</p><table><tr><th>h</th></tr></table></body></html>')
    (site / "index.html").write_text(page.format(up=""))
    (site / "deep" / "page" / "index.html").write_text(page.format(up="../../"))
    return site


def test_rules_are_kept_when_a_page_or_a_script_names_them_and_pages_link_the_trimmed_file(tmp_path):
    from atlas import trimcss
    site = _site(tmp_path)
    report = trimcss.trim(site)
    new = report["assets/stylesheets/main.0123abcd.min.css"]["path"]
    assert re.fullmatch(r"assets/stylesheets/main\.0123abcd\.[0-9a-f]{10}\.min\.css", new)
    css = (site / new).read_text()
    assert ".md-used" in css and ".md-made-by-script" in css  # named by a page; by a script (markup made at run time)
    assert ".md-tag--anything" in css  # Material joins md-tag--<name> in its bundle: kept by the safelist
    assert "th[role=columnheader]" in css  # set by tablesort at run time: its script is content
    assert ".md-nowhere" not in css and "sourceMappingURL" not in css
    palette = (site / report["assets/stylesheets/palette.89abcdef.min.css"]["path"]).read_text()
    assert "indigo" in palette and "pink" not in palette
    assert report["assets/stylesheets/main.0123abcd.min.css"]["rules_removed"] == 1
    # Material's files and the map of the untrimmed one are gone; both pages link the new files at their depth
    assert sorted(p.name for p in (site / "assets" / "stylesheets").iterdir()) == sorted(
        [new.rsplit("/", 1)[1], report["assets/stylesheets/palette.89abcdef.min.css"]["path"].rsplit("/", 1)[1]])
    assert f'href="{new}"' in (site / "index.html").read_text()
    assert f'href="../../{new}"' in (site / "deep" / "page" / "index.html").read_text()


def test_no_stylesheet_to_trim_is_an_error_naming_the_folder(tmp_path):
    from atlas import trimcss
    from atlas.assets import BuildError
    (tmp_path / "assets" / "stylesheets").mkdir(parents=True)
    with pytest.raises(BuildError, match=r"no Material stylesheet \(main\.<hash>\.min\.css\) in .*assets/stylesheets"):
        trimcss.trim(tmp_path)


def test_built_pages_link_only_the_trimmed_stylesheets_which_keep_the_rules_of_runtime_markup(built_site):
    sheets = sorted(p.name for p in (built_site / "assets" / "stylesheets").glob("*.min.css"))
    assert len(sheets) == 2 and all(re.fullmatch(r"(main|palette)\.[0-9a-f]{8}\.[0-9a-f]{10}\.min\.css", s) for s in sheets), sheets
    main = next(built_site / "assets" / "stylesheets" / s for s in sheets if s.startswith("main."))
    css = main.read_text(encoding="utf-8")
    material = next((ROOT / ".venv").glob("lib/python*/site-packages/material/templates/assets/stylesheets/main.*.min.css"))
    assert main.name.startswith(material.name[: -len(".min.css")] + ".")  # Material's name (and version hash) kept in front
    assert len(css) < 0.7 * material.stat().st_size  # measured 86.5 KB of 137.6 KB
    # markup Material's bundle and tablesort make at run time keeps its styles
    for selector in (".md-search-result__item", ".md-tooltip", "th[role=columnheader]", ".md-typeset table:not([class])"):
        assert selector in css, selector
    pages = list(built_site.rglob("*.html"))
    assert len(pages) > 200
    for page in pages:
        linked = set(re.findall(r'stylesheets/((?:main|palette)\.[0-9a-f.]+\.min\.css)', page.read_text(encoding="utf-8")))
        assert linked == set(sheets), (page, linked)
