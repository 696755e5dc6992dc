"""Screenshot pages of a served site in Debian's Chromium, blocking every request
that is not to 127.0.0.1: ``python tools/screenshot.py URL OUT.png [--wait-calc] [--width=PX] [--dark]
[--yours=FILE] [--clip=SELECTOR]``. ``--dark``: Material's dark palette (slate); ``--yours``: chooses FILE (what the
Your deployment page's "Export inputs" wrote) in every "Add my deployment..." control of the page and waits for its
points to be drawn (or refused); ``--clip``: only the element SELECTOR (e.g. ``figure``), with what follows it on
screen (the control)."""
import sys
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def main(url, out, wait_calc=False, width=1280, dark=False, yours=None, clip=None):
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
        if dark:
            page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
        if yours:
            for box in page.query_selector_all(".atlas-yours[data-yours-for]"):
                box.query_selector("input[type=file]").set_input_files(yours)
            page.wait_for_function("() => [...document.querySelectorAll('.atlas-yours')].every(b => "
                                   "b.hasAttribute('data-yours-error') || (b.hasAttribute('data-yours-shown') && "
                                   "document.querySelector('[data-chart-id=\"' + b.getAttribute('data-yours-for') + '\"]')"
                                   ".getAttribute('data-rendered') === 'true'))", timeout=60000)
        if clip:
            top, height = page.locator(clip).first.evaluate("e => { const r = e.getBoundingClientRect(); "
                                                            "return [r.top + window.scrollY, r.height]; }")
            page.screenshot(path=out, full_page=True, clip={"x": 0, "y": max(0, top - 10), "width": width,
                                                             "height": height + 130})
        else:
            page.screenshot(path=out, full_page="--viewport" not in sys.argv)
        b.close()
    print("blocked:", len(blocked), blocked[:5])


if __name__ == "__main__":
    def opt(name, default=None):
        return next((a.split("=", 1)[1] for a in sys.argv if a.startswith(f"--{name}=")), default)
    main(sys.argv[1], sys.argv[2], "--wait-calc" in sys.argv, int(opt("width", 1280)), "--dark" in sys.argv, opt("yours"),
         opt("clip"))
