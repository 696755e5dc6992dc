// The site's service worker (sw.js at the site's root; bundled with Workbox by tools/bundle_sw.mjs in the build step
// "service worker", atlas/offline.py). It keeps what a reader used so that the same pages, calculators and downloads
// work again without the network, and it never mixes two builds:
//
// * One cache per build, "atlas-<build id>". The build id and every unhashed file's SHA-256 (its first 16 hex digits)
//   are written into this script by the build (ATLAS_BUILD below), so the script's bytes change with every build that
//   changes a file, which is how the browser finds a newer build (it compares sw.js byte for byte on navigation).
// * Files named by their content (a ?v= address, or a hash before the extension: the code packs, the data bundles, the
//   snapshot, Material's bundle): cache first. The name is the content, so a copy is right for any page of any build.
// * Every other file of the site (pages, Pyodide's core files, the downloads, the search index): network first, and
//   kept only when its bytes are this build's (its SHA-256 is the one the build wrote here). When the network
//   answers with another build's bytes, a page of this build gets this build's copy if one was kept: a newer build is
//   on the server, the browser is installing its worker, and the page says so (sw/register.mjs); it switches when
//   the reader reloads. With no network, the kept copy.
// * A page this build never kept, that the server now answers from a newer build, is shown as the server sent it,
//   and every request of that page then goes to the network only (never to this build's cache).
// * Installed while a page already ran (the first visit): the page sends the files it used ("cache-urls") and they
//   are kept the same way; the browser's HTTP cache usually has them, so little is fetched again.
// * A newer worker waits until the page asks it to take over ("SKIP_WAITING", the message sw/register.mjs sends when the reader clicks reload);
//   it then deletes every older "atlas-" cache.
import { clientsClaim } from "workbox-core";
import { registerRoute, setCatchHandler } from "workbox-routing";
import { CacheFirst, Strategy } from "workbox-strategies";

/* global ATLAS_BUILD */
const BUILD = ATLAS_BUILD;  // {id, files: {path under the site root: first 16 hex digits of its SHA-256}}
const CACHE = "atlas-" + BUILD.id;
const ROOT = new URL("./", self.location.href);
const HASHED_NAME = /\.[0-9a-f]{8,64}\.[^/]*$/;  // code.footprint.ffe51546bf3b.pack, bundle.0123abcd.min.js
const foreign = new Set();  // ids of clients showing a page of another build (network only)

/** The path of ``url`` under the site's root ("" for another origin or outside it), a directory as its index.html. */
function sitePath(url) {
  if (url.origin !== ROOT.origin || !url.pathname.startsWith(ROOT.pathname)) return "";
  const path = decodeURIComponent(url.pathname.slice(ROOT.pathname.length));
  return path === "" || path.endsWith("/") ? path + "index.html" : path;
}
/** True for a file named by its content: any build's copy is the right one. */
function hashedName(url) {
  return url.searchParams.has("v") || (HASHED_NAME.test(url.pathname) && !(sitePath(url) in BUILD.files));
}
/** The cache key of an unhashed file: its address without the query (a calculator's inputs live there). */
function keyOf(url) {
  const u = new URL(url.href);
  u.search = "";
  u.hash = "";
  return u.href;
}
async function revision(response) {
  const digest = await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer());
  return Array.from(new Uint8Array(digest).slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}
/** Whether ``response`` holds this build's bytes of the file at ``path``. */
async function ofThisBuild(path, response) {
  return response.ok && response.status === 200 && BUILD.files[path] === await revision(response);
}

/** Network first for the unhashed files of this build: a response is kept only when its bytes are this build's;
 * another build's answer gives way to this build's kept copy (see the top of this file). */
class ThisBuildNetworkFirst extends Strategy {
  async _handle(request, handler) {
    const url = new URL(request.url);
    const path = sitePath(url);
    const key = keyOf(url);
    const event = handler.event;
    if (event && foreign.has(event.clientId)) return handler.fetch(request);
    let response = null;
    let failure = null;
    try {
      response = await handler.fetch(request);
    } catch (e) {
      failure = e;
    }
    if (response && await ofThisBuild(path, response)) {
      await handler.cachePut(key, response.clone());
      return response;
    }
    const kept = await handler.cacheMatch(key);
    if (kept && (!response || response.ok)) {
      // another build's bytes (or none): this build's copy; a server error or 404 is passed on as it is
      if (response && response.ok) self.registration.update().catch(() => {});
      return kept;
    }
    if (response) {
      if (request.mode === "navigate" && event && event.resultingClientId && response.ok) foreign.add(event.resultingClientId);
      return response;
    }
    throw failure;
  }
}

// Only this site's own files, GET (the calculator's HEAD checks below): anything else is not handled here.
const own = ({ url }) => sitePath(url) !== "" && !url.pathname.endsWith("/sw.js");
registerRoute(({ url, request }) => own({ url }) && hashedName(url) && request.mode !== "navigate",
  new CacheFirst({ cacheName: CACHE }));
registerRoute(({ url }) => own({ url }), new ThisBuildNetworkFirst({ cacheName: CACHE }));

// HEAD (the calculator checks Pyodide's core files with it): the network's answer, or offline the kept copy's headers.
registerRoute(({ url }) => own({ url }), async ({ request }) => {
  try {
    return await fetch(request);
  } catch (e) {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(keyOf(new URL(request.url))) || await cache.match(request.url, { ignoreMethod: true });
    if (!kept) throw e;
    return new Response(null, { status: kept.status, statusText: kept.statusText, headers: kept.headers });
  }
}, "HEAD");

// A page this browser has no copy of, with no network: a page that says so (plain HTML: no script, no style, as the
// site's Content-Security-Policy wants), linking the home page; anything else fails as a network error.
const NOT_KEPT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Not available offline - Benchmark Atlas</title>
<h1>Not available offline</h1>
<p>This page of the Benchmark Atlas was not opened while this browser was online, so it has no copy of it.
The pages, calculators and downloads you opened before work offline; this one opens once the network is back.</p>
<p><a href="${ROOT.href}">The atlas's home page</a></p></html>`;
setCatchHandler(async ({ request }) => (request.mode === "navigate"
  ? new Response(NOT_KEPT, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } })
  : Response.error()));

/** Keep ``urls`` (the files a page used before this worker controlled it) as the routes above would have. */
async function keep(urls) {
  const cache = await caches.open(CACHE);
  for (const href of urls) {
    let url;
    try {
      url = new URL(href, ROOT);
    } catch (e) {
      continue;
    }
    if (!own({ url })) continue;
    const hashed = hashedName(url);
    const key = hashed ? url.href : keyOf(url);
    if (await cache.match(key)) continue;
    try {
      const response = await fetch(url.href);
      if (hashed ? response.status === 200 : await ofThisBuild(sitePath(url), response)) await cache.put(key, response);
    } catch (e) {
      // not reachable now: kept on its next use instead
    }
  }
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "SKIP_WAITING") self.skipWaiting();
  else if (data.type === "cache-urls" && Array.isArray(data.urls)) {
    const done = keep(data.urls).then(() => {
      if (event.ports && event.ports[0]) event.ports[0].postMessage({ type: "kept", build: BUILD.id });
    });
    event.waitUntil(done);
  } else if (data.type === "GET_VERSION" && event.ports && event.ports[0]) {
    event.ports[0].postMessage({ type: "version", build: BUILD.id });
  }
});

self.addEventListener("install", () => {
  // the first worker of this site takes over at once (there is no build to mix with); a newer one waits
  if (!self.registration.active) self.skipWaiting();
});
clientsClaim();
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((n) => n.startsWith("atlas-") && n !== CACHE).map((n) => caches.delete(n)))));
});
