"""Mutation score of one module (calculators/*.py, atlas/tableview.py, atlas/downloads.py) with mutmut, recorded.

mutmut (on PyPI, pinned below; not needed to build or test the site) changes one thing in a function at a time (a
mutant) and runs the tests that call that function: a mutant the tests do not notice "survived". This tool runs it
one module at a time, on a seeded random sample of that module's mutants or on every mutant, against the module's
fast tests, and records the score in tools/mutation_samples/scores.json, which ``tools/benchmark.py`` prints
(``--mutation-scores``). Run it with the Python that has mutmut, from the repository's root; mutmut in a venv of
its own that sees the project's packages:

    python -m venv /work/mutmut-venv && /work/mutmut-venv/bin/pip install mutmut==3.8.1
    echo "$PWD/.venv/lib/python3.11/site-packages" > /work/mutmut-venv/lib/python3.11/site-packages/atlas.pth
    M=/work/mutmut-venv/bin/python
    $M tools/mutation_sample.py list --module calculators/footprint.py --seed 1        # the names drawn
    $M tools/mutation_sample.py run --module atlas/tableview.py --all --record         # run, report, record
    $M tools/mutation_sample.py run --module calculators/runs.py --module calculators/sizing.py --record
    $M tools/mutation_sample.py report --module calculators/dsr.py --seed 1 --survivors
    $M tools/mutation_sample.py modules                                                # modules, mutants, tests

How the sample is drawn (the same seed gives the same names on the same code): the module is mutated in memory with
mutmut's own ``mutate_file_contents``; its mutant names (``calculators.dsr.x_run__mutmut_12``) are sorted as strings
and ``random.Random(seed).sample(names, size)`` picks the sample; ``--all`` takes every mutant. The size is, unless
``--size`` says, what a margin of about +/- 6 points needs at a score near 85 % (``sample_size``: 136 mutants less the
finite-population correction, e.g. 86 of calculators/inputs.py's 234). A change to the module's code changes its
mutants and so the sample. Several ``--module`` run in one mutmut run: one run of the tests for mutmut's statistics
(minutes) serves them all.

What makes a mutant cheap (``run``):

* mutmut itself runs, for each mutant, only the tests that called the mutated function while it collected its
  statistics (one run of the module's tests, first);
* the module's tests are the fast ones of ``TESTS`` (``MODULE_TESTS``): this file is also a pytest plugin (``-p
  mutation_sample``) that deselects every test using a fixture of ``SITE_FIXTURES``. Those build the whole site in a
  subprocess (``python -m atlas build``, 30 s to minutes on a shared machine), and a mutant reaches that subprocess
  through mutmut's environment variable, so one backtest mutant took about 5 minutes when they ran;
* mutmut forks each mutant's test run from a server process (``process_isolation = forkserver``) into which the
  validated data (``atlas.datastore.load()``, about 9 s here) is loaded once, and, for modules it does not depend on
  (``REUSE``), the calculator bundle (``atlas.bundle.build``): every mutant's tests reuse them instead of loading
  data/ again. The bundle is rebuilt per mutant for calculators/ modules, whose code computes part of it (the
  held-out bands, ``calculators.backtest``). Forking from a server that never ran a test also keeps module-level
  caches (``atlas.downloads._CACHE``) from carrying results of unmutated code into a mutant's run.

* mutmut's time limit per mutant is (its tests' own time + 30 s) x 5, not (+ 1 s) x 15: its tests' time leaves out
  their fixtures, and with the default a survivor whose tests first build the downloads (7 s) timed out on the
  shared machine, which mutmut counts as killed.

``run`` lowers its priority (``nice`` 19: other work shares the machine), runs mutmut with ``--max-children N`` (2
unless given), then reports; ``--only FILE`` runs only the mutants FILE names (the survivors of an earlier run, say:
mutmut keeps the other verdicts in mutants/ while the module's code is unchanged) and reports on the whole draw; ``--record`` adds the result to scores.json (module, seed, sample size, mutants in the
module, killed, survived, timeouts, no tests, other verdicts, score and its 95 % margin, seconds per mutant, date,
the commit measured and whether its tree had changes). The score is killed and timeouts over all checked ("no
tests" counts as not killed); the margin is 1.96 * sqrt(p(1-p)/n) * sqrt((N-n)/(N-1)) (normal approximation with the
finite-population correction: 0 when every mutant of the module was run). ``--survivors`` lists the mutants not
killed (``mutmut show NAME`` from the repository's root prints each one's diff).

Earlier samples of calculators/ as a whole are kept in ``tools/mutation_samples/seed-SEED.txt`` (seed 20261124:
drawn from the 15,445 mutants of the code before the DSR profile change of November 2026; seed 20261125: from the
code with that change); they were never run to a score.

Errors: exits with a message when mutmut is not importable, when run from another folder than the repository's
root, for a module that is not a Python file of calculators/ or atlas/, or when a drawn mutant has no verdict yet
(``report`` before ``run``).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from collections import Counter
from datetime import date
from pathlib import Path

MUTMUT_VERSION = "3.8.1"
SCORES = Path("tools/mutation_samples/scores.json")
MARGIN = 6.0
"""The 95 % margin a sample aims at, in percentage points (``sample_size``)."""

CALCULATOR_TESTS = [
    "tests/test_calculators.py", "tests/test_calculator_properties.py", "tests/test_calculators_asm_overtarget.py",
    "tests/test_sidecars.py", "tests/test_calculators_dsr_shcm.py", "tests/test_backtest.py",
    "tests/test_footprint_rules.py", "tests/test_calculators_cli.py", "tests/test_calculators_inputs.py",
    "tests/test_calculator_contracts.py", "tests/test_calculator_details.py", "tests/test_later_downloads.py",
    "tests/test_evidence.py", "tests/test_reports.py", "tests/test_readings_join.py",
]
"""The tests of calculators/ (setup.cfg [mutmut] lists the same for a plain ``mutmut run``)."""
MODULE_TESTS = {
    "atlas/tableview.py": ["tests/test_table_views.py", "tests/test_download_files.py"],
    "atlas/downloads.py": ["tests/test_download_files.py", "tests/test_table_views.py",
                           "tests/test_download_cells.py", "tests/test_download_records_made_up.py",
                           "tests/test_download_build_refusals.py", "tests/test_download_table_files.py",
                           "tests/test_datapackage_citations.py"],
}
"""Test files per module; a calculators/ module not listed uses CALCULATOR_TESTS."""
DEPLOYMENT_TESTS = ["tests/test_deployment.py", "tests/test_deployment_inputs.py", "tests/test_deployment_cli.py",
                    "tests/test_deployment_as_run.py", "tests/test_deployment_reading.py",
                    "tests/test_deployment_vendor_runs.py", "tests/test_deployment_report_values.py",
                    "tests/test_cli_in_process.py"]
"""The own-deployment calculator's tests (hand-written kubectl fixtures, no site build): not in CALCULATOR_TESTS."""
MODULE_TESTS.update({m: CALCULATOR_TESTS + DEPLOYMENT_TESTS for m in (
    "calculators/deployment.py", "calculators/deployment_inputs.py", "calculators/deployment_report.py",
    "calculators/__main__.py")})
MODULE_TESTS.update({m: CALCULATOR_TESTS + ["tests/test_cross_product.py", "tests/test_query_values.py",
                                             "tests/test_catalogue_values.py", "tests/test_report_values.py",
                                             "tests/test_scenario_facts.py"]  # the query page's tests, and their values
                     for m in ("calculators/query.py", "calculators/catalogue.py", "calculators/report.py",
                               "calculators/scenario.py")})
# formatting's own cases live in tests/test_csv_injection.py (the csv_cell rule) and tests/test_formatting_values.py;
# partial's, the sidecar count's, the evidence's and the backtest's hand-computed made-up runs in
# tests/test_partial_values.py, test_sidecar_counts_made_up.py, test_evidence_made_up.py and test_backtest_made_up.py
# (not in CALCULATOR_TESTS)
MODULE_TESTS["calculators/formatting.py"] = CALCULATOR_TESTS + ["tests/test_csv_injection.py", "tests/test_formatting_values.py"]
MODULE_TESTS["calculators/partial.py"] = CALCULATOR_TESTS + ["tests/test_partial_values.py"]
MODULE_TESTS["calculators/sidecars.py"] = CALCULATOR_TESTS + ["tests/test_sidecar_counts_made_up.py"]
MODULE_TESTS["calculators/evidence.py"] = CALCULATOR_TESTS + ["tests/test_evidence_made_up.py"]
MODULE_TESTS["calculators/backtest.py"] = CALCULATOR_TESTS + ["tests/test_backtest_made_up.py"]
MODULE_TESTS["calculators/runs.py"] = CALCULATOR_TESTS + ["tests/test_runs_values.py"]
# footprint's small helpers and its report's pieces on made-up values (tests/test_footprint_helpers_values.py,
# test_footprint_report_values.py, and test_footprint_report_text.py: a whole made-up result's page, CSV, Helm values,
# chart and report; not in CALCULATOR_TESTS)
MODULE_TESTS["calculators/footprint.py"] = CALCULATOR_TESTS + ["tests/test_footprint_helpers_values.py",
                                                               "tests/test_footprint_memory_values.py"]
MODULE_TESTS["calculators/footprint_report.py"] = CALCULATOR_TESTS + ["tests/test_footprint_report_values.py",
                                                                  "tests/test_footprint_helpers_values.py",
                                                                  "tests/test_footprint_report_text.py"]
# the ShCM, over-target and ASM calculators' and their reports' values from named guide rows, each called directly
MODULE_TESTS["calculators/shcm.py"] = CALCULATOR_TESTS + ["tests/test_shcm_values.py"]
MODULE_TESTS["calculators/overtarget.py"] = CALCULATOR_TESTS + ["tests/test_overtarget_values.py",
                                                                "tests/test_overtarget_report_values.py"]
MODULE_TESTS["calculators/overtarget_report.py"] = CALCULATOR_TESTS + ["tests/test_overtarget_report_values.py",
                                                                       "tests/test_overtarget_report_text.py"]
MODULE_TESTS["calculators/asm.py"] = CALCULATOR_TESTS + ["tests/test_asm_values.py", "tests/test_asm_report_values.py"]
MODULE_TESTS["calculators/asm_report.py"] = CALCULATOR_TESTS + ["tests/test_asm_report_values.py",
                                                               "tests/test_asm_report_overview_cells.py",
                                                               "tests/test_asm_report_comparison.py",
                                                               "tests/test_asm_report_text.py",
                                                               "tests/test_asm_report_whole_output.py"]
# the deployment page's sentences, scaling table and export file (tests/test_deployment_report_text.py) and the command
# line's tables and help (tests/test_cli_tables_and_help.py), each called in-process
MODULE_TESTS["calculators/deployment_report.py"] = (CALCULATOR_TESTS + DEPLOYMENT_TESTS
                                                    + ["tests/test_deployment_report_text.py"])
MODULE_TESTS["calculators/__main__.py"] = CALCULATOR_TESTS + DEPLOYMENT_TESTS + ["tests/test_cli_tables_and_help.py"]
# the DSR calculator on runs the guide prints less for (a per-DA-MP rate only, no rate, no DA-MP Profile), its vSTP
# mated-pair rows, report Method sheet and held-out points; the number reader's whole refusal messages; the query page's
# default example on a small hand-written database (each called directly, not through a session fixture)
MODULE_TESTS["calculators/dsr.py"] = CALCULATOR_TESTS + ["tests/test_dsr_runs_missing_figures.py",
                                                         "tests/test_dsr_mated_pairs_report_and_held_out.py",
                                                         "tests/test_dsr_chart_and_held_out_pairs.py"]
MODULE_TESTS["calculators/inputs.py"] = CALCULATOR_TESTS + ["tests/test_number_reading_messages.py"]
MODULE_TESTS["calculators/query.py"] = MODULE_TESTS["calculators/query.py"] + ["tests/test_query_default_example.py",
                                                                             "tests/test_query_summary_line.py"]
# the own-deployment calculator's readers and comparison on hand-written objects and named guide rows: kubectl objects'
# fields and problems, kubectl top text and its lines placed by namespace and by pod name, the request's fields, the
# vendor's requests from ranges and single figures, the comparable runs' own fields and your run's, the HPA readings,
# the service chart's points, the totals of every workload read
MODULE_TESTS.update({m: CALCULATOR_TESTS + DEPLOYMENT_TESTS + [
    "tests/test_deployment_kubectl_objects.py", "tests/test_deployment_top_text.py",
    "tests/test_deployment_top_namespaces.py", "tests/test_deployment_pod_placement.py",
    "tests/test_deployment_request_fields.py", "tests/test_deployment_vendor_requests.py",
    "tests/test_deployment_hpa_reading.py", "tests/test_deployment_service_points.py",
    "tests/test_deployment_comparable_runs.py", "tests/test_deployment_every_workload_totals.py"]
    for m in ("calculators/deployment.py", "calculators/deployment_inputs.py")})
SITE_FIXTURES = {"built_site", "variant_site", "site_url", "page", "browser", "wide"}
"""Fixtures of tests that build the site (or drive a browser on it): left out of a mutation run."""
REUSE = {"atlas/tableview.py": ("atlas", "bundle"), "atlas/downloads.py": ("atlas", "bundle")}
"""What each module's mutants may reuse from the fork server; a calculators/ module not listed reuses the data only."""
DESELECT = [
    "tests/test_calculators_dsr_shcm.py::test_calculators_are_standard_library_only",  # every mutant imports mutmut
    # reads the page's YAML with js-yaml from node_modules/, which mutants/ does not hold (the command line's side of
    # that parity is run by test_command_line_writes_the_file_export_inputs_writes)
    "tests/test_deployment.py::test_page_and_command_line_agree",
    # runs the command line in a subprocess that loads the whole bundle (1.4 GB, 10-20 s on the shared machine) for
    # every mutant it meets; tests/test_deployment_cli.py runs the same command line in-process
    "tests/test_deployment.py::test_command_line_writes_the_file_export_inputs_writes",
    # runs `python -m calculators dsr` in a subprocess that loads the whole bundle for every mutant it meets (every
    # calculators/__main__.py mutant); tests/test_cli_in_process.py checks the same table and help with main() in-process
    "tests/test_calculator_details.py::test_cli_dsr_prints_a_table_by_default_and_explains_its_target",
    # compile the site's charts with node_modules/ (Vega-Lite), which mutants/ does not hold
    "tests/test_cross_product.py::test_home_chart_hollow_means_partial_only",
    "tests/test_cross_product.py::test_dsr_chart_legend_labels_fit_a_phone",
]
"""Tests that cannot pass on mutated code whatever the mutant."""

# mutmut 3.8's exit codes, as mutmut.stats.status_by_exit_code reads them.
KILLED = {1, 3}
TIMEOUT = {-24, 24, 152, 255, 36}
STATUS = {0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", 35: "suspicious",
          37: "caught by type check", -11: "segfault", -9: "segfault", None: "not checked"}


def status_of(exit_code: int | None) -> str:
    """mutmut's name for a mutant's exit code ("killed", "survived", "no tests", "timeout", ...)."""
    if exit_code in KILLED:
        return "killed"
    if exit_code in TIMEOUT:
        return "timeout"
    return STATUS.get(exit_code, "suspicious")


def _mutmut():
    try:
        import mutmut  # noqa: F401
        from mutmut.mutation.file_mutation import mutate_file_contents
        from mutmut.utils.format_utils import get_mutant_name
    except ImportError:
        raise SystemExit(f"mutmut is not importable: run this with the Python that has mutmut {MUTMUT_VERSION} installed")
    return mutate_file_contents, get_mutant_name


def check_module(module: str) -> Path:
    """``module`` as a path relative to the repository's root (the current folder). Raises SystemExit when the
    folder is not the root or the module is not a Python file of calculators/ or atlas/."""
    if not Path("setup.cfg").is_file() or not Path("calculators").is_dir():
        raise SystemExit("run from the repository's root (the folder with setup.cfg and calculators/)")
    path = Path(module)
    if path.suffix != ".py" or path.parts[0] not in ("calculators", "atlas") or not path.is_file():
        raise SystemExit(f"--module {module}: not a Python file of calculators/ or atlas/ (e.g. calculators/dsr.py)")
    return path


def mutant_names(module: str) -> list[str]:
    """Every mutant name mutmut makes of ``module``, sorted as strings."""
    mutate_file_contents, get_mutant_name = _mutmut()
    path = check_module(module)
    mutated = mutate_file_contents(str(path), path.read_text(encoding="utf-8"))
    return sorted(get_mutant_name(path, name) for name in mutated.mutant_names)


def sample_size(total: int, margin: float = MARGIN, p: float = 0.85) -> int:
    """Mutants to draw of ``total`` for a 95 % margin of ``margin`` points at a score near ``p``: n0 = 1.96^2 p (1-p)
    / margin^2 (136 for +/- 6 at 85 %), with the finite-population correction n0 / (1 + (n0 - 1) / total) (86 of
    234, 132 of 4,082)."""
    n0 = 1.96 ** 2 * p * (1 - p) / (margin / 100) ** 2
    return min(total, math.ceil(n0 / (1 + (n0 - 1) / total))) if total else 0


def draw(module: str, seed: int | None, size: int | None) -> tuple[list[str], int]:
    """(the names drawn, sorted; the number of mutants of the module): every mutant when ``size`` is None, else
    ``random.Random(seed).sample`` of ``size`` of them (0: ``sample_size`` of the module's)."""
    names = mutant_names(module)
    size = sample_size(len(names)) if size == 0 else size
    if size is None or size >= len(names):
        return names, len(names)
    return sorted(random.Random(seed).sample(names, size)), len(names)


def tests_of(module: str) -> list[str]:
    """The test files of ``module`` that exist (MODULE_TESTS, else CALCULATOR_TESTS)."""
    return [t for t in MODULE_TESTS.get(module, CALCULATOR_TESTS) if Path(t).is_file()]


def reuse_of(module: str) -> tuple[str, ...]:
    """What ``module``'s mutants reuse from the fork server (REUSE, else the data only)."""
    return REUSE.get(module, ("atlas",))


def configure(modules: list[str], plain: bool = False) -> None:
    """mutmut's configuration for ``modules``: setup.cfg's [mutmut] section with only they mutated, their tests
    (``tests_of`` each), this plugin, DESELECT, and each mutant forked from a server process that loaded what
    ``reuse_of`` names for all of them; with ``plain``, setup.cfg's section as it is (its tests), only ``modules`` mutated and
    nothing reused, to time a mutant without this tool's choices (the "before" of scores.json was measured so with
    the setup.cfg of November 2026's main: mutmut's own fork per mutant; its site-building tests, which cannot build
    in mutants/, left out by this plugin)."""
    from mutmut import configuration
    cfg = configuration.config()
    cfg.source_paths = [Path(m) for m in modules]
    cfg.resolved_mutated_source_paths = [Path.cwd().resolve() / "mutants" / m for m in modules]
    packages = [Path("calculators"), Path("atlas"), Path("reportxlsx")]  # the module's own package is not copied whole
    cfg.also_copy = packages + [p for p in cfg.also_copy if p not in packages]
    os.environ.setdefault("ATLAS_SEEDS", str(Path.cwd().parent / "shared" / "seeds"))
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # `-p mutation_sample` imports this file
    # pytest finds the repository's pytest.ini above mutants/ (its addopts start pytest-xdist workers, whose test
    # runs mutmut cannot see): -n 0 runs each mutant's tests in the process mutmut forked
    if plain:
        cfg.pytest_add_cli_args = cfg.pytest_add_cli_args + ["-n", "0", "-p", "mutation_sample"]
        os.environ["ATLAS_MUTATION_REUSE"] = ""
        return
    cfg.pytest_add_cli_args_test_selection = list(dict.fromkeys(t for m in modules for t in tests_of(m)))
    cfg.pytest_add_cli_args = ["-n", "0", "-p", "no:cacheprovider", "-p", "mutation_sample", "-m", "not browser"] + \
        [x for d in DESELECT for x in ("--deselect", d)]
    cfg.process_isolation = configuration.ProcessIsolation.FORKSERVER
    # mutmut's time limit is (tests' own time + constant) x multiplier, the tests' time without their fixtures: with
    # its defaults (1 s, x 15) a survivor whose tests build the downloads (7 s) timed out on the shared machine and
    # counted as killed. 30 s x 5: a mutant that loops forever costs 2.5 minutes.
    cfg.timeout_constant, cfg.timeout_multiplier = 30.0, 5.0
    cfg.forkserver_warmup = configuration.ForkServerWarmup.COLLECT
    os.environ["ATLAS_MUTATION_REUSE"] = ",".join(x for x in reuse_of(modules[0]) if all(x in reuse_of(m) for m in modules))


def run(modules: list[str], names: list[str], max_children: int, plain: bool = False) -> float:
    """Run mutmut on ``names`` of ``modules`` at the lowest priority (``configure``); the wall-clock seconds it took.
    Removes mutmut's statistics of an earlier run first: they map tests to the functions mutated then, and mutmut
    would take a module mutated only now for one no test calls."""
    os.nice(19)
    Path("mutants", "mutmut-stats.json").unlink(missing_ok=True)
    configure(modules, plain)
    import mutmut.__main__ as mm
    from mutmut.workers import isolation
    # mutmut times each mutant when it forks it itself, not through the fork server (it records 0 s): time it here,
    # from its submission to its verdict
    started: dict[str, float] = {}
    submit, register = isolation.ForkServerRunner.submit, mm._register_mutant_result

    def timed_submit(self, mutant_name, *args, **kwargs):
        started[mutant_name] = time.monotonic()
        return submit(self, mutant_name, *args, **kwargs)

    def timed_register(result, data):
        if not result.duration and result.mutant_name in started:
            result.duration = time.monotonic() - started[result.mutant_name]
        return register(result, data)
    isolation.ForkServerRunner.submit, mm._register_mutant_result = timed_submit, timed_register
    start = time.monotonic()
    try:
        mm._run(names, max_children)
    except SystemExit as e:
        if e.code not in (None, 0):
            raise
    return time.monotonic() - start


def verdicts(module: str) -> tuple[dict[str, int | None], dict[str, float]]:
    """(exit code by mutant name, seconds by mutant name) from mutmut's mutants/<module>.meta."""
    meta = Path("mutants", module + ".meta")
    if not meta.is_file():
        return {}, {}
    data = json.loads(meta.read_text(encoding="utf-8"))
    return data.get("exit_code_by_key", {}), data.get("durations_by_key", {})


def score(counts: Counter, n: int, total: int) -> tuple[float, float]:
    """(score, 95 % margin), both in percent: killed and timeouts over ``n`` checked; normal approximation with the
    finite-population correction for a sample of ``n`` of ``total`` mutants."""
    p = (counts["killed"] + counts["timeout"]) / n
    fpc = math.sqrt((total - n) / (total - 1)) if total > 1 else 0.0
    return 100 * p, 100 * 1.96 * math.sqrt(p * (1 - p) / n) * fpc


def git_commit() -> str:
    """The commit measured, with '+changes' when the tree differs from it (tests being written, say)."""
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip()
    if not head:
        return os.environ.get("ATLAS_MUTATION_COMMIT", "")  # a tree exported from git (git archive) names its commit so
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
    return head + ("+changes" if dirty else "")


def report(module: str, names: list[str], total: int, seed: int | None, survivors: bool,
           wall_per_mutant: float | None = None, ran: set[str] | None = None) -> dict | None:
    """Print the verdicts and score of ``names``; the record scores.json keeps, or None when a name has no verdict.
    The seconds per mutant are those of ``ran`` (default: all of ``names``); ``wall_per_mutant`` is the whole run's
    wall-clock time (mutants made, statistics, every mutant's tests) over the mutants it ran."""
    found, seconds = verdicts(module)
    missing = [n for n in names if found.get(n) is None]
    if missing:
        print(f"{len(missing)} of {len(names)} mutants drawn have no verdict yet (run first), e.g. {missing[0]}",
              file=sys.stderr)
        return None
    status = {n: status_of(found[n]) for n in names}
    counts = Counter(status.values())
    n = len(names)
    p, margin = score(counts, n, total)
    times = [seconds[x] for x in names if x in seconds and (ran is None or x in ran)]
    print(f"{module}: {'every mutant' if n == total else f'sample of {n} (seed {seed})'} of {total}")
    print(", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    print(f"score: {counts['killed'] + counts['timeout']}/{n} = {p:.1f} % killed (95 % margin +/- {margin:.1f})")
    if times:
        print(f"seconds per mutant (mutmut's own timing of each, mean): {sum(times) / len(times):.1f}")
    if survivors:
        for name in names:
            if status[name] not in ("killed", "timeout"):
                print(f"{status[name]}\t{name}")
    other = n - sum(counts[k] for k in ("killed", "survived", "timeout", "no tests"))
    return {"module": module, "seed": None if n == total else seed, "sample": n, "mutants": total,
            "killed": counts["killed"], "survived": counts["survived"], "timeout": counts["timeout"],
            "no_tests": counts["no tests"], "other": other, "score_percent": round(p, 1),
            "margin_percent": round(margin, 1),
            "seconds_per_mutant": round(sum(times) / len(times), 1) if times else None,
            "wall_seconds_per_mutant": round(wall_per_mutant, 1) if wall_per_mutant else None,
            "run_now": len(times),
            "tests": " ".join(tests_of(module)), "date": date.today().isoformat(), "commit": git_commit()}


def record(entry: dict, note: str | None) -> None:
    """Add ``entry`` (with ``note``) to scores.json, after the earlier measurements (kept: before and after)."""
    entries = json.loads(SCORES.read_text(encoding="utf-8")) if SCORES.is_file() else []
    entries.append({**entry, "note": note or ""})
    SCORES.write_text(json.dumps(entries, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded in {SCORES}")


# ---------------------------------------------------------------- the pytest plugin (`-p mutation_sample`)
def pytest_collection_modifyitems(config, items):
    """Deselects the tests that use a fixture of SITE_FIXTURES (they build the site in a subprocess)."""
    slow = [item for item in items if SITE_FIXTURES & set(getattr(item, "fixturenames", ()))]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item not in slow]


MEMOS = (("calculators.backtest", "_LAST"), ("calculators.runs", "_INDEX"))
"""Module-level memos through which a test can get a result without running the code that computes it."""


def pytest_runtest_setup(item):
    """While mutmut records which tests call which function (``MUTANT_UNDER_TEST=stats``, one process for every
    test), empties the MEMOS before each test: else a test whose ``backtest.run(bundle)`` finds the result another
    test left in the memo never calls ``_Product`` or ``runs.cores_used``, is not recorded as their test, and is
    not run against their mutants (a seed 20261130 survivor of ``_Product`` that such a test catches)."""
    if os.environ.get("MUTANT_UNDER_TEST") != "stats":
        return
    for module, name in MEMOS:
        if module in sys.modules:
            getattr(sys.modules[module], name).clear()


def pytest_sessionstart(session):
    """Loads what ATLAS_MUTATION_REUSE names ("atlas": ``atlas.datastore.load()`` of data/; "bundle":
    ``atlas.bundle.build`` of that data) once, in the process mutmut forks each mutant's run from, and makes later
    calls with the same arguments return it."""
    reuse = set(filter(None, os.environ.get("ATLAS_MUTATION_REUSE", "").split(",")))
    if not reuse:
        return
    import atlas.bundle
    import atlas.datastore
    from atlas.pages import products
    load = atlas.datastore.load
    if not getattr(load, "reused", False):
        loaded = load()

        def reused_load(root=atlas.datastore.DATA):
            return loaded if Path(root) == Path(atlas.datastore.DATA) else load(root)
        reused_load.reused = True
        atlas.datastore.load = reused_load
        if "bundle" in reuse:
            build = atlas.bundle.build
            built = build(loaded)

            def reused_build(a, *args, **kwargs):
                return built if a is loaded and not args and not kwargs else build(a, *args, **kwargs)
            atlas.bundle.build = products.build_bundle = reused_build


# ---------------------------------------------------------------- command line
def main(argv: list[str] | None = None) -> int:
    """Command line: modules | list | run | report, for one --module, on --all or a --seed/--size sample."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["modules", "list", "run", "report"])
    parser.add_argument("--module", action="append", help="e.g. calculators/footprint.py, atlas/tableview.py; "
                        "repeat it to run several modules in one mutmut run (one statistics run for all)")
    parser.add_argument("--all", action="store_true", help="every mutant of the module, not a sample")
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--size", type=int, default=0,
                        help=f"mutants drawn per module (default: for a margin of +/- {MARGIN:g} points, sample_size)")
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--survivors", action="store_true", help="list the mutants not killed")
    parser.add_argument("--record", action="store_true", help=f"add the score to {SCORES}")
    parser.add_argument("--plain", action="store_true",
                        help="run as before this tool (setup.cfg's tests, nothing reused), to time it")
    parser.add_argument("--only", type=Path,
                        help="run only the mutants this file names (one a line, e.g. the survivors of an earlier run "
                             "whose verdicts mutants/ still holds); report on the whole draw")
    parser.add_argument("--note", help="a note kept with the recorded score (e.g. 'before the tests of ...')")
    args = parser.parse_args(argv)
    if args.command == "modules":
        for path in sorted(Path("calculators").glob("*.py")) + [Path("atlas/tableview.py"), Path("atlas/downloads.py")]:
            print(f"{path}\t{len(mutant_names(str(path)))} mutants\t{len(tests_of(str(path)))} test files")
        return 0
    if not args.module:
        parser.error(f"{args.command} needs --module")
    drawn = {m: draw(m, args.seed, None if args.all else args.size) for m in args.module}
    names = [n for m in args.module for n in drawn[m][0]]
    if args.command == "list":
        print("\n".join(names))
        return 0
    to_run = names
    if args.only:
        only = set(args.only.read_text(encoding="utf-8").split())
        to_run = [n for n in names if n in only]
        if not to_run:
            parser.error(f"--only {args.only}: none of its names is among the mutants drawn")
    wall = run(args.module, to_run, args.max_children, args.plain) if args.command == "run" else None
    entries = [report(m, drawn[m][0], drawn[m][1], args.seed, args.survivors, wall and wall / len(to_run),
                      set(to_run)) for m in args.module]
    if None in entries:
        return 1
    for entry in entries:
        if args.plain:
            entry["tests"] = "setup.cfg [mutmut] as it was, each mutant forked from mutmut's process, nothing reused"
        if args.record:
            record(entry, args.note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
