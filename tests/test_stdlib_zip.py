"""Python's standard library as the site serves it (atlas.assets.stdlib_zip): npm's python_stdlib.zip repacked with
every member stored, so that the whole zip compresses as one text; the same members, bytes and order, so Python
imports the same modules from it; and the file the pages fetch, the manifest's size and digest, and the memory
snapshot all agree on those bytes."""
from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

from atlas import assets
from tests.conftest import site_manifest

ROOT = Path(__file__).resolve().parent.parent
NPM = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"


def test_the_repacked_zip_holds_npms_members_stored_in_the_same_order():
    ours = zipfile.ZipFile(io.BytesIO(assets.stdlib_zip()))
    theirs = zipfile.ZipFile(NPM)
    a, b = ours.infolist(), theirs.infolist()
    assert [i.filename for i in a] == [i.filename for i in b]
    assert len(a) > 500  # Pyodide 314.0.7's zip has 614 members
    assert {i.compress_type for i in a} == {zipfile.ZIP_STORED}
    assert sum(i.compress_type == zipfile.ZIP_DEFLATED for i in b) > 500  # what the repacking is for
    for x, y in zip(a, b):
        assert (x.date_time, x.external_attr, x.CRC, x.file_size) == (y.date_time, y.external_attr, y.CRC, y.file_size), x.filename
        assert ours.read(x) == theirs.read(y), x.filename
    assert ours.testzip() is None
    # by the zip format: each member's bytes, its local header (30 bytes) and central directory entry (46), each with
    # its name, and the 22-byte end record; nothing else (no extra fields, no comment)
    assert len(assets.stdlib_zip()) == sum(i.file_size + 76 + 2 * len(i.filename.encode()) for i in b) + 22


def test_the_repacked_zip_is_the_same_bytes_on_every_build():
    first = assets.stdlib_zip()
    assets._STDLIB_CACHE.clear()  # made again from npm's zip, not taken from the cache
    assert assets.stdlib_zip() == first


def test_a_missing_npm_zip_is_named(tmp_path, monkeypatch):
    import pytest
    monkeypatch.setenv("ATLAS_NODE_MODULES", str(tmp_path))
    assets._STDLIB_CACHE.clear()
    with pytest.raises(assets.BuildError, match=r"python_stdlib\.zip is missing \(run `npm ci`\)"):
        assets.stdlib_zip()
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "python_stdlib.zip").write_bytes(b"not a zip")
    with pytest.raises(assets.BuildError, match=r"could not be read as a zip"):
        assets.stdlib_zip()
    monkeypatch.delenv("ATLAS_NODE_MODULES")
    assets._STDLIB_CACHE.clear()


def test_zipimport_reads_a_module_from_the_repacked_zip(tmp_path):
    import zipimport
    z = tmp_path / "python314.zip"
    z.write_bytes(assets.stdlib_zip())
    source = zipimport.zipimporter(str(z)).get_source("colorsys")
    assert source == zipfile.ZipFile(NPM).read("colorsys.py").decode("utf-8")


def test_the_site_serves_the_repacked_zip_and_the_manifest_names_its_bytes(built_site):
    served = (built_site / "assets" / "vendor" / "pyodide" / "python_stdlib.zip").read_bytes()
    assert served == assets.stdlib_zip()
    assert served != NPM.read_bytes()
    manifest = site_manifest(built_site)
    assert manifest["core"]["python_stdlib.zip"] == len(served)
    assert manifest["digests"]["assets/vendor/pyodide/python_stdlib.zip"] == {
        "bytes": len(served), "sha256": hashlib.sha256(served).hexdigest()}


def test_the_snapshot_is_made_with_the_zip_the_site_serves(monkeypatch, tmp_path):
    """make_snapshot hands tools/make_snapshot.mjs the repacked zip (Python's zip importer keeps its offsets in the
    heap the snapshot restores), and a snapshot of another zip is another cache entry."""
    import subprocess

    seen = {}

    def fake_run(cmd, input=None, **kw):
        job = json.loads(input)
        seen["stdlib"] = Path(job["stdlib"]).read_bytes()
        Path(cmd[-1]).write_bytes(b"snapshot bytes")
        return subprocess.CompletedProcess(cmd, 0, stdout=json.dumps({"bytes": 14, "build_id": "ab"}), stderr="")
    monkeypatch.setattr(assets.subprocess, "run", fake_run)
    monkeypatch.setattr(assets, "SNAPSHOT_CACHE", tmp_path / "cache")
    f = tmp_path / "a.py"
    f.write_text("x = 1\n")
    assert assets.make_snapshot(["lib"], [("calculators/a.py", f)], {}) == (b"snapshot bytes", "ab")
    assert seen["stdlib"] == assets.stdlib_zip()
    first = sorted(p.name for p in (tmp_path / "cache").iterdir())
    assets._STDLIB_CACHE["bytes"] = assets.stdlib_zip() + b"\0"  # another standard library: made again
    try:
        seen.clear()
        assets.make_snapshot(["lib"], [("calculators/a.py", f)], {})
        assert seen["stdlib"].endswith(b"\0")
        assert len(list((tmp_path / "cache").glob("*.json"))) == len([n for n in first if n.endswith(".json")]) + 1
    finally:
        assets._STDLIB_CACHE.clear()


RESTORE = """import fs from "node:fs"; import path from "node:path"; import { pathToFileURL } from "node:url";
const [dir, snapFile, zipFile] = JSON.parse(fs.readFileSync(0, "utf8"));
const { loadPyodide } = await import(pathToFileURL(dir + "pyodide.mjs").href);
const { default: createModule } = await import(pathToFileURL(dir + "pyodide.asm.mjs").href);
const snap = new Uint8Array(fs.readFileSync(snapFile));
const heap = snap.length - new DataView(snap.buffer, snap.byteOffset, 8).getUint32(4, true);
// as the worker does (pyworker.mjs fromSnapshot): the memory grown to the snapshot's heap before it is restored
const createPyodideModule = (settings) => {
  settings.preRun.push((Module) => { if (Module.HEAP8.length < heap) Module.growMemory(heap); });
  return createModule(settings);
};
const py = await loadPyodide({ indexURL: dir, _loadSnapshot: snap, stdLibURL: zipFile, createPyodideModule,
                               stdout: () => {}, stderr: () => {} });
process.stdout.write(py.runPython(`import sys
names = ("xml.dom.minidom", "difflib", "decimal")
before = [m for m in names if m in sys.modules]
import xml.dom.minidom, difflib, decimal
repr((before, difflib.SequenceMatcher(None, "abcd", "bcde").ratio()))`));
"""


def test_the_sites_snapshot_imports_new_modules_from_the_zip_the_site_serves(built_site):
    """Booted from the built memory snapshot with the standard library the site serves, as a reader's browser does,
    Python imports modules the snapshot had not imported (xml.dom.minidom, difflib, decimal: the zip importer reads
    them at the offsets it indexed while the snapshot was made; with npm's zip there the import fails with 'bad
    local file header'). SequenceMatcher("abcd", "bcde").ratio() = 2 * 3 matched / 8 characters = 0.75."""
    import subprocess
    manifest = site_manifest(built_site)
    job = [str(ROOT / "node_modules" / "pyodide") + "/", str(built_site / "assets" / "py" / manifest["snapshot"]["file"]),
           str(built_site / "assets" / "vendor" / "pyodide" / "python_stdlib.zip")]
    r = subprocess.run(["node", "--input-type=module", "-e", RESTORE], input=json.dumps(job), capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout == "([], 0.75)"
