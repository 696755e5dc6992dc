"""Entry point for the browser (Pyodide worker) and the build-time prerender.

``run(bundle, params)`` takes the calculator bundle and a dict of form
parameters (strings as typed by the user); ``params["calc"]`` names the
calculator (default ``footprint``). It returns a JSON-able dict:
``{"ok": True, "html": ..., "downloads": {name: {"text", "mime", "filename", "label"}}, "chart": spec|None, "inputs": ...}``
(a calculator may give a download's ``text`` as a function of no arguments: it is called when the text is needed)
or ``{"ok": False, "error": message, "field": name or None}`` for bad input (the calculator's
documented ValueError subclass; ``field`` is the form parameter the message is about, when the
calculator names it: the page marks that field invalid). Any other exception propagates: that is a
bug, and the page reports it as one.

Calculators are imported on first use, never all at once: in Pyodide every
import compiles its source, so a page pays only for its own calculator
(``prepare(name)`` imports it ahead of the first run, while the page boots).
``CATALOGUE`` names, per calculator, the module that registers it and the
bundle keys it reads; the build writes each page a bundle of just those keys.
Each module registers ``run_web(bundle, params) -> dict`` through
``register()``; it raises its own ValueError subclass for bad input.
"""
from __future__ import annotations

import importlib

# name -> (module that calls register(name, ...), bundle keys the calculator reads)
CATALOGUE: dict[str, tuple[str, tuple[str, ...]]] = {
    "footprint": ("calculators.footprint_report", ("sources", "scenarios", "services", "resources", "resources_excluded", "utilization",
                                          "scenario_cpu", "scenario_facts", "excluded_rows", "sizing_bands", "extrapolation")),
    "asm": ("calculators.asm_report", ("sources", "scenarios", "services", "resources", "utilization", "scenario_cpu", "util_rows",
                                       "scenario_facts", "resources_excluded", "excluded_rows", "examples")),
    "overtarget": ("calculators.overtarget_report", ("sources", "scenarios", "resources", "resources_excluded", "scenario_cpu",
                                              "util_rows", "excluded_rows")),
    "dsr": ("calculators.dsr", ("sources", "dsr_runs", "dsr_notes", "sizing_bands", "examples")),
    "shcm": ("calculators.shcm", ("sources", "shcm_tests", "shcm_info", "sizing_bands", "examples")),
    "deployment": ("calculators.deployment_report", ("sources", "scenarios", "services", "resources", "resources_excluded",
                                                     "utilization", "scenario_cpu", "scenario_facts", "excluded_rows",
                                                     "sizing_bands", "extrapolation", "deployment_names", "build_id")),
    "query": ("calculators.query", ()),
}
FILE_BUNDLES: dict[str, str] = {"query": "sqlite"}
"""Calculators whose data is one file of the site instead of a slice of the bundle: name -> the key its bytes are
given under (the query page: the SQLite database of the downloads, ``{"sqlite": bytes}``, ``load_bundle``). The build
serves that file as the page's data (manifest ``bundles[name]["file"]``), and such a calculator boots from the files,
not from the memory snapshot (its data would make the snapshot every calculator page loads that much larger)."""
CALCULATORS: dict = {}
REPORTS: dict = {}
ERRORS: tuple[type[Exception], ...] = ()
FIELDS: dict[str, tuple[tuple[str, str], ...]] = {}


def register(name: str, fn, error: type[Exception], report=None, fields: dict[str, str] | None = None) -> None:
    """Add a calculator: ``fn(bundle, params) -> dict`` raising ``error`` for bad input; ``report(bundle, params)``
    returns the result's report (``calculators.report``), raising ``error`` alike. ``fields`` maps the
    start of an error message (the name the calculator gives an input, e.g. "Target load") to the form
    parameter it reads (e.g. "load"), so a refusal names the field to mark invalid (see ``field_of``)."""
    global ERRORS
    CALCULATORS[name] = fn
    if report is not None:
        REPORTS[name] = report
    if error not in ERRORS:
        ERRORS = ERRORS + (error,)
    # longest first: "Sidecar CPU target" before "Sidecar CPU"
    FIELDS[name] = tuple(sorted((fields or {}).items(), key=lambda kv: -len(kv[0])))


def field_of(name: str, message: str) -> str | None:
    """The form parameter of calculator ``name`` that error ``message`` is about: the parameter whose
    registered label starts the message (followed by a space, colon or parenthesis), else None."""
    for label, param in FIELDS.get(name, ()):
        if message.startswith(label) and message[len(label):len(label) + 1] in (" ", ":", "(", ""):
            return param
    return None


def prepare(name: str) -> bool:
    """Import calculator ``name`` now (idempotent). Returns False for a name not in CATALOGUE."""
    if name not in CALCULATORS and name in CATALOGUE:
        importlib.import_module(CATALOGUE[name][0])
    return name in CALCULATORS


def bundle_keys(name: str) -> tuple[str, ...]:
    """The bundle keys calculator ``name`` reads (KeyError for an unknown calculator)."""
    return CATALOGUE[name][1]


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of a SQLite database file."""


def load_bundle(raw: bytes) -> dict | None:
    """A calculator bundle written by the build as ``.marshal``: this interpreter's bytecode magic
    number (4 bytes), then the bundle dict in marshal format (loads in about a third of
    ``json.loads``' time in Pyodide). Returns None when the magic number is not this
    interpreter's (the marshal format may differ: load the ``.json`` instead). A SQLite database
    (the data of a FILE_BUNDLES calculator) is returned as ``{"sqlite": raw}``. Raises
    ValueError or EOFError for a damaged file."""
    import importlib.util
    import marshal
    if raw[:16] == SQLITE_HEADER:
        return {"sqlite": bytes(raw)}
    if raw[:4] != importlib.util.MAGIC_NUMBER:
        return None
    out = marshal.loads(raw[4:])
    if not isinstance(out, dict):
        raise ValueError("the marshalled calculator bundle is not a dict")
    return out


def load_bundle_file(path: str) -> dict | None:
    """``load_bundle`` of the file at ``path`` (OSError if it cannot be read)."""
    with open(path, "rb") as fh:
        return load_bundle(fh.read())


def uses_bytecode() -> bool:
    """Whether this module's bytecode file exists and carries this interpreter's magic number:
    in the browser, that the bytecode the build compiled is what Pyodide imports (an unchecked
    hash-based .pyc is used whenever its magic number matches; otherwise the source is compiled)."""
    import importlib.util
    try:
        with open(__cached__, "rb") as fh:
            return fh.read(4) == importlib.util.MAGIC_NUMBER
    except (OSError, TypeError, NameError):
        return False


def download_label(key: str) -> str:
    """The link text of download ``key``: a short format name in capitals (``csv`` -> ``CSV``, ``helm`` -> ``HELM``),
    a longer key as it is. The prerendered page and calculator.js both show this label."""
    return key.upper() if len(key) <= 4 else key


def input_lines(name: str, inputs: dict) -> list[str]:
    """The inputs of a result as comment lines for the head of its CSV and Helm-values downloads:
    ``# Benchmark Atlas <name> calculator: inputs of this result``, then ``# key: value`` per input
    (None or empty as ``(not given)``: the calculator's default, booleans as yes/no), each on one line (line breaks in a value become spaces)."""
    out = [f"# Benchmark Atlas {name} calculator: inputs of this result"]
    for k, v in (inputs or {}).items():
        text = "(not given)" if v is None or v == "" else ("yes" if v is True else "no" if v is False else
                                                         str(int(v)) if type(v) is float and v.is_integer() else str(v))
        out.append(f"# {k}: " + " ".join(text.split()))
    return out


def _with_inputs(name: str, inputs: dict, d: dict) -> dict:
    """Download ``d`` with the inputs as comment lines before its text (CSV: each line one cell, quoted where it
    holds a comma or a quote, so a spreadsheet never splits it; YAML: comments)."""
    lines = input_lines(name, inputs)
    if d["mime"] == "text/csv":
        from .formatting import csv_writer
        import io
        buf = io.StringIO()
        csv_writer(buf).writerows([[x] for x in lines])
        return {**d, "text": buf.getvalue() + d["text"]}
    if d["mime"] == "application/yaml":
        return {**d, "text": "\n".join(lines) + "\n" + d["text"]}
    return d


_LATER: dict = {}
"""The downloads of the newest result ``run(..., later=True)`` gave, not yet written: ``{"name", "inputs",
"downloads"}`` (each download's ``text`` still a function), for ``later_downloads()``."""


def _written(name: str, inputs: dict, key: str, d: dict) -> dict:
    text = d["text"]() if callable(d["text"]) else d["text"]
    return {**_with_inputs(name, inputs, {**d, "text": text}), "label": download_label(key)}


def run(bundle: dict, params: dict, later: bool = False) -> dict:
    """Compute calculator ``params["calc"]`` for ``params`` (see the module docstring). Each download's text
    starts with the result's inputs as comment lines (``input_lines``).

    ``later``: leave the downloads' texts unwritten (each download then has ``"later": True`` and no ``text``);
    ``later_downloads()`` writes them for this result. The browser shows a result first and writes its CSV and
    Helm values only once no newer inputs wait (on the largest scenario a fifth of a run's time). A refused
    run keeps the previous result's downloads there."""
    name = params.get("calc") or "footprint"
    if not prepare(name):
        return {"ok": False, "error": f"Unknown calculator {name!r}."}
    try:
        out = CALCULATORS[name](bundle, params)
    except ERRORS as e:
        return {"ok": False, "error": str(e), "field": field_of(name, str(e))}
    res = {"ok": True, "chart": None, "downloads": {}, **out}
    inputs = res.get("inputs") or {}
    if later:
        _LATER.clear()
        _LATER.update(name=name, inputs=inputs, downloads=res["downloads"])
        res["downloads"] = {k: {**{f: v for f, v in d.items() if f != "text"}, "label": download_label(k), "later": True}
                            for k, d in res["downloads"].items()}
    else:
        res["downloads"] = {k: _written(name, inputs, k, d) for k, d in res["downloads"].items()}
    return res


def later_downloads() -> dict:
    """The downloads of the newest ``run(..., later=True)`` result, written as ``run`` writes them:
    ``{name: {"text", "mime", "filename", "label"}}``. Raises LookupError when no such result is held (none was
    computed by this interpreter)."""
    if not _LATER:
        raise LookupError("no result to write downloads for: compute one first")
    return {k: _written(_LATER["name"], _LATER["inputs"], k, d) for k, d in _LATER["downloads"].items()}


def report(bundle: dict, params: dict) -> dict:
    """The report of the result ``run`` gives for ``params``: ``{"ok": True, "report": {...}}`` (shape in
    ``calculators.report``) or ``{"ok": False, "error": message}`` for bad input or a calculator without one."""
    name = params.get("calc") or "footprint"
    if not prepare(name) or name not in REPORTS:
        return {"ok": False, "error": f"No report for calculator {name!r}."}
    try:
        return {"ok": True, "report": REPORTS[name](bundle, params)}
    except ERRORS as e:
        return {"ok": False, "error": str(e)}

