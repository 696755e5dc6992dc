"""The build's named steps and its declared extension points (atlas/pipeline.py, atlas/pages/__init__.py,
atlas/bundle.py): a misspelt macro or an undeclared bundle key stops the build instead of being ignored, a
failing step is named, and the docs tree holds only what the steps wrote."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT


def test_the_steps_run_in_the_documented_order():
    r = subprocess.run([sys.executable, "-m", "atlas", "steps"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert r.stdout.split("\n")[:12] == ["1. validate data", "2. calculator bundle and code packs", "3. downloads",
                                         "4. generate pages", "5. page data", "6. browser assets", "7. render (MkDocs)",
                                         "8. static charts", "9. collapse whitespace", "10. trim stylesheets",
                                         "11. service worker", "12. compress"]


def test_the_downloads_step_runs_before_the_pages_that_list_it(tmp_path, monkeypatch):
    """The downloads step's output goes forward to the pages: a download that cannot be built is reported as the
    'downloads' step's failure, and no page is generated before it."""
    from atlas import downloads, pipeline
    from atlas.pages import generate

    def broken(*a, **k):
        raise KeyError("call_mix_raw")
    monkeypatch.setattr(downloads, "build", broken)
    monkeypatch.setattr(generate, "write", lambda *a, **k: pytest.fail("pages generated before the downloads"))
    with pytest.raises(pipeline.StepFailed, match=r"Build step 'downloads' failed: .*call_mix_raw"):
        pipeline.prepare(tmp_path / "docs")


def test_the_pages_read_the_downloads_they_never_build_them(atlas):
    from atlas import downloads
    from atlas.pages.products import Renderer
    with pytest.raises(RuntimeError, match="downloads step's output"):
        downloads.built(Renderer(atlas))


def test_a_misspelt_macro_in_a_hand_written_page_stops_the_build_naming_the_page(tmp_path):
    from atlas.pages import generate
    src = tmp_path / "docs"
    (src / "tools").mkdir(parents=True)
    (src / "tools" / "ok.md").write_text("---\ntitle: Fine\n---\nNo macro here: {{ '{' }} is not one.\n")
    (src / "tools" / "bad.md").write_text("# Bad\n\nText.\n\n{{ footprint_calculater() }}\n")
    with pytest.raises(ValueError, match=r"docs/tools/bad\.md line 5: UndefinedError: 'footprint_calculater' is undefined"):
        generate.hand_written(None, src, generate.Writer(tmp_path / "out"), {})


def test_hand_written_pages_expand_declared_macros_and_keep_their_front_matter(tmp_path):
    from atlas.pages import MACROS, generate
    src = tmp_path / "docs"
    src.mkdir()
    (src / "page.md").write_text('---\ntitle: "{{ not a macro in front matter }}"\n---\nCeilings {{ fp_ceilings() }} %; '
                                 'CSP {{ config.extra.csp | join("; ") }}.\n')
    (src / "logo.svg").write_bytes(b"<svg/>")
    out = generate.Writer(tmp_path / "out")
    generate.hand_written(None, src, out, {"csp": ["default-src 'self'", "img-src 'self'"]})
    text = (tmp_path / "out" / "page.md").read_text()
    # calculators.footprint DEFAULT_NORMAL_CEILING / DEFAULT_FAILOVER_CEILING: 40 and 80
    assert text == ('---\ntitle: "{{ not a macro in front matter }}"\n---\nCeilings 40 and 80 %; '
                    "CSP default-src 'self'; img-src 'self'.")
    assert (tmp_path / "out" / "logo.svg").read_bytes() == b"<svg/>"
    assert out.written == {"page.md", "logo.svg"}
    assert "fp_ceilings" in MACROS


def test_every_page_macro_called_in_docs_is_declared():
    """Every {{ name(...) }} in docs/ is a MACROS entry, and every MACROS entry is used by some page."""
    import re
    from atlas.pages import MACROS
    used = set()
    for md in (ROOT / "docs").rglob("*.md"):
        used |= set(re.findall(r"\{\{\s*([a-z_]+)\(", md.read_text(encoding="utf-8")))
    assert used == set(MACROS)


def test_every_bundle_key_a_calculator_reads_has_one_declared_builder():
    from atlas import bundle
    from calculators import catalogue
    declared = bundle.keys()
    assert len(declared) == len(set(declared))
    for name, (_, keys) in catalogue.CATALOGUE.items():
        assert set(keys) <= set(declared), (name, set(keys) - set(declared))


def test_a_builder_returning_undeclared_keys_stops_the_bundle(atlas, monkeypatch):
    from atlas import bundle
    monkeypatch.setattr(bundle, "BUILDERS", ((("dsr_runs", "dsr_notes"), lambda a: {"dsr_runs": [], "dsr_note": {}}),))
    monkeypatch.setattr(bundle, "DERIVED", ())
    with pytest.raises(ValueError, match=r"returned keys \['dsr_note', 'dsr_runs'\], declared \['dsr_runs', 'dsr_notes'\]"):
        bundle.build(atlas)


def test_a_failing_step_is_named_and_unknown_steps_are_refused():
    from atlas import pipeline
    with pytest.raises(pipeline.StepFailed, match=r"^Build step 'downloads' failed: OSError: disk full$"):
        with pipeline.step("downloads"):
            raise OSError("disk full")
    with pytest.raises(ValueError, match="unknown build step 'download'"):
        with pipeline.step("download"):
            pass


def test_prepare_removes_what_no_step_wrote(tmp_path):
    """A page deleted from docs/ (or a scenario from data/) must not linger in the tree MkDocs renders."""
    from atlas import pipeline
    tree = tmp_path / "tree"
    (tree / "tools").mkdir(parents=True)
    (tree / "tools" / "deleted-page.md").write_text("# Gone\n")
    p = pipeline.prepare(tree)
    assert not (tree / "tools" / "deleted-page.md").exists()
    assert (tree / "products" / "bsf" / "bsf-3-3.md").exists() and (tree / "SUMMARY.md").exists()
    assert {"validate data", "calculator bundle and code packs", "downloads", "generate pages", "page data", "browser assets"} == set(p.seconds)
    on_disk = {f.relative_to(tree).as_posix() for f in tree.rglob("*") if f.is_file()}
    assert on_disk == p.files


def test_method_page_examples_are_computed_from_the_guides(atlas):
    """The worked examples the method pages compute at build time, against hand arithmetic on the guides' rows."""
    from atlas.pages import calc_asm, calc_dsr, calc_shcm
    from atlas.pages.products import Renderer
    r = Renderer(atlas)
    dsr = calc_dsr.example(r)
    # DSR Table 3-1 row 1: 288K MPS on 16 DA-MPs at 19 % CPU peak, profile 30K_MPS. 288,000 / 16 = 18,000;
    # 18,000 x 40 / 19 = 37,894.7; capped at 30,000: ceil(240,000 / 30,000) = 8; unscaled ceil(240,000 / 18,000) = 14
    assert "(Table 3-1, row 1: 288,000 MPS on 16 DA-MPs = 18,000 MPS per DA-MP at 19 % CPU)" in dsr
    assert "18,000 x 40 / 19 = 37,895 MPS" in dsr and "capped at 30,000: 8 DA-MPs" in dsr and "gives 14 and is the headline" in dsr
    # BSF 3.2 Tables 3-18 and 3-19, Site1: sidecars 32.765 of 100.04 cores = 32.75 %; 32.765 / 54 = 0.61 per 1K TPS
    assert "the sidecars used 32.765 of 100.04 cores: 32.75 %" in calc_asm.example_observed(r)
    assert "0.61 cores per 1K TPS" in calc_asm.example_observed(r)
    # 8.70 - 11.41 = -2.71 cores per 1K: ASM would read as cheaper, but the call models differ
    assert "ASM costing 2.71 cores per 1K *less*; the call models differ" in calc_asm.example_compare(r)
    # ShCM T-rhino-performance: JVM CPU 280 % to 380 % on 8 vCPUs (280 / 8 = 35 %, 380 / 8 = 47.5 %); test 3 p50 156 ms
    assert "(280 % to 380 %)" in calc_shcm.cpu_reading(r) and "= 2.8 cores = 35 % of the node's 8 vCPUs" in calc_shcm.cpu_reading(r)
    assert "35-47.5 % of the node" in calc_shcm.extrapolation(r)
    assert "(test 3: p50 156 ms, max 3,889 ms) at only 330 % CPU" in calc_shcm.latency_limit(r)


def test_a_page_file_in_the_bundle_steps_folders_is_refused(tmp_path, monkeypatch):
    """Step 2 replaces assets/py/ and assets/data/ in a thread while the pages are written, so a page's file there
    survived a cold build and vanished from a warm one (the ranking page's rows did): generate.write refuses it,
    naming the file, and writes one elsewhere."""
    from types import SimpleNamespace

    from atlas.pages import generate
    monkeypatch.setattr(generate, "generated", lambda renderer, out: [])
    monkeypatch.setattr(generate, "hand_written", lambda renderer, src, out, extra: None)
    monkeypatch.setattr(generate, "static_nav", lambda src: [])
    with pytest.raises(ValueError, match="assets/data/rows.json"):
        generate.write(SimpleNamespace(files={"assets/data/rows.json": b"[]"}), tmp_path, tmp_path, {})
    generate.write(SimpleNamespace(files={"assets/views/rows.json": b"[]"}), tmp_path, tmp_path, {})
    assert (tmp_path / "assets" / "views" / "rows.json").read_bytes() == b"[]"
