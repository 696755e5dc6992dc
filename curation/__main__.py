"""Regenerate data/<doc>/ from the seeds: ``python -m curation bsf [policy ...]``.

Needs ../shared/seeds beside the repository. The site build and the tests
read only data/, never the seeds.
"""
import importlib
import sys

DOCS = ["bsf", "policy", "nef", "dsr", "shcm"]


def main(argv: list[str]) -> int:
    docs = argv or [d for d in DOCS if importlib.util.find_spec(f"curation.{d}")]
    for d in docs:
        if d not in DOCS:
            print(f"unknown document {d!r}; known: {', '.join(DOCS)}", file=sys.stderr)
            return 2
        mod = importlib.import_module(f"curation.{d}")
        c = mod.curate()
        c.write()
        print(f"{d}: {len(c.tables)} tables, " + ", ".join(f"{k} {len(v)}" for k, v in sorted(c.rows.items()))
              + f", errata {len(c.errata)}, scenarios {len(c.scenarios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
