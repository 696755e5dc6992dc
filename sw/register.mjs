// Every page of a production build (overrides/main.html, data-service-worker="on"): registers the site's service
// worker (sw.js at the site's root, sw/service-worker.mjs) with the browser's own API, and
// * on the first visit, once the worker is active, hands it the files this page used (and, on a calculator page, the
//   files its calculator used once Python is ready), so that they work offline from then on;
// * when a newer build's worker is waiting, says so ("A newer version of the atlas is available: reload") and
//   switches only when the reader asks: the waiting worker is told to take over ({type: "SKIP_WAITING"}, the message
//   Workbox's own page library sends), then the page reloads under it.
// The few calls this needs are the platform's (ServiceWorkerContainer, ServiceWorkerRegistration): workbox-window
// made this script 9.0 KB on every page, which put the errata and coverage pages over the 400 KB a page may move
// before use; this one is about 2 KB.
// Nothing here is needed for the page to work: no service worker (a browser that refuses one, a file:// page, a
// test context that blocks them) leaves the page as it was. With data-service-worker="off" (`make serve`) any
// worker an earlier build registered at this address is unregistered, so that the development server's pages are
// never answered from a build's cache.

const script = document.currentScript;
const root = script ? new URL("../../", script.src) : null;  // assets/js/offline.js -> the site's root

function sameSite(href) {
  try {
    const u = new URL(href, location.href);
    return u.origin === location.origin && u.pathname.startsWith(root.pathname) ? u.href : null;
  } catch (e) {
    return null;
  }
}

/** The files this page used so far, of this site: the page itself, its scripts, styles, images and data. */
function usedFiles() {
  const urls = [location.href];
  for (const e of performance.getEntriesByType("resource")) urls.push(e.name);
  return urls.map(sameSite).filter(Boolean);
}

/** The files a calculator page's worker fetched (performance entries of a worker are its own): read from the code
 * manifest of this build, as pyboot.js names it, by how Python booted (data-boot-from). */
async function calculatorFiles(calc) {
  const boot = document.querySelector("script[data-manifest][data-calculator]");
  if (!boot) return [];
  const assets = new URL("../", script.src);
  const manifestUrl = new URL("py/manifest.json?v=" + boot.getAttribute("data-manifest"), assets);
  const manifest = await (await fetch(manifestUrl)).json();
  const core = new URL("vendor/pyodide/", assets);
  const urls = [manifestUrl.href, new URL(boot.getAttribute("data-worker"), document.baseURI).href];
  for (const name of Object.keys(manifest.core || {})) urls.push(new URL(name, core).href);
  const from = calc.getAttribute("data-boot-from");
  const name = boot.getAttribute("data-calculator");
  // The snapshot too after a boot from the files (a link measured slow, pyworker.mjs chooseBoot): fetched once the
  // result is shown, so that the next visit boots from it without the network (about 1.4 s against a bare Pyodide
  // boot's 3.1 to 3.8 s from the cache, tools/benchmark.py); the slow link then carries it after the reader's result,
  // never before.
  const snap = manifest.snapshot;
  if (snap && (from === "snapshot" || (Array.isArray(snap.calculators) && snap.calculators.includes(name)))) {
    urls.push(new URL("py/" + snap.file, assets).href);
  }
  if (from !== "snapshot") {
    const pack = manifest.packs && manifest.packs[name];
    const data = manifest.bundles && manifest.bundles[name];
    if (pack) urls.push(new URL("py/" + pack.pack, assets).href);
    if (data && data.file) urls.push(new URL("data/" + data.file, assets).href);  // the query page's database
    else if (data) urls.push(new URL("data/" + data.marshal, assets).href, new URL("data/" + data.json, assets).href);
  }
  return urls;
}

/** Resolves once the calculator is ready and not computing (its first run, when the page's address holds inputs,
 * comes at once after "ready"): the files are then kept without taking the reader's first result's time. */
function whenCalculatorIdle(calc) {
  return new Promise((resolve) => {
    const idle = () => calc.getAttribute("data-state") === "ready" && !calc.hasAttribute("data-busy");
    const settle = () => setTimeout(() => { if (idle()) { watch.disconnect(); resolve(); } }, 0);
    const watch = new MutationObserver(settle);
    watch.observe(calc, { attributes: true, attributeFilter: ["data-state", "data-busy"] });
    settle();
  });
}

function announce(reg) {
  if (document.getElementById("atlas-update")) return;
  const box = document.createElement("div");
  box.id = "atlas-update";
  box.className = "atlas-update";
  box.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = "A newer version of the atlas is available: ";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "md-button atlas-update__reload";
  button.textContent = "reload";
  button.addEventListener("click", () => {
    button.disabled = true;
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
    if (reg.waiting) reg.waiting.postMessage({ type: "SKIP_WAITING" });
  });
  box.append(text, button);
  document.body.append(box);
  document.documentElement.setAttribute("data-atlas-update", "waiting");
}

async function start() {
  const mode = script && script.getAttribute("data-service-worker");
  if (!root || !("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  if (mode !== "on") {
    const reg = await navigator.serviceWorker.getRegistration(root.href);
    if (reg && reg.scope === root.href) await reg.unregister();
    return;
  }
  // after the load event, as Workbox's page library does: the page loads first
  if (document.readyState !== "complete") await new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
  const reg = await navigator.serviceWorker.register(new URL("sw.js", root).href, { scope: root.pathname });
  // a newer build's worker installed while this page's worker is in charge waits: say so (also one found waiting now)
  const waiting = () => { if (reg.waiting && navigator.serviceWorker.controller) announce(reg); };
  reg.addEventListener("updatefound", () => {
    const w = reg.installing;
    if (w) w.addEventListener("statechange", () => { if (w.state === "installed") waiting(); });
  });
  waiting();
  const active = reg.active || await new Promise((resolve) => {
    const sw = reg.installing || reg.waiting;
    const check = () => { if (reg.active) resolve(reg.active); };
    if (sw) sw.addEventListener("statechange", check);
    check();
  });
  const send = (urls) => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (ev) => resolve(ev.data);
    active.postMessage({ type: "cache-urls", urls }, [channel.port2]);
  });
  await send(usedFiles());
  // a dataset downloaded before the worker controlled this page is kept too (later ones pass through it)
  document.addEventListener("click", (ev) => {
    const a = ev.target && ev.target.closest ? ev.target.closest("a[href]") : null;
    const href = a && sameSite(a.href);
    if (href && (a.hasAttribute("download") || /\/downloads\//.test(new URL(href).pathname))) send([href]);
  });
  document.documentElement.setAttribute("data-atlas-offline", "page");
  const calc = document.getElementById("atlas-calculator");
  if (calc) {
    await whenCalculatorIdle(calc);
    await send((await calculatorFiles(calc)).concat(usedFiles()));
    document.documentElement.setAttribute("data-atlas-offline", "calculator");
  }
}

start().catch((e) => {
  document.documentElement.setAttribute("data-atlas-offline", "off");
  if (window.console) console.warn("The atlas could not keep its files for offline use:", e && e.message ? e.message : e);
});
