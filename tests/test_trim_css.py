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
    css = (":root{--md-kept:1px;--md-unused:2px;--md-for-site-css:3px;--md-hue:4deg;--md-named:5px}"
           ".md-used{color:var(--x);margin:var(--md-kept)}"
           ".md-made-by-script{color:blue}.md-nowhere{color:green}"
           ".md-tag--anything{color:gray}th[role=columnheader]{cursor:pointer}\n/*# sourceMappingURL=main.0123abcd.min.css.map*/")
    (site / "assets" / "stylesheets" / "main.0123abcd.min.css").write_text(css)
    (site / "assets" / "stylesheets" / "main.0123abcd.min.css.map").write_text("{}")
    (site / "assets" / "stylesheets" / "palette.89abcdef.min.css").write_text("[data-md-color-primary=indigo]{--x:1;"
                                                                              "--y:hsl(var(--md-hue),50%,50%)}"
                                                                              "[data-md-color-primary=pink]{--x:2}")
    (site / "assets" / "js" / "made.js").write_text('el.className = "md-made-by-script"; cssVar("--md-named")')
    (site / "assets" / "css").mkdir(parents=True)
    (site / "assets" / "css" / "site.css").write_text(".site{padding:var(--md-for-site-css)}")
    (site / "assets" / "vendor" / "tablesort").mkdir(parents=True)
    (site / "assets" / "vendor" / "tablesort" / "tablesort.min.js").write_text('th.setAttribute("role","columnheader")')
    page = ('<html><head><link rel="stylesheet" href="{up}assets/stylesheets/main.0123abcd.min.css">'
            '<link rel="stylesheet" href="{up}assets/stylesheets/palette.89abcdef.min.css"></head>'
            '<body data-md-color-primary="indigo"><p class="md-used">x</p><p class="site">y</p><table><tr><th>h</th></tr></table></body></html>')
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
    # a custom property stays where a kept rule of Material's or of the site's own stylesheets uses it, where the
    # palette (read after main) uses it, and where a script names it
    assert "--md-kept:1px" in css and "--md-for-site-css:3px" in css and "--md-unused" not in css
    assert "--md-hue:4deg" in css and "--md-named:5px" in css
    assert (site / "assets" / "css" / "site.css").read_text() == ".site{padding:var(--md-for-site-css)}"  # untouched
    palette = (site / report["assets/stylesheets/palette.89abcdef.min.css"]["path"]).read_text()
    assert "indigo" in palette and "pink" not in palette  # --x: used by main's .md-used (var(--x))
    assert report["assets/stylesheets/main.0123abcd.min.css"]["rules_removed"] == 1
    # Material's files and the map of the untrimmed one are gone; both pages link the new files at their depth
    assert sorted(p.name for p in (site / "assets" / "stylesheets").iterdir()) == sorted(
        [new.rsplit("/", 1)[1], report["assets/stylesheets/palette.89abcdef.min.css"]["path"].rsplit("/", 1)[1]])
    assert f'href="{new}"' in (site / "index.html").read_text()
    assert f'href="../../{new}"' in (site / "deep" / "page" / "index.html").read_text()


def test_a_custom_property_still_used_but_trimmed_away_stops_the_build_naming_it(tmp_path, monkeypatch):
    """Should PurgeCSS drop a property a kept rule still uses (as it did --md-hue, which the dark scheme's colours use,
    before the palette's uses were kept by name), the build stops naming it instead of shipping broken colours."""
    import json
    import subprocess
    from atlas import trimcss
    from atlas.assets import BuildError
    site = _site(tmp_path)
    real = subprocess.run

    def purge_losing_a_property(args, **kw):
        r = real(args, **kw)
        out = json.loads(r.stdout)
        out[0]["css"] = out[0]["css"].replace("--md-kept:1px", "")
        return subprocess.CompletedProcess(r.args, r.returncode, json.dumps(out), r.stderr)
    monkeypatch.setattr(trimcss.subprocess, "run", purge_losing_a_property)
    with pytest.raises(BuildError, match=r"removed custom properties the site uses: --md-kept$"):
        trimcss.trim(site)


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
