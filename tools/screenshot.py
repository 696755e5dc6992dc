"""Screenshot pages of a served site in Debian's Chromium, blocking every request
that is not to 127.0.0.1: ``python tools/screenshot.py URL OUT.png [--wait-calc]``."""
import sys
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def main(url, out, wait_calc=False, width=1280):
    blocked = []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = b.new_page(viewport={"width": width, "height": 900})

        def route(r):
            host = urlparse(r.request.url).hostname
            if r.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1",):
                return r.continue_()
            blocked.append(r.request.url)
            return r.abort()
        page.route("**/*", route)
        page.goto(url, wait_until="load")
        if wait_calc:
            page.wait_for_selector('#atlas-calculator[data-state="ready"], #atlas-calculator[data-state="failed"]', timeout=90000)
            page.wait_for_timeout(1500)
        else:
            page.wait_for_timeout(1500)
        page.screenshot(path=out, full_page="--viewport" not in sys.argv)
        b.close()
    print("blocked:", len(blocked), blocked[:5])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], "--wait-calc" in sys.argv, int(next((a.split("=")[1] for a in sys.argv if a.startswith("--width=")), 1280)))
