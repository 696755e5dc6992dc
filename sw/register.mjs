// Every page of a production build (overrides/main.html, data-service-worker="on"): registers the site's service
// worker (sw.js at the site's root, sw/service-worker.mjs) with workbox-window, and
// * on the first visit, once the worker is active, hands it the files this page used (and, on a calculator page, the
//   files its calculator used once Python is ready), so that they work offline from then on;
// * when a newer build's worker is waiting, says so ("A newer version of the atlas is available: reload") and
//   switches only when the reader asks: the waiting worker is told to take over (messageSkipWaiting), then the page
//   reloads under it.
// Nothing here is needed for the page to work: no service worker (a browser that refuses one, a file:// page, a
// test context that blocks them) leaves the page as it was. With data-service-worker="off" (`make serve`) any
// worker an earlier build registered at this address is unregistered, so that the development server's pages are
// never answered from a build's cache.
import { Workbox } from "workbox-window";

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
  if (from === "snapshot" && manifest.snapshot) urls.push(new URL("py/" + manifest.snapshot.file, assets).href);
  const name = boot.getAttribute("data-calculator");
  if (from !== "snapshot") {
    const pack = manifest.packs && manifest.packs[name];
    const data = manifest.bundles && manifest.bundles[name];
    if (pack) urls.push(new URL("py/" + pack.pack, assets).href);
    if (data) urls.push(new URL("data/" + data.marshal, assets).href, new URL("data/" + data.json, assets).href);
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

function announce(wb) {
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
    wb.addEventListener("controlling", () => location.reload());
    wb.messageSkipWaiting();
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
  const wb = new Workbox(new URL("sw.js", root).href, { scope: root.pathname });
  wb.addEventListener("waiting", () => announce(wb));
  const reg = await wb.register();  // after the load event (workbox-window's default): the page loads first
  if (!reg) return;
  const sw = await wb.getSW();
  const active = reg.active || await new Promise((resolve) => {
    const check = () => { if (reg.active) resolve(reg.active); };
    sw.addEventListener("statechange", check);
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
