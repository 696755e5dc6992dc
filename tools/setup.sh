#!/usr/bin/env bash
# Install everything the site and its tests need, idempotently:
#   - a Python venv in .venv from requirements.lock (pinned, full set)
#   - the browser packages from package-lock.json (npm ci)
#   - Debian's chromium for the browser tests (only with --browser)
# Playwright never downloads a browser here: tests use /usr/bin/chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
want_browser=0
[ "${1:-}" = "--browser" ] && want_browser=1

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PY" -m venv .venv
fi
if [ ! -f .venv/.installed ] || [ requirements.lock -nt .venv/.installed ]; then
  echo "setup: installing Python packages from requirements.lock"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
  touch .venv/.installed
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing browser packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
if [ "$want_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  echo "setup: installing Debian's chromium for the browser tests"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
