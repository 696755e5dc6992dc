"""Each guide declares itself once (atlas/guides): no document, scenario, erratum or call-model id in the code outside
its guide's module, and the guide interface refuses a module that does not keep it."""
from __future__ import annotations

import ast
import importlib
import re
import sys
import textwrap

import pytest
import yaml

from conftest import ROOT


def _ids() -> tuple[list[str], set[str]]:
    """The document ids of data/sources.yaml and every scenario id of data/<doc>/scenarios.yaml."""
    docs = [s["id"] for s in yaml.safe_load((ROOT / "data" / "sources.yaml").read_text(encoding="utf-8"))]
    scen = set()
    for d in docs:
        p = ROOT / "data" / d / "scenarios.yaml"
        if p.exists():
            scen |= {s["id"] for s in yaml.safe_load(p.read_text(encoding="utf-8"))}
    return docs, scen


def _code_strings(path):
    """(line, text) of every string constant of a Python file that is not a docstring (module, class, function or
    attribute docstring: prose for the reader, where naming the guide an example comes from is right)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in prose:
            yield n.lineno, n.value


def id_literals(files, docs, scen) -> list[tuple[str, int, str]]:
    """Every document id (alone, or as an erratum id 'bsf-E001', a rules id 'dsr-G22' or a call model 'policy:pcf-sm')
    and every scenario id in the code strings of ``files``: (file, line, the id as written)."""
    pat = re.compile(r"(?<![\w.-])(" + "|".join(sorted(map(re.escape, list(scen) + docs), key=len, reverse=True))
                     + r")(?:-[EG]\d+)?(?::[\w-]+)?(?![\w-])")
    out = []
    for f in files:
        rel = f.relative_to(ROOT).as_posix() if f.is_relative_to(ROOT) else f.name
        for line, text in _code_strings(f):
            out += [(rel, line, m.group(0)) for m in pat.finditer(text)]
    return out


def test_no_document_id_outside_its_guide_module():
    """A guide is named in code only by its module, atlas/guides/<doc>.py. A calculator keeps its own name (the DSR and
    ShCM calculators are named "dsr" and "shcm": its page calculators/<name>/, its command): the name stands once, as
    the calculator module's NAME and its catalogue entry, and everything else reads NAME."""
    from calculators.catalogue import CATALOGUE
    docs, scen = _ids()
    files = sorted(p for p in list((ROOT / "atlas").rglob("*.py")) + list((ROOT / "calculators").rglob("*.py")))
    allowed = {f"atlas/guides/{d}.py" for d in docs}
    found = []
    for rel, line, lit in id_literals(files, docs, scen):
        if rel in allowed:
            continue
        if lit in CATALOGUE and (rel == "calculators/catalogue.py" or rel == f"calculators/{lit}.py"):
            src = (ROOT / rel).read_text(encoding="utf-8").splitlines()[line - 1]
            if rel == "calculators/catalogue.py" or src.startswith("NAME = "):
                continue
        found.append((rel, line, lit))
    assert found == []


def test_the_check_finds_an_id_where_it_should_not_be(tmp_path):
    """The check above is not blind: a planted scenario id, erratum id, call model and document id are each found,
    and a docstring that names a guide is not."""
    f = tmp_path / "planted.py"
    f.write_text(textwrap.dedent('''\
        """Sized from BSF 3.3 ('bsf-3-3' in a docstring is prose)."""
        A = "bsf-3-3"
        B = {"dsr": 1}
        C = f"see {x} policy-E050"
        D = "policy:pcf-sm"
        E = "bsf_resources"
        '''), encoding="utf-8")
    docs, scen = _ids()
    hits = sorted((line, lit) for _, line, lit in id_literals([f], docs, scen))
    assert hits == [(2, "bsf-3-3"), (3, "dsr"), (4, "policy-E050"), (5, "policy:pcf-sm")]


@pytest.fixture()
def extra_guides(tmp_path, monkeypatch):
    """A folder of guide modules on ATLAS_GUIDES, and the guides package's search path restored afterwards."""
    import atlas.guides as guides
    folder = tmp_path / "guides"
    folder.mkdir()
    monkeypatch.setenv("ATLAS_GUIDES", str(folder))
    before = list(guides.__path__)
    yield folder
    guides.__path__[:] = before
    for name in [m for m in sys.modules if m.startswith("atlas.guides.zz")]:
        del sys.modules[name]


def test_a_guide_module_outside_the_repository_is_found_by_its_document_id(extra_guides):
    from atlas import guides
    (extra_guides / "zzone.py").write_text('EXAMPLES = {"compare": ("zzone-1", "zzone-2")}\n', encoding="utf-8")
    assert "zzone" in guides.names() and guides.hook("zzone", "EXAMPLES")["compare"] == ("zzone-1", "zzone-2")
    # the first guide in the documents' order gives an example; a guide without the example leaves it to the next
    assert guides.examples(["zzone", "bsf"])["compare"] == ("zzone-1", "zzone-2")
    assert guides.examples(["bsf", "zzone"])["compare"] == ("bsf-3-2", "bsf-3-3")
    assert guides.hook("nef", "scenarios_table") is None  # NEF declares nothing: the defaults serve it


@pytest.mark.parametrize("source, message", [
    ("EXAMPLE = {}\n", r"EXAMPLE is no hook of the guide interface"),
    ("BUNDLE_KEYS = ('zz_runs',)\n", r"declares one of bundle\(\) and BUNDLE_KEYS without the other"),
    ("EXAMPLES = {'footprints': 'zz:x'}\n", r"example 'footprints' is not one of"),
])
def test_a_guide_module_that_does_not_keep_the_interface_is_refused_naming_it(extra_guides, source, message):
    from atlas import guides
    name = "zzbad" + str(abs(hash(source)) % 1000)
    (extra_guides / f"{name}.py").write_text(source, encoding="utf-8")
    importlib.invalidate_caches()
    with pytest.raises(guides.GuideError, match=rf"guide module atlas\.guides\.{name} .*{message}"):
        guides.module(name)


def test_a_guide_bundle_builder_returning_other_keys_stops_the_bundle(extra_guides, atlas, monkeypatch):
    from atlas import bundle, guides
    (extra_guides / "zzkeys.py").write_text(
        "BUNDLE_KEYS = ('zz_runs',)\n\ndef bundle(atlas, doc):\n    return {'zz_run': []}\n", encoding="utf-8")
    importlib.invalidate_caches()
    monkeypatch.setattr(bundle, "BUILDERS", tuple(guides.bundle_builders()))
    monkeypatch.setattr(bundle, "DERIVED", ())
    with pytest.raises(ValueError, match=r"returned keys \['zz_run'\], declared \['zz_runs'\]"):
        bundle.build(atlas)
