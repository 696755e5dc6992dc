# The two commands of the README:
#   make serve  - set up and serve the site with the bundled data on http://127.0.0.1:8000
#   make test   - set up (Python deps, npm packages, Debian chromium) and run the whole test suite
.PHONY: serve test build bench setup
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = 1
export NO_MKDOCS_2_WARNING = 1

serve:
	tools/setup.sh
	.venv/bin/python -m atlas serve --dev-addr 127.0.0.1:8000

test:
	tools/setup.sh --browser
	.venv/bin/python -m pytest

build:
	tools/setup.sh
	.venv/bin/python -m atlas build

bench:
	tools/setup.sh --browser
	.venv/bin/python tools/benchmark.py
