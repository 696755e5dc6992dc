"""Mutation score of calculators/ from a reproducible random sample of mutmut's mutants.

mutmut (on PyPI, not needed to build or test the site; configuration in setup.cfg [mutmut]) makes
about 15,000 mutants of calculators/, hours of work on two cores, so the score is measured on a
random sample. Run it with the Python that has mutmut installed, from the repository's root:

    /path/to/mutmut-venv/bin/python tools/mutation_sample.py list --seed 20261124      # the names
    /path/to/mutmut-venv/bin/python tools/mutation_sample.py run --seed 20261124       # run, then report
    /path/to/mutmut-venv/bin/python tools/mutation_sample.py report --seed 20261124    # report again
    ... report --names sample.txt --survivors   # the sample `list` wrote, without drawing it again

How the sample is drawn (so that the same seed gives the same names on the same code):
every ``calculators/*.py`` file, sorted by path, is mutated in memory with mutmut's own
``mutate_file_contents`` (the function ``mutmut run`` uses to write ``mutants/``); the mutant keys
(``calculators.dsr.x_run__mutmut_12``) are sorted as strings, and
``random.Random(seed).sample(keys, size)`` picks the sample (size 250 unless ``--size``). A change
to a calculator's code changes its mutants and so the sample.

The samples drawn so far are kept in ``tools/mutation_samples/seed-SEED.txt`` (seed 20261124: drawn from the
15,445 mutants of the code before the DSR profile fix of November 2026; rerun it with ``--names`` on later code,
since a redraw on changed code gives other names; seed 20261125: drawn from the code with that fix).

Cost: on the shared 2-core machine under load (load average 20-37), with ``nice -n 19``, generating the mutants
took 34 minutes and a single mutant's targeted test about 5 minutes of wall time; run it on a quiet machine.

``run`` calls ``nice -n 19 mutmut run --max-children N NAME...`` (N is 2 unless ``--max-children``;
other work shares the machine) and then reports. ``report`` reads mutmut's verdicts from
``mutants/calculators/*.py.meta``: killed, survived, no tests, timeout and the others mutmut names,
the score (killed and timeouts over all checked; "no tests" counts as not killed) with its 95 %
margin (normal approximation, 1.96 * sqrt(p(1-p)/n)), the count by module, and with ``--survivors``
the names of the mutants that were not killed (``mutmut show NAME`` prints each one's diff).

Errors: exits with a message when mutmut is not importable, when run from another directory than
the one holding setup.cfg, or when a sampled name has no verdict yet (``report`` before ``run``).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

DEFAULT_SEED = 20261124
DEFAULT_SIZE = 250
SOURCE = Path("calculators")

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


def all_mutant_names() -> list[str]:
    """Every mutant key mutmut makes of calculators/*.py, sorted as strings.

    Raises SystemExit when mutmut is not installed in this Python or calculators/ is absent.
    """
    try:
        from mutmut.mutation.file_mutation import mutate_file_contents
        from mutmut.utils.format_utils import get_mutant_name
    except ImportError:
        raise SystemExit("mutmut is not importable: run this with the Python that has mutmut installed")
    if not SOURCE.is_dir() or not Path("setup.cfg").is_file():
        raise SystemExit("run from the repository's root (the folder with setup.cfg and calculators/)")
    names = []
    for path in sorted(SOURCE.glob("*.py")):
        mutated = mutate_file_contents(str(path), path.read_text(encoding="utf-8"))
        names.extend(get_mutant_name(path, name) for name in mutated.mutant_names)
    return sorted(names)


def sample(seed: int, size: int) -> tuple[list[str], int]:
    """(sampled names in sampling order, number of mutants in all) for this seed and size."""
    names = all_mutant_names()
    return random.Random(seed).sample(names, min(size, len(names))), len(names)


def verdicts() -> dict[str, int | None]:
    """Exit code by mutant key from mutmut's mutants/calculators/*.py.meta files."""
    found: dict[str, int | None] = {}
    for meta in sorted(Path("mutants", SOURCE).glob("*.py.meta")):
        found.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return found


def module_of(name: str) -> str:
    """'calculators.dsr.x_run__mutmut_3' -> 'dsr'."""
    return name.split(".")[1]


def report(names: list[str], total: int, show_survivors: bool) -> int:
    """Print the sample's verdicts, score, margin and survivors by module; 0 if all were checked."""
    found = verdicts()
    missing = [n for n in names if n not in found or found[n] is None]
    if missing:
        print(f"{len(missing)} sampled mutants have no verdict yet (run first), e.g. {missing[0]}",
              file=sys.stderr)
        return 1
    status = {n: status_of(found[n]) for n in names}
    counts = Counter(status.values())
    n = len(names)
    killed = counts["killed"] + counts["timeout"]
    p = killed / n
    margin = 1.96 * math.sqrt(p * (1 - p) / n)
    print(f"sample of {n} from {total} mutants in calculators/")
    print(", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    print(f"score: {killed}/{n} = {100 * p:.1f} % killed (95 % margin +/- {100 * margin:.1f} %)")
    by_module: dict[str, Counter] = defaultdict(Counter)
    for name, s in status.items():
        by_module[module_of(name)][s] += 1
    print("module: not killed / sampled")
    for module, c in sorted(by_module.items(), key=lambda kv: -(sum(kv[1].values()) - kv[1]["killed"] - kv[1]["timeout"])):
        total_m = sum(c.values())
        print(f"  {module}: {total_m - c['killed'] - c['timeout']} / {total_m}")
    if show_survivors:
        for name in sorted(names):
            if status[name] not in ("killed", "timeout"):
                print(f"{status[name]}\t{name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command line: list | run | report, with --seed, --size, --max-children, --survivors."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["list", "run", "report"])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--size", type=int, default=DEFAULT_SIZE)
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--survivors", action="store_true", help="list the mutants not killed")
    parser.add_argument("--names", type=Path,
                        help="read the sample from this file (one name a line, as `list` wrote it) "
                             "instead of drawing it again, which takes minutes")
    args = parser.parse_args(argv)
    if args.names:
        names = args.names.read_text(encoding="utf-8").split()
        total = len(verdicts()) or len(names)
    else:
        names, total = sample(args.seed, args.size)
    if args.command == "list":
        print("\n".join(names))
        return 0
    if args.command == "run":
        mutmut = Path(sys.executable).with_name("mutmut")
        command = [str(mutmut) if mutmut.exists() else "mutmut", "run",
                   "--max-children", str(args.max_children), *names]
        if shutil.which("nice"):
            command = ["nice", "-n", "19", *command]
        subprocess.run(command, check=False)
    return report(names, total, args.survivors)


if __name__ == "__main__":
    sys.exit(main())
