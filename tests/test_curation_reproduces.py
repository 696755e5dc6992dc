"""data/ is exactly what the curation writes from the seeds (CURATING.md, check 4).

Every document of data/sources.yaml is curated again from its seed, in this process, into a
temporary folder (``Curated.write(root)``); data/<doc>/ must hold the same files with the same bytes.
A difference names the file and its first differing line. One test per document, so a failure
names the document. The real data/ is never written: each test checks that no file under data/
changed while its curation ran. Needs the seeds (conftest.seed_path: fails when one is missing).
"""
from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest

from conftest import DOC_IDS, ROOT, seed_path

DATA = ROOT / "data"


def _files(folder: Path) -> dict[str, Path]:
    return {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*")) if p.is_file()}


def _stamps() -> dict[str, tuple[int, int]]:
    """Every file under data/ with its modification time and size: any write shows."""
    return {name: (p.stat().st_mtime_ns, p.stat().st_size) for name, p in _files(DATA).items()}


def first_difference(committed: bytes, written: bytes) -> str:
    """Where two files first differ: the 1-based line and both versions of it."""
    a = committed.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    b = written.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    for n, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return f"line {n}:\n    data/ has      {x!r}\n    curation gives {y!r}"
    if len(a) != len(b):
        n = min(len(a), len(b)) + 1
        return (f"line {n}: data/ has {len(a)} lines, the curation writes {len(b)}; first extra line "
                f"{(a if len(a) > len(b) else b)[n - 1]!r}")
    return "same lines, different bytes"


def test_first_difference_names_the_line():
    assert first_difference(b"a,b\n1,2\n3,4\n", b"a,b\n1,2\n3,5\n") == (
        "line 3:\n    data/ has      '3,4\\n'\n    curation gives '3,5\\n'")
    assert first_difference(b"a\nb\n", b"a\n").startswith("line 2: data/ has 2 lines, the curation writes 1")
    assert first_difference(b"a\nb", b"a\nb\n").startswith("line 2:")


@pytest.mark.parametrize("doc", DOC_IDS)
def test_curation_reproduces_data(doc, tmp_path):
    if importlib.util.find_spec(f"curation.{doc}") is None:
        assert not (DATA / doc).exists(), f"data/{doc}/ exists but there is no curation.{doc} module to write it"
        pytest.skip(f"{doc} not curated yet (no curation.{doc} module)")
    seed_path(doc)  # fails, naming the seed, when it is missing
    before = _stamps()
    importlib.import_module(f"curation.{doc}").curate().write(tmp_path)
    after = _stamps()
    assert after == before, "the curation wrote under data/: " + ", ".join(
        sorted(n for n in before.keys() | after.keys() if before.get(n) != after.get(n)))
    assert sorted(p.name for p in tmp_path.iterdir()) == [doc], f"curation.{doc} wrote outside <root>/{doc}/"

    committed, written = _files(DATA / doc), _files(tmp_path / doc)
    problems = [f"data/{doc}/{n}: committed, but curation.{doc} does not write it" for n in sorted(committed.keys() - written.keys())]
    problems += [f"data/{doc}/{n}: written by curation.{doc}, not committed" for n in sorted(written.keys() - committed.keys())]
    for n in sorted(committed.keys() & written.keys()):
        a, b = committed[n].read_bytes(), written[n].read_bytes()
        if a != b:
            problems.append(f"data/{doc}/{n} differs, {first_difference(a, b)}")
    if problems:
        pytest.fail(f"data/{doc}/ is not what `python -m curation {doc}` writes from the seed "
                    f"({len(problems)} file(s)):\n" + "\n".join(problems), pytrace=False)
