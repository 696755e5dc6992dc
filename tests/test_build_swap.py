"""A build never leaves half a site: `python -m atlas build` writes into a temporary folder beside the
output and moves it into place only when every step succeeded. A failing step is named, and the
previous good site stays exactly as it was."""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, build_site


def _digest(folder: Path) -> dict[str, str]:
    return {f.relative_to(folder).as_posix(): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(folder.rglob("*")) if f.is_file()}


def _node_modules_without(tmp: Path, drop: str) -> Path:
    """A node_modules of links to the real packages, less the package ``drop``."""
    nm = tmp / "node_modules"
    nm.mkdir()
    for p in (ROOT / "node_modules").iterdir():
        if p.name != drop:
            (nm / p.name).symlink_to(p.resolve())
    return nm


def _node_modules_with_broken_pyodide(tmp: Path) -> Path:
    """Every package linked, but pyodide/pyodide.mjs throws when the bytecode compile imports it."""
    nm = _node_modules_without(tmp, "pyodide")
    (nm / "pyodide").mkdir()
    for p in (ROOT / "node_modules" / "pyodide").iterdir():
        (nm / "pyodide" / p.name).symlink_to(p.resolve())
    (nm / "pyodide" / "pyodide.mjs").unlink()
    (nm / "pyodide" / "pyodide.mjs").write_text('throw new Error("pyodide.mjs broken for the test");\n')
    return nm


@pytest.mark.parametrize("breakage, step, detail", [
    (lambda t: _node_modules_without(t, "vega-embed"), "browser assets",
     "vega-embed/build/vega-embed.min.js"),
    (_node_modules_with_broken_pyodide, "calculator bundle and code packs", "pyodide.mjs broken for the test"),
], ids=["package-missing", "bytecode-compile-fails"])
def test_failed_step_is_named_and_the_previous_site_stays(tmp_path, built_site, breakage, step, detail):
    out = tmp_path / "site"
    shutil.copytree(built_site, out)
    (out / "stale-from-the-previous-build.txt").write_text("kept\n")
    before = _digest(out)
    nm = breakage(tmp_path)
    env = dict(os.environ, ATLAS_NODE_MODULES=str(nm))
    r = build_site(out, env=env)
    text = r.stdout + r.stderr
    assert r.returncode != 0
    assert f"Build step '{step}' failed" in text and detail in text, text[-3000:]
    assert f"the previous site in {out.resolve()} is unchanged" in text
    assert "Traceback" not in text
    assert _digest(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.docs", "node_modules", "site"]  # no temporary folder left


def test_swap_into_place_replaces_the_whole_site(tmp_path):
    from atlas.pipeline import swap_into_place
    final, new = tmp_path / "site", tmp_path / ".site.building"
    (final / "assets").mkdir(parents=True)
    (final / "index.html").write_text("old")
    (final / "assets" / "gone.js").write_text("old")
    (new / "assets").mkdir(parents=True)
    (new / "index.html").write_text("new")
    swap_into_place(new, final)
    assert _digest(final) == {"index.html": hashlib.sha256(b"new").hexdigest()}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    # a first build: nothing to replace
    new.mkdir()
    (new / "index.html").write_text("first")
    shutil.rmtree(final)
    swap_into_place(new, final)
    assert (final / "index.html").read_text() == "first"
