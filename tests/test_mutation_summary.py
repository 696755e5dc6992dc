"""tools/benchmark.py's per-module mutation summary: which recorded score counts for the 85 % goal (a draw's first
measure, or an exhaustive run newer than it), on made-up records worked out by hand."""
from __future__ import annotations

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import benchmark  # noqa: E402  (tools/ is not a package)


def entry(module, seed, sample, mutants, killed, score, margin=0.0, note=""):
    return {"module": module, "seed": seed, "sample": sample, "mutants": mutants, "killed": killed,
            "survived": sample - killed, "timeout": 0, "no_tests": 0, "other": 0, "score_percent": score,
            "margin_percent": margin, "seconds_per_mutant": 1.0, "date": "2026-11-27", "commit": "abc", "note": note}


RECORDS = [
    # a.py: draw 1 first measured at 70 %, re-run after its tests at 100 % (does not count); draw 2 first at 90 %
    entry("calculators/a.py", 1, 40, 500, 28, 70.0, 14.0), entry("calculators/a.py", 1, 40, 500, 40, 100.0),
    entry("calculators/a.py", 2, 40, 500, 36, 90.0, 9.0), entry("calculators/a.py", 2, 40, 500, 40, 100.0),
    # b.py: every mutant run at 0 %, then a newer draw at 80 %: the draw is newer, so it counts (under the goal)
    entry("calculators/b.py", None, 100, 100, 0, 0.0), entry("calculators/b.py", 3, 40, 100, 32, 80.0, 10.0),
    # c.py: a draw at 50 %, then every mutant run at 86 %: the exhaustive run is newer and counts
    entry("calculators/c.py", 4, 40, 60, 20, 50.0, 9.0), entry("calculators/c.py", None, 60, 60, 52, 86.7),
    # d.py: the newest draw is the highest seed, whatever order it was recorded in; 85.0 meets the goal
    entry("calculators/d.py", 9, 40, 300, 34, 85.0, 11.0), entry("calculators/d.py", 5, 40, 300, 30, 75.0, 13.0),
]


def test_the_score_that_counts_per_module():
    got = {m["module"]: m for m in benchmark.mutation_summary(RECORDS)}
    assert list(got) == ["calculators/a.py", "calculators/b.py", "calculators/c.py", "calculators/d.py"]
    a, b, c, d = got.values()
    assert a["newest"] == {"seed": 2, "score_percent": 90.0, "margin_percent": 9.0, "sample": 40, "mutants": 500}
    assert a["draws"] == [(1, 70.0), (2, 90.0)] and a["exhaustive"] is None and a["meets_goal"] is True
    assert b["newest"]["score_percent"] == 80.0 and b["exhaustive"] is None and b["meets_goal"] is False
    assert c["exhaustive"]["score_percent"] == 86.7 and c["draws"] == [(4, 50.0)] and c["meets_goal"] is True
    assert d["newest"]["seed"] == 9 and d["draws"] == [(5, 75.0), (9, 85.0)] and d["meets_goal"] is True


def test_the_summary_table_says_what_counts_and_how_many_modules_meet_the_goal():
    lines = benchmark.mutation_summary_table(benchmark.mutation_summary(RECORDS)).splitlines()
    rows = {line.split()[0]: " ".join(line.split()) for line in lines[2:-1]}
    assert rows["calculators/a.py"] == "calculators/a.py draw 2, 40 of 500 90.0 +/- 9.0 met 1: 70.0, 2: 90.0"
    assert rows["calculators/b.py"] == "calculators/b.py draw 3, 40 of 100 80.0 +/- 10.0 under 3: 80.0"
    assert rows["calculators/c.py"] == "calculators/c.py all 60 mutants 86.7 met 4: 50.0"
    assert lines[-1] == "3 of 4 modules at or above 85 % on the figure that counts."


def test_no_records_no_summary():
    assert benchmark.mutation_summary([]) == []
