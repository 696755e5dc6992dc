"""Regenerate data/<doc>/ from the seeds: ``python -m curation bsf [policy ...]``.

The documents are the ids of data/sources.yaml that have a ``curation.<id>``
module, in sources.yaml order; with no argument every one is curated. Needs
the seeds (../shared/seeds beside the repository, or $ATLAS_SEEDS). The site
build and the tests read only data/, never the seeds.
"""
import importlib
import importlib.util
import sys

from .common import sources

DOCS = [s["id"] for s in sources() if importlib.util.find_spec(f"curation.{s['id']}")]


def main(argv: list[str]) -> int:
    docs = argv or DOCS
    for d in docs:
        if d not in DOCS:
            print(f"unknown document {d!r}; known: {', '.join(DOCS)} (the ids of data/sources.yaml with a "
                  f"curation.<id> module)", file=sys.stderr)
            return 2
    for d in docs:
        mod = importlib.import_module(f"curation.{d}")
        c = mod.curate()
        c.write()
        print(f"{d}: {len(c.tables)} tables, " + ", ".join(f"{k} {len(v)}" for k, v in sorted(c.rows.items()))
              + f", errata {len(c.errata)}, scenarios {len(c.scenarios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
