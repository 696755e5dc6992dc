"""The build's command line (``make build``, ``make serve`` and the tests call it):

    python -m atlas build [-d SITE] [--docs-dir DIR] [-v]   every step, then MkDocs, into SITE (default site/)
    python -m atlas prepare [--docs-dir DIR]                 steps 1-6 only: the docs tree MkDocs renders
    python -m atlas serve [--dev-addr 127.0.0.1:8000]        prepare, then serve with live reload
    python -m atlas steps                                     list the steps

ATLAS_DATA names another data folder of the same shape; ATLAS_NODE_MODULES another node_modules.
A failing step prints "Build step '<name>' failed: ..." and exits with 1.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from atlas import pipeline  # noqa: E402

WATCHED = ("docs", "data", "calculators", "atlas", "curation", "mkdocs.yml")
"""What ``serve`` watches: a change re-runs the steps before MkDocs reloads the page."""


def _snapshot() -> dict:
    out = {}
    for name in WATCHED:
        p = ROOT / name
        for f in ([p] if p.is_file() else p.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts:
                st = f.stat()
                out[str(f)] = (st.st_mtime_ns, st.st_size)
    return out


def _watch(docs_dir: Path, stop: threading.Event) -> None:
    """Re-run the steps (in a new interpreter, so code changes count too) when a watched file changes;
    MkDocs then sees the changed docs tree and reloads. A failing step is printed, the server keeps going."""
    seen = _snapshot()
    while not stop.wait(1.0):
        now = _snapshot()
        if now == seen:
            continue
        seen = now
        r = subprocess.run([sys.executable, "-m", "atlas", "prepare", "--docs-dir", str(docs_dir)], cwd=ROOT)
        if r.returncode == 0:
            print("atlas: docs tree updated", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run the command line (``argv``: the arguments, default sys.argv[1:]). Returns the exit status: 0, or 1 when a
    build step failed (its message printed on stderr)."""
    ap = argparse.ArgumentParser(prog="python -m atlas", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="every step, then MkDocs")
    b.add_argument("-d", "--site-dir", type=Path, default=ROOT / "site")
    b.add_argument("--docs-dir", type=Path, default=pipeline.DOCS_TREE)
    b.add_argument("-v", "--verbose", action="store_true", help="MkDocs' own progress too")
    p = sub.add_parser("prepare", help="steps 1-6: the docs tree MkDocs renders")
    p.add_argument("--docs-dir", type=Path, default=pipeline.DOCS_TREE)
    s = sub.add_parser("serve", help="prepare, then serve with live reload")
    s.add_argument("--dev-addr", default="127.0.0.1:8000")
    s.add_argument("--docs-dir", type=Path, default=pipeline.DOCS_TREE)
    sub.add_parser("steps", help="list the steps")
    a = ap.parse_args(argv)
    try:
        if a.command == "steps":
            print("\n".join(f"{i}. {n}" for i, n in enumerate(pipeline.STEPS, 1)))
        elif a.command == "prepare":
            pipeline.prepare(a.docs_dir)
        elif a.command == "build":
            t0 = time.perf_counter()
            done = pipeline.build(a.site_dir, a.docs_dir, verbose=a.verbose)
            times = ", ".join(f"{n} {t:.1f} s" for n, t in done.seconds.items())
            print(f"atlas: built {a.site_dir} in {time.perf_counter() - t0:.1f} s ({times})", file=sys.stderr)
        elif a.command == "serve":
            pipeline.prepare(a.docs_dir)
            stop = threading.Event()
            threading.Thread(target=_watch, args=(a.docs_dir.resolve(), stop), daemon=True).start()
            from mkdocs.commands.serve import serve
            from mkdocs.config import load_config
            pipeline._mkdocs_logging(verbose=True)
            docs = a.docs_dir.resolve()
            # MkDocs serve loads the configuration again for every rebuild, with these values over the file's.
            extra = pipeline.mkdocs_extra(docs, dict(load_config(str(pipeline.CONFIG), docs_dir=str(docs))["extra"]))
            try:
                serve(str(pipeline.CONFIG), dev_addr=a.dev_addr, docs_dir=str(docs), extra=extra)
            finally:
                stop.set()
    except pipeline.StepFailed as e:
        print(f"ERROR: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
