#!/usr/bin/env bash
# Install everything the site and its tests need, idempotently, from pinned and hashed sources:
#   - a Python venv in .venv; its pip at the version of requirements-pip.lock, then the build's
#     packages from requirements.lock (and with --browser the tests' from requirements-test.lock),
#     every file checked against the lock's sha256 hashes (pip --require-hashes)
#   - the browser packages from package-lock.json (npm ci, install scripts off: none is needed)
#   - Debian's chromium for the browser tests, and nginx, apache2 and caddy for the Hosting tests (only with --browser)
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
PIP=(.venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps)
# Installs lock file $1 unless the stamp .venv/.installed-<name> is newer than it.
install_lock() {
  local lock=$1 stamp=.venv/.installed-${1%.lock}
  if [ ! -f "$stamp" ] || [ "$lock" -nt "$stamp" ]; then
    echo "setup: installing Python packages from $lock (hash-checked)"
    "${PIP[@]}" -r "$lock"
    touch "$stamp"
  fi
}
install_lock requirements-pip.lock
install_lock requirements.lock
[ "$want_browser" = 1 ] && install_lock requirements-test.lock
if [ -L node_modules ]; then
  # npm ci empties node_modules through the link (another checkout's packages) before replacing it
  echo "setup: node_modules is a link to $(readlink node_modules): left as it is (npm ci not run)"
elif [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing browser packages (npm ci, no install scripts)"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
fi
# With --browser: Debian's chromium for the browser tests, and the three web servers whose configurations the
# Hosting page prints (nginx, Apache, Caddy): tests/test_precompress.py runs each as printed (skipped without them)
if [ "$want_browser" = 1 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  updated=0
  apt_install() {  # apt_install PACKAGE...: once per run, the package lists first
    [ "$updated" = 1 ] || { $SUDO apt-get update -qq; updated=1; }
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
  }
  if [ ! -x /usr/bin/chromium ]; then
    echo "setup: installing Debian's chromium for the browser tests"
    apt_install chromium
  fi
  servers=()
  [ -x /usr/sbin/nginx ] || servers+=(nginx)
  [ -x /usr/sbin/apache2 ] || servers+=(apache2)
  [ -x /usr/bin/caddy ] || servers+=(caddy)
  if [ ${#servers[@]} -gt 0 ]; then
    echo "setup: installing Debian's ${servers[*]} for the Hosting tests"
    # Where an init system runs, the packages start their services and the second on port 80 fails to: the tests
    # only need the programs (they start each on a port of their own), so that failure does not stop the set-up.
    apt_install "${servers[@]}" || echo "setup: apt-get reported an error installing ${servers[*]} (a service that could not start?); the tests use the programs only"
  fi
fi
exit 0
