"""calculators/catalogue.py: which form field a refusal names, the inputs written at the head of a download, the
download links' labels, the bundle file's formats. Expected values are written out by hand in each test."""
from __future__ import annotations

import importlib.util
import marshal

import pytest

from calculators import catalogue


@pytest.fixture
def fields():
    """A calculator registered for the test alone, with labels that start one another ("Sidecar CPU" and "Sidecar
    CPU target"), removed afterwards."""
    class Refused(ValueError):
        pass
    catalogue.register("test-fields", lambda b, p: {}, Refused,
                       fields={"Sidecar CPU": "sidecar_cpu", "Sidecar CPU target": "sidecar_target", "Load": "load"})
    yield Refused
    for d in (catalogue.CALCULATORS, catalogue.FIELDS, catalogue.REPORTS):
        d.pop("test-fields", None)


@pytest.mark.parametrize("message,field", [
    ("Sidecar CPU target must be a number", "sidecar_target"),   # the longer label, not "Sidecar CPU"
    ("Sidecar CPU: not a number", "sidecar_cpu"),                # followed by a colon
    ("Sidecar CPU (cores) must be positive", "sidecar_cpu"),     # followed by a space
    ("Load(total) must be more than 0", "load"),                 # followed by a parenthesis
    ("Sidecar CPU", "sidecar_cpu"),                              # the whole message
    ("Load must be more than 0", "load"),
    ("Loads must be more than 0", None),                         # "Load" followed by a letter: another word
    ("Sidecar CPUs are 3", None),
    ("The load must be more than 0", None),                      # the label must start the message
])
def test_a_refusal_names_the_field_its_message_starts_with(fields, message, field):
    assert catalogue.field_of("test-fields", message) == field


def test_fields_are_tried_longest_label_first(fields):
    assert [label for label, _ in catalogue.FIELDS["test-fields"]] == ["Sidecar CPU target", "Sidecar CPU", "Load"]
    assert catalogue.field_of("no-such-calculator", "Load must be more than 0") is None


def test_a_registered_error_is_caught_once(fields):
    # the error class is added to ERRORS once, however often it is registered
    n = catalogue.ERRORS.count(fields)
    catalogue.register("test-fields", lambda b, p: {}, fields)
    assert n == 1 and catalogue.ERRORS.count(fields) == 1


def test_input_lines_by_hand():
    lines = catalogue.input_lines("footprint", {"load": 80000.0, "ratio": 1.5, "sites": 2, "asm": True, "strict": False,
                                                "target": None, "node": "", "note": "two\n  lines\tand tabs"})
    assert lines == ["# Benchmark Atlas footprint calculator: inputs of this result",
                     "# load: 80000",          # a whole float is written as an integer
                     "# ratio: 1.5",
                     "# sites: 2",
                     "# asm: yes", "# strict: no",
                     "# target: (not given)", "# node: (not given)",
                     "# note: two lines and tabs"]  # white space runs become one space: one line per input
    assert catalogue.input_lines("dsr", None) == ["# Benchmark Atlas dsr calculator: inputs of this result"]
    # 0 and 0.0 are values, not "not given"
    assert catalogue.input_lines("x", {"a": 0, "b": 0.0})[1:] == ["# a: 0", "# b: 0"]


def test_inputs_head_csv_and_yaml_downloads_and_nothing_else():
    csv = catalogue._with_inputs("x", {"a": "1,2"}, {"mime": "text/csv", "text": "h\r\n1\r\n"})
    # one cell per line (the site's CSV writer ends lines with \n), quoted where it holds a comma, then the text as it was
    assert csv["text"] == '# Benchmark Atlas x calculator: inputs of this result\n"# a: 1,2"\nh\r\n1\r\n'
    yaml = catalogue._with_inputs("x", {"a": 1}, {"mime": "application/yaml", "text": "k: 1\n"})
    assert yaml["text"] == "# Benchmark Atlas x calculator: inputs of this result\n# a: 1\nk: 1\n"
    other = {"mime": "application/json", "text": "{}"}
    assert catalogue._with_inputs("x", {"a": 1}, other) == other


@pytest.mark.parametrize("key,label", [("csv", "CSV"), ("helm", "HELM"), ("json", "JSON"), ("xlsx", "XLSX"), ("chart", "chart"),
                                       ("values-yaml", "values-yaml"), ("", "")])
def test_download_label(key, label):
    # up to 4 characters: a format name in capitals; longer keys as they are
    assert catalogue.download_label(key) == label


def test_bundle_file_formats():
    magic = importlib.util.MAGIC_NUMBER
    assert catalogue.load_bundle(magic + marshal.dumps({"a": 1})) == {"a": 1}
    # exactly the 16-byte SQLite header makes a database; 15 of its bytes do not
    db = catalogue.SQLITE_HEADER + b"rest"
    assert catalogue.load_bundle(db) == {"sqlite": db}
    assert catalogue.load_bundle(bytearray(db))["sqlite"].__class__ is bytes
    assert catalogue.load_bundle(b"SQLite format 3" + b"\x01" + b"rest") is None
    with pytest.raises(ValueError, match="not a dict"):
        catalogue.load_bundle(magic + marshal.dumps([1]))


def test_bundle_keys_and_prepare():
    assert catalogue.bundle_keys("dsr") == ("sources", "dsr_runs", "dsr_notes", "sizing_bands", "examples")
    assert catalogue.bundle_keys("query") == ()
    with pytest.raises(KeyError):
        catalogue.bundle_keys("nope")
    assert catalogue.prepare("nope") is False
    assert catalogue.prepare("query") is True and "query" in catalogue.CALCULATORS


def test_a_calculator_without_a_report_says_so():
    assert catalogue.report({}, {"calc": "nope"}) == {"ok": False, "error": "No report for calculator 'nope'."}
    assert catalogue.run({}, {"calc": "nope"}) == {"ok": False, "error": "Unknown calculator 'nope'."}


def test_prepare_imports_the_module_the_catalogue_names(monkeypatch, tmp_path):
    # a calculator not yet imported: prepare imports the module CATALOGUE names for it (its first item, not the bundle
    # keys), whose import registers it; a second prepare finds it registered. The registries are copies for this test.
    (tmp_path / "atlas_test_prepared.py").write_text(
        "from calculators import catalogue\n"
        "class Refused(ValueError):\n    pass\n"
        "catalogue.register('test-prepared', lambda b, p: {'html': 'ok'}, Refused)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("CALCULATORS", "REPORTS", "FIELDS"):
        monkeypatch.setattr(catalogue, name, dict(getattr(catalogue, name)))
    monkeypatch.setattr(catalogue, "ERRORS", catalogue.ERRORS)
    monkeypatch.setitem(catalogue.CATALOGUE, "test-prepared", ("atlas_test_prepared", ("sources",)))
    try:
        assert "test-prepared" not in catalogue.CALCULATORS
        assert catalogue.prepare("test-prepared") is True
        assert catalogue.CALCULATORS["test-prepared"]({}, {}) == {"html": "ok"}
        assert catalogue.prepare("test-prepared") is True
    finally:
        import sys
        sys.modules.pop("atlas_test_prepared", None)
