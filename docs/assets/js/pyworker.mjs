// Module Web Worker: boots Pyodide from this site and runs calculators.catalogue.
// Every URL is resolved from this file's own URL, so the site works at any path.
// The worker's name (new Worker(url, {name})) is the page's calculator: the worker then loads
// that calculator's slice of the data bundle and imports its module while booting.
//
// A boot failure is reported as {type: "boot-error", file, message, hint, detail}: the file that
// failed (its path under the site), what is wrong with it in plain words, what to do, and the
// technical text (a Python traceback, a browser error) for a "Details" toggle. The core files are
// checked first with HEAD requests (status, size against the manifest, Content-Type), in parallel
// with the boot: a .wasm served with the wrong type makes Pyodide hang without ever failing.
//
// No byte is trusted by its name (fetchVerified): every file this worker fetches, and Pyodide's own
// WebAssembly and standard library, is checked against the size and full SHA-256 that manifest.json
// gives, and manifest.json against the hash the page names it by, before it is used. While files
// arrive, the page is told how many bytes of each have come ({type: "transfer"}), and which file has
// sent nothing for STALL_MS.
const assets = new URL("../", import.meta.url);
const core = new URL("vendor/pyodide/", assets);
const calc = /^[a-z]+$/.test(self.name || "") ? self.name : null;
const HOSTING = "about/hosting/";
let api = null;
let runs = 0;
let lastResult = null;  // the id of the newest run that gave a result: the one whose downloads can be written
let downloadsWritten = 0;
let heap = () => null;
// A run error that leaves Python's heap (the WebAssembly memory) larger than this restarts Python (see onmessage):
// 1 GiB, about 34 times the 30 MiB the footprint calculator's heap measures after booting and a run (tests).
const HEAP_RESTART_BYTES = 2 ** 30;
let bootedFrom = null;  // "snapshot" or "files", once ready
let bootWhy = null;  // why that boot was chosen (chooseBoot)
// The browser's fetch, for this worker's own requests; Pyodide's go through the watching fetch (watchPyodideFetches).
const nativeFetch = self.fetch.bind(self);

function progress(stage, detail) {
  postMessage({ type: "progress", stage, detail });
}

/** A boot failure naming its file: ``url`` (a URL of this site), ``message`` (what is wrong, plain
 * words), ``hint`` (what to do; ``hosting``: true when the Hosting page says how), ``detail``. */
class BootError extends Error {
  constructor(url, message, hint, detail, hosting) {
    super(message);
    this.file = url ? sitePath(url) : "";
    this.hint = hint || "";
    this.detail = detail || "";
    this.hosting = !!hosting;
  }
  /** The whole text, file first, as a snapshot's failure is reported (data-snapshot-error). */
  get text() {
    return (this.file ? this.file + " " : "") + this.message;
  }
}
function sitePath(url) {
  const u = new URL(url);
  const root = new URL("../", assets);
  const href = u.origin + u.pathname;  // without ?v=: the file, not its version
  return href.startsWith(root.href) ? href.slice(root.href.length) : u.pathname;
}
const REBUILD = "Copy the whole built site to the server again (or rebuild it with make build).";
// A content-hashed file that is gone: the page was most likely loaded before the site was updated.
const RELOAD = "Reload the page: the site may have been updated since it was loaded. If that does not help, copy the whole built site to the server again.";
// Bytes that are not the build's under the build's name: an old copy kept by a cache, or a site replaced half-way.
const STALE = "A cache or proxy between you and the server may hold an old copy, or the site was being replaced: reload the page. If that does not help, copy the whole built site to the server again.";
const lastLine = (text) => String(text).trim().split("\n").filter((l) => l.trim()).pop() || "unknown error";
const errText = (err) => String(err && err.message ? err.message : err);
const mb = (n) => (n / 1e6).toFixed(1);

// --- SHA-256 ---------------------------------------------------------------------------------------------
// Web Crypto (crypto.subtle.digest) where the browser offers it: only in a secure context (https, or http on
// localhost or 127.0.0.1), and not incremental (the whole file at once; it runs off this thread). Elsewhere (a
// plain-HTTP intranet address) Sha256 below, fed as the bytes arrive. fetch's own `integrity` option was not used:
// with it the browser hands over nothing until the whole body has arrived and matched (Fetch standard, main fetch:
// the body is fully read, then checked), so no progress by bytes could be shown, and a mismatch is only a
// "Failed to fetch" network error that names neither hash.
const subtle = self.crypto && self.crypto.subtle && typeof self.crypto.subtle.digest === "function" ? self.crypto.subtle : null;
const verifiedWith = subtle ? "Web Crypto" : "script";
const hashMs = {};  // file -> ms spent computing its SHA-256, sent with "ready" (the benchmark reports the snapshot's)
// sha256 begin (tests/test_fetch_trust.py runs this part in Node against hashlib)
/** SHA-256 (FIPS 180-4) in JavaScript for where Web Crypto is not offered: ``new Sha256().update(bytes)…hex()``,
 * ``update`` as often as chunks arrive (Uint8Array), ``hex()`` once at the end (64 hex digits). */
const SHA256_K = Int32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2);
class Sha256 {
  constructor() {
    this.h = Int32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);
    this.w = new Int32Array(64);
    this.tail = new Uint8Array(64);  // the bytes of an unfinished 64-byte block
    this.kept = 0;
    this.length = 0;  // bytes given so far
  }
  update(bytes) {
    let i = 0;
    const n = bytes.length;
    this.length += n;
    if (this.kept) {
      const take = Math.min(64 - this.kept, n);
      this.tail.set(bytes.subarray(0, take), this.kept);
      this.kept += take;
      i = take;
      if (this.kept < 64) return this;
      this.blocks(this.tail, 0, 64);
      this.kept = 0;
    }
    const end = i + ((n - i) & ~63);
    if (end > i) this.blocks(bytes, i, end);
    if (end < n) {
      this.tail.set(bytes.subarray(end), 0);
      this.kept = n - end;
    }
    return this;
  }
  blocks(b, from, to) {
    const w = this.w, h = this.h, k = SHA256_K;
    let h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], h5 = h[5], h6 = h[6], h7 = h[7];
    for (let p = from; p < to; p += 64) {
      for (let t = 0; t < 16; t++) {
        const o = p + 4 * t;
        w[t] = (b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];
      }
      for (let t = 16; t < 64; t++) {
        const x = w[t - 15], y = w[t - 2];
        const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
        const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
      }
      let a = h0, bb = h1, c = h2, d = h3, e = h4, f = h5, g = h6, hh = h7;
      for (let t = 0; t < 64; t++) {
        const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        const t1 = (hh + S1 + ((e & f) ^ (~e & g)) + k[t] + w[t]) | 0;
        const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        const t2 = (S0 + ((a & bb) ^ (a & c) ^ (bb & c))) | 0;
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = bb; bb = a; a = (t1 + t2) | 0;
      }
      h0 = (h0 + a) | 0; h1 = (h1 + bb) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0;
      h4 = (h4 + e) | 0; h5 = (h5 + f) | 0; h6 = (h6 + g) | 0; h7 = (h7 + hh) | 0;
    }
    h[0] = h0; h[1] = h1; h[2] = h2; h[3] = h3; h[4] = h4; h[5] = h5; h[6] = h6; h[7] = h7;
  }
  hex() {
    const bits = this.length * 8;
    const pad = new Uint8Array((this.kept < 56 ? 64 : 128) - this.kept);
    pad[0] = 0x80;
    const view = new DataView(pad.buffer);
    view.setUint32(pad.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(pad.length - 4, bits >>> 0);
    this.update(pad);
    return Array.from(this.h, (x) => (x >>> 0).toString(16).padStart(8, "0")).join("");
  }
}
// sha256 end
/** The SHA-256 of ``bytes`` as 64 hex digits: Web Crypto's, or ``hasher``'s (a Sha256 fed the same bytes as they
 * came), or a Sha256 of them now. */
async function sha256Hex(bytes, hasher) {
  if (subtle) return Array.from(new Uint8Array(await subtle.digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
  return (hasher || new Sha256().update(bytes)).hex();
}

// --- bytes received, and files that stop arriving -----------------------------------------------------------
// Each file being fetched is a transfer: its bytes received, its size when known (manifest.json), and when its
// last bytes came. The page gets them all ({type: "transfer", files}) at most every TRANSFER_REPORT_MS while
// bytes come, and at once when a file has sent nothing for STALL_MS since its request or its last bytes (then it
// is "stalled", and its bytes resume it). Nothing is given up on here: a slow link may resume, and the page keeps
// its overall boot limit (60 s). A timer that fires late (this thread was busy, e.g. compiling) first lets bytes
// that came meanwhile be counted: a busy worker is not a stalled link.
const STALL_MS = 5000;
const TRANSFER_REPORT_MS = 250;
const transfers = new Map();
let transferReport = null;
function reportTransfers(now) {
  if (now) {
    clearTimeout(transferReport);
    transferReport = null;
  } else if (transferReport !== null) {
    return;
  }
  const send = () => {
    transferReport = null;
    postMessage({ type: "transfer", files: Array.from(transfers.values(), (t) => ({
      file: t.file, got: t.got, total: t.total, done: t.done, counted: t.counted,
      stalled: t.stalled, idleMs: Math.round(performance.now() - t.last),
    })) });
  };
  if (now) send();
  else transferReport = setTimeout(send, TRANSFER_REPORT_MS);
}
/** A transfer of ``url`` starting now: ``total`` bytes expected (or null until known); ``counted``: false for a
 * JavaScript module, whose bytes the worker cannot see (only whether it has come). */
function transferStart(url, total, counted = true) {
  // at, encoding, encodedLength: when the response began and how it was sent (set by the watching fetch: inFlight)
  const t = { file: sitePath(url), href: new URL(url).href, got: 0, total: total || null, done: false, counted,
              stalled: false, last: performance.now(), timer: null, late: false, hashMs: 0, at: null, encoding: false,
              encodedLength: null };
  transfers.set(t.file + "#" + transfers.size, t);
  armStall(t);
  reportTransfers(false);
  return t;
}
function armStall(t) {
  clearTimeout(t.timer);
  const due = t.last + STALL_MS;
  t.timer = setTimeout(() => {  // at 1 ms at least: a timer may fire a little before its time
    if (t.done) return;
    const now = performance.now();
    if (now - due > 500 && !t.late) {  // fired late: count what came meanwhile first
      t.late = true;
      t.timer = setTimeout(() => { t.late = false; armStallCheck(t); }, 0);
      return;
    }
    armStallCheck(t);
  }, Math.max(1, due - performance.now()));
}
function armStallCheck(t) {
  if (t.done) return;
  if (performance.now() - t.last < STALL_MS) {  // bytes came meanwhile, or the timer fired a little early
    armStall(t);
    return;
  }
  if (!t.stalled) {
    t.stalled = true;
    reportTransfers(true);
  }
}
function transferBytes(t, n) {
  t.got += n;
  t.last = performance.now();
  t.late = false;
  if (t.stalled) {
    t.stalled = false;
    reportTransfers(true);
  } else {
    reportTransfers(false);
  }
  armStall(t);
}
function transferEnd(t) {
  if (t.done) return;
  t.done = true;
  t.stalled = false;
  clearTimeout(t.timer);
  reportTransfers(true);
}

/** The body of ``resp`` as one Uint8Array, counted into transfer ``t`` as it arrives (and fed to ``hasher``, if
 * any). ``expected``: the byte size the build wrote, to hold the body in one buffer of that size (more bytes than
 * that are still read, so the size can be reported). */
async function readBody(resp, t, expected, hasher) {
  if (!resp.body) {
    const bytes = new Uint8Array(await resp.arrayBuffer());
    transferBytes(t, bytes.length);
    if (hasher) {
      const h0 = performance.now();
      hasher.update(bytes);
      t.hashMs += performance.now() - h0;
    }
    return bytes;
  }
  const reader = resp.body.getReader();
  let buf = new Uint8Array(expected || 0), got = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (got + value.length > buf.length) {  // more than expected (or no size known): grow
      const bigger = new Uint8Array(Math.max(buf.length * 2, got + value.length, 65536));
      bigger.set(buf.subarray(0, got));
      buf = bigger;
    }
    buf.set(value, got);
    got += value.length;
    if (hasher) {
      const h0 = performance.now();
      hasher.update(value);
      t.hashMs += performance.now() - h0;
    }
    transferBytes(t, value.length);
  }
  return got === buf.length ? buf : buf.subarray(0, got);
}

/** ``bytes`` of ``url`` checked against ``expect`` ({bytes, sha256}: the size and full SHA-256 the build wrote;
 * or {prefix}: the start of its SHA-256, as the page names manifest.json). Throws a BootError naming the file,
 * the hash expected and the hash got when they differ, or saying it is empty (as checkCore's HEAD request does: a
 * body of 0 bytes is an empty file on the server, not a stale copy). ``hashed``: ms already spent feeding
 * ``hasher`` (counted in hashMs, with the rest). */
async function verify(url, bytes, expect, hasher, hashed = 0) {
  if (expect.bytes && !bytes.length) throw new BootError(url, "is empty (0 bytes).", REBUILD);
  if (expect.bytes !== undefined && bytes.length !== expect.bytes) {
    throw new BootError(url, `is ${bytes.length.toLocaleString("en")} bytes where the build wrote ${expect.bytes.toLocaleString("en")}: it is truncated, or not this build's.`,
      STALE, `expected ${expect.bytes} bytes with SHA-256 ${expect.sha256}\ngot ${bytes.length} bytes`);
  }
  const t0 = performance.now();
  const got = await sha256Hex(bytes, hasher);
  hashMs[sitePath(url)] = Math.round(hashed + performance.now() - t0);
  if (expect.sha256 && got !== expect.sha256) {
    throw new BootError(url, `is not the file this build wrote: its SHA-256 begins ${got.slice(0, 12)} where the build's begins ${expect.sha256.slice(0, 12)}.`,
      STALE, `expected SHA-256 ${expect.sha256} (manifest.json)\ngot      SHA-256 ${got} (${bytes.length} bytes)`);
  }
  if (expect.prefix && !got.startsWith(expect.prefix)) {
    throw new BootError(url, `is not the one this page was built with: its SHA-256 begins ${got.slice(0, expect.prefix.length)} where the page names ${expect.prefix}.`,
      STALE, `expected SHA-256 ${expect.prefix}… (the page's data-manifest)\ngot      SHA-256 ${got} (${bytes.length} bytes)`);
  }
}

/** Fetch ``url`` and return its bytes once they match ``expect`` (or a promise of it: the fetch starts at once,
 * the check waits for both): see ``verify``. ``missing``: what to do when the server answers 404. Progress and
 * stalls are reported as the bytes come. Throws a BootError naming the file. */
async function fetchVerified(url, expect, missing = REBUILD) {
  const known = expect && typeof expect.then !== "function" ? expect : null;
  const t = transferStart(url, known && known.bytes);
  if (!known) Promise.resolve(expect).then((e) => { if (e && e.bytes && !t.total) { t.total = e.bytes; reportTransfers(false); } }, () => {});
  const hasher = subtle ? null : new Sha256();
  let bytes;
  try {
    let resp;
    try {
      resp = await nativeFetch(url);
    } catch (e) {
      throw new BootError(url, "could not be fetched (the network request failed).", "Check that the site's server is running and reachable.", errText(e));
    }
    if (!resp.ok) throw new BootError(url, `is missing: the server answered HTTP ${resp.status}.`, missing);
    bytes = await readBody(resp, t, known && known.bytes, hasher);
  } finally {
    transferEnd(t);
  }
  const expected = await expect;
  // when the bytes and what to check them against were both in: the page measures how soon a mismatch is named
  const arrivedAt = performance.timeOrigin + performance.now();
  try {
    await verify(url, bytes, expected, hasher, t.hashMs);
  } catch (e) {
    if (e instanceof BootError) e.arrivedAt = arrivedAt;
    throw e;
  }
  return bytes;
}

/** The size and SHA-256 manifest.json gives for ``url`` ({bytes, sha256}); a BootError naming manifest.json when it
 * gives none (a manifest of an older build, or a damaged one: nothing unverified is used). */
function digestOf(manifest, url) {
  const d = manifest && manifest.digests && manifest.digests[sitePath(url)];
  if (!d || typeof d.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(d.sha256) || !Number.isInteger(d.bytes)) {
    throw new BootError(manifestUrl, `gives no SHA-256 for ${sitePath(url)}, so that file cannot be checked.`, REBUILD);
  }
  return d;
}

// The calculator code and the data bundle are fetched while Pyodide boots (not after):
// started here, awaited in boot(), so a failed fetch still ends as a boot-error.
// manifest.json names, per calculator, its code pack and its data bundle, each under a name that
// carries a hash of its content (code.<calculator>.<hash>.pack, calculator-bundle.<calculator>.<hash>.marshal
// and .json): a new build writes new names, so a page never mixes files of two builds. The pack holds
// the sources its calculator imports and their bytecode (unchecked-hash .pyc in __pycache__, compiled
// at build time by the same Pyodide, so imports skip compiling), laid end to end; the manifest gives
// its files as [path, offset, length], the folders to put first on sys.path (lib/: the
// standard-library modules the calculators import), the byte size of each of Pyodide's core files, and
// the size and SHA-256 of every file fetched here ("digests", by path under the site: atlas/assets.py
// fetched_digests says why there).
// The page gives the manifest's content hash (this worker's URL has ?manifest=<hash>; pyboot.js takes it
// from the page): fetched as manifest.json?v=<hash>, a manifest cached by an older build is never used, and
// its bytes must hash to what the page names (a proxy that ignores the query is caught here).
const manifestVersion = new URL(import.meta.url).searchParams.get("manifest");
const manifestPrefix = /^[0-9a-f]{6,64}$/.test(manifestVersion || "") ? manifestVersion : null;
const manifestUrl = new URL("py/manifest.json" + (manifestPrefix ? "?v=" + manifestPrefix : ""), assets);
const manifestP = (async () => {
  if (!manifestPrefix) {
    throw new BootError(manifestUrl, "cannot be checked: the page does not name it by its content hash (data-manifest), so no file of the calculator could be.", REBUILD);
  }
  const bytes = await fetchVerified(manifestUrl, { prefix: manifestPrefix });
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BootError(manifestUrl, `is damaged: it is not valid JSON (${text.length} bytes; truncated?).`, REBUILD, errText(e));
  }
})();
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** This calculator's files as the manifest names them: {pack, files, path, marshal, json} (URLs), with
 * ``digest(url)``: the size and SHA-256 to check each against. */
const named = !calc ? Promise.reject(new BootError(null, "The page names no calculator.", "")) : manifestP.then((manifest) => {
  const entry = manifest && manifest.packs && manifest.packs[calc];
  const data = manifest && manifest.bundles && manifest.bundles[calc];
  if (!entry || !Array.isArray(entry.files) || !SAFE_NAME.test(entry.pack || "")) {
    throw new BootError(manifestUrl, `does not list the ${calc} calculator's code.`, REBUILD);
  }
  // "file": a calculator whose data is one file of the site (the query page's SQLite database), read as the .marshal
  // is (calculators.catalogue.load_bundle knows it by its header), with no JSON beside it
  const file = data && SAFE_NAME.test(data.file || "") ? data.file : null;
  if (!data || (!file && (!SAFE_NAME.test(data.marshal || "") || !SAFE_NAME.test(data.json || "")))) {
    throw new BootError(manifestUrl, `does not list the ${calc} calculator's data.`, REBUILD);
  }
  return {
    pack: new URL("py/" + entry.pack, assets), files: entry.files, path: manifest.path || [],
    marshal: new URL("data/" + (file || data.marshal), assets), json: file ? null : new URL("data/" + data.json, assets),
    digest: (url) => digestOf(manifest, url),
  };
});
function fetchCode(names) {
  return fetchVerified(names.pack, names.digest(names.pack), RELOAD).then((pack) => ({
    files: names.files.map(([f, offset, length]) => {
      if (offset + length > pack.length) {
        throw new BootError(names.pack, `is shorter than manifest.json says (${pack.length} bytes; ${f} ends at byte ${offset + length}): it is truncated or from another build.`, REBUILD);
      }
      return [f, pack.subarray(offset, offset + length)];
    }),
    path: names.path,
  }));
}
// A calculator page's data comes as .marshal (see calculators.catalogue.load_bundle), the JSON only
// if this Pyodide cannot read that. Fetched only when Python does not boot from the snapshot (below):
// at once when the manifest names none, else as soon as the snapshot has failed (its fetch or its check).
let early = null;
function files() {
  if (!early) {
    early = { code: named.then(fetchCode), bundle: named.then((n) => fetchVerified(n.marshal, n.digest(n.marshal), RELOAD)) };
    early.code.catch(reportBoot);
    early.bundle.catch(reportBoot);
  }
  return early;
}

// The memory snapshot (manifest "snapshot": made at build time by tools/make_snapshot.mjs with this
// very Pyodide): Python's heap with every calculator imported and its data loaded, so booting from
// it skips Python's own start-up, the imports and the data. Its bytes are checked against the
// manifest's size and SHA-256 here, and Pyodide checks its own build id in the snapshot's header; any
// failure (missing, truncated, changed, another Pyodide, a Python error after restoring it) falls back to
// the files above, and the reason is sent with "ready" (snapshotError).
const snapshotName = manifestP.then((manifest) => {
  const s = manifest && manifest.snapshot;
  if (!s || !SAFE_NAME.test(s.file || "") || !Array.isArray(s.calculators) || !s.calculators.includes(calc)) return null;
  const url = new URL("py/" + s.file, assets);
  return { url, digest: digestOf(manifest, url) };
});
// --- which boot: the snapshot or the files ------------------------------------------------------------------
// The snapshot (about 6 MB more than the files with Brotli) replaces Python's start-up, the imports and the data: it
// wins where bytes are cheap and loses where they are not. Measured with both boots forced on the same build (the
// standard library served stored and Brotli-compressed, Pyodide's core files asked for as this worker starts;
// tools/benchmark.py's emulated link and server, as `--links-only --link MBIT,MS --boot files|snapshot` runs them:
// cold cache, .br served, footprint first result, medians of 3, 2026-11-27, the 2-core machine shared with other
// work): 20 Mbit/s 30 ms files 4,932 ms, snapshot 5,189 (bare Pyodide 5,162); 28 Mbit/s 25 ms files 4,605, snapshot
// 3,890; 40 Mbit/s 20 ms files 3,694, snapshot 2,926. A boot's
// time being about a + b / rate, the difference crosses zero at 21.6 Mbit/s (from 20 and 28) or 22.9 (from 20 and
// 40), hence SNAPSHOT_MIN_MBIT = 22 (16 before the standard library shrank by 0.95 MB for both boots and the core
// files were asked for earlier, which helped the files' boot more). The rate is measured from bytes this worker
// fetches anyway before it must choose (manifest.json, Pyodide's lock file and its two JavaScript modules, and what
// has come of its WebAssembly and standard library: measuredMbit); on the emulated 20 Mbit/s link it read 18-19.
// navigator.connection is capped at 10 Mbit/s by Chromium and absent from Firefox and Safari. A copy kept by the
// service worker from an earlier visit needs no link at all.
const SNAPSHOT_MIN_MBIT = 22;
// choose begin (tests/test_link_choice.py runs this part in Node)
/** How this visit boots: {from: "snapshot" | "files", why: a sentence for the reader}. ``c``: {snapshot: the build
 * made one for this calculator (bool), snapshotKept / filesKept: the service worker's cache holds the snapshot / the
 * code pack and data bundle (bool), mbit: the link's rate measured here (Mbit/s; Infinity for no measurable time;
 * null when nothing came over the network)}. One rule, no number changed: both boots compute the same results. */
function chooseBoot(c) {
  const rate = (m) => (m === Infinity || m >= 1000 ? "over 1,000" : m >= 10 ? String(Math.round(m)) : m.toFixed(1));
  if (!c.snapshot) return { from: "files", why: "this build has no memory snapshot of this calculator" };
  if (c.snapshotKept) return { from: "snapshot", why: "the memory snapshot was kept from an earlier visit" };
  if (c.filesKept) return { from: "files", why: "its code and data were kept from an earlier visit, the memory snapshot was not" };
  if (c.mbit === null || c.mbit === undefined || Number.isNaN(c.mbit)) {
    return { from: "files", why: "the link's speed could not be measured (every file so far came from a cache)" };
  }
  if (c.mbit >= SNAPSHOT_MIN_MBIT) {
    return { from: "snapshot", why: `the link measured ${rate(c.mbit)} Mbit/s: at ${SNAPSHOT_MIN_MBIT} Mbit/s or more the memory snapshot comes first` };
  }
  return { from: "files", why: `the link measured ${rate(c.mbit)} Mbit/s: under ${SNAPSHOT_MIN_MBIT} Mbit/s Python's own start-up comes before the memory snapshot would` };
}
// choose end

/** The link's rate in Mbit/s from this worker's resource timings so far: the body bytes that came over the network
 * (transferSize > 0; a cached copy has 0) over the time some body was arriving (the union of each response's
 * responseStart..responseEnd: the gaps between responses, while this worker compiled or waited a round trip, are not
 * the link's; with them, 1 of 3 first visits on localhost measured under 20 Mbit/s). Pyodide's WebAssembly and
 * standard library, asked for as this worker starts (earlyCore), are still arriving when the rate is taken and share
 * the link with the files that have come: their bytes so far count too (``inFlight``), from their response's start
 * until now, or the rate would be a share of the link. Infinity when they took no measurable time; null when none
 * came over the network. */
function measuredMbit() {
  let bytes = 0;
  const spans = [];
  const ended = new Set();
  for (const e of performance.getEntriesByType("resource")) {
    ended.add(e.name);
    if (!(e.transferSize > 0) || !(e.encodedBodySize > 0) || !(e.responseEnd > 0)) continue;
    bytes += e.encodedBodySize;
    spans.push([e.responseStart || e.fetchStart, e.responseEnd]);
  }
  const now = performance.now();
  for (const t of transfers.values()) {
    const n = inFlight(t);
    if (n === null || ended.has(t.href)) continue;
    bytes += n;
    spans.push([t.at, now]);
  }
  if (!bytes) return null;
  spans.sort((a, b) => a[0] - b[0]);
  let busy = 0, [from, to] = spans[0];
  for (const [a, b] of spans.slice(1)) {
    if (a > to) { busy += to - from; from = a; to = b; } else to = Math.max(to, b);
  }
  busy += to - from;
  return busy < 1 ? Infinity : (bytes * 8) / (busy * 1000);
}
// in-flight begin (tests/test_link_choice.py runs this part in Node)
/** The bytes transfer ``t`` has moved over the link so far while its response is still arriving, or null (done, not
 * started, or not measurable). Its body is counted as the browser hands it over, decoded: sent with Content-Encoding,
 * the link carried Content-Length bytes for the ``total`` decoded ones, so what came is scaled by that ratio; sent
 * compressed without a length, it cannot be told (null). */
function inFlight(t) {
  if (t.done || t.at === null || t.at === undefined || !t.got) return null;
  if (!t.encoding) return t.got;
  if (!t.encodedLength || !t.total) return null;
  return Math.round(t.got * (t.encodedLength / t.total));
}
// in-flight end

/** Whether the service worker's cache ("atlas-<build>", sw/service-worker.mjs) holds every one of ``urls``. */
async function kept(urls) {
  try {
    if (!self.caches) return false;
    const names = (await caches.keys()).filter((n) => n.startsWith("atlas-"));
    for (const url of urls) {
      let found = false;
      for (const n of names) if (await (await caches.open(n)).match(url.href)) { found = true; break; }
      if (!found) return false;
    }
    return true;
  } catch (e) {
    return false;  // no Cache Storage here (not a secure context): nothing kept
  }
}
let measuredAfter = null;  // resolved by boot() once Pyodide's JavaScript modules have come
const modulesIn = new Promise((resolve) => { measuredAfter = resolve; });
const bootChoice = snapshotName.then(async (s) => {
  if (!s) return chooseBoot({ snapshot: false });
  const n = await named.catch(() => null);
  const snapshotKept = await kept([s.url]);
  const filesKept = !snapshotKept && !!n && await kept([n.pack, n.marshal]);
  if (snapshotKept || filesKept) return chooseBoot({ snapshot: true, snapshotKept, filesKept });
  await modulesIn;
  // the reads of bodies that came while this worker was busy importing are queued: count them first
  await new Promise((resolve) => setTimeout(resolve, 0));
  return chooseBoot({ snapshot: true, mbit: measuredMbit() });
}).then((c) => Object.assign(c, { at: Math.round(performance.now()) }));
bootChoice.catch(() => {});

const snapshotBytes = bootChoice.then((c) => (c.from === "snapshot" ? snapshotName : null)).then(async (s) => {
  if (!s) return null;
  let bytes;
  try {
    bytes = await fetchVerified(s.url, s.digest, RELOAD);
  } catch (e) {
    throw new Error(e instanceof BootError ? e.text : errText(e));
  }
  // The heap follows the header, whose length is the header's second 32-bit word (pyodide.asm.mjs, API.makeSnapshot)
  snapshotHeap = bytes.length - new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
  return bytes;
});
let snapshotHeap = 0;
// A snapshot that cannot be had or does not match: the files are fetched at once, while Pyodide still loads.
snapshotBytes.catch(() => named.then(() => files(), () => {}));
// Resolved once the bodies of Pyodide's WebAssembly and standard library (CORE_BODIES) have come, whole or failed
// (a failure is named by its own check): the files boot's code and data wait for it (below).
const CORE_BODIES = ["pyodide.asm.wasm", "python_stdlib.zip"];
const coreAwaited = new Set(CORE_BODIES);
let coreArrived = null;
const coreIn = new Promise((resolve) => { coreArrived = resolve; });
function coreBodyDone(url) {
  coreAwaited.delete(url.pathname.split("/").pop());
  if (!coreAwaited.size) coreArrived();
}
// The files when this visit boots without the snapshot (bootChoice above): fetched once Pyodide's WebAssembly and
// standard library have come (coreIn), not beside them. Python cannot start before those two arrive, and it needs the
// code pack and data bundle only once it has started; fetched at once, their 0.23 MB (footprint, Brotli) shared the
// link with the 4.9 MB Python waits for, which then came later (0.19 s at 10 Mbit/s). Fetched after, they come while
// Python starts up (about a second of CPU). A snapshot that fails still fetches them at once (above).
bootChoice.then((c) => { if (c.from === "files") coreIn.then(() => files()); }, () => {});
// Pyodide's lock file, fetched, checked and parsed here (a 404 page or a truncated file named as such)
// and handed to loadPyodide, which then does not fetch it again.
const lockUrl = new URL("pyodide-lock.json", core);
const lock = fetchVerified(lockUrl, manifestP.then((m) => digestOf(m, lockUrl))).then((bytes) => {
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BootError(lockUrl, `is damaged: it is not valid JSON (${text.length} bytes; truncated?).`, REBUILD, errText(e));
  }
});
lock.catch(() => {});

// Pyodide fetches its WebAssembly and its standard library itself, with the global fetch: in this worker that is
// the watching fetch below, which hands Pyodide the response as the browser gave it (so the WebAssembly still
// compiles as it streams in) and reads a copy of it (Response.clone) to count its bytes and check its SHA-256.
// A mismatch fails the boot before any result: "ready" waits for every check started (coreChecks). Pyodide's
// two JavaScript modules are imported, not fetched: ``importWatched`` shows them as files whose bytes are not
// counted, so that one that never comes is named as well.
const coreChecks = [];
function watchPyodideFetches() {
  self.fetch = function (input, init) {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const method = ((init && init.method) || (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (method === "GET" && earlyCore.has(url.href)) {  // asked for as this worker started: handed over once
      const early = earlyCore.get(url.href);
      earlyCore.delete(url.href);
      return early;
    }
    const response = nativeFetch(input, init);
    if (method !== "GET" || !url.href.startsWith(core.href)) return response;
    const t = transferStart(url, null);
    response.then((resp) => {
      t.at = performance.now();
      t.encoding = !!resp.headers.get("Content-Encoding");
      const length = Number(resp.headers.get("Content-Length"));
      t.encodedLength = Number.isInteger(length) && length > 0 ? length : null;
    }, () => {});
    manifestP.then((m) => { t.total = digestOf(m, url).bytes; reportTransfers(false); }, () => {});
    // the copy is taken as soon as the response comes, before Pyodide reads it (this callback was registered first)
    const copy = response.then((resp) => (resp.ok ? resp.clone() : null));
    const check = (async () => {
      try {
        let resp;
        try {
          resp = await copy;
        } catch (e) {
          return;  // the request failed: Pyodide fails on it, and the HEAD check (checkCore) names the file
        }
        if (!resp) {
          // not OK: Pyodide's own files are left to Pyodide and the HEAD check (checkCore); the two asked for as this
          // worker started (CORE_BODIES) are named now, as checkCore names them, before Pyodide takes the response
          // and fails on it with its own words (which, racing the HEAD check, once reached the page unhandled)
          if (!CORE_BODIES.includes(url.pathname.split("/").pop())) return;
          throw new BootError(url, `is missing: the server answered HTTP ${(await response).status}.`, REBUILD);
        }
        const manifest = await manifestP;
        const expect = digestOf(manifest, url);
        const hasher = subtle ? null : new Sha256();
        const bytes = await readBody(resp, t, expect.bytes, hasher);
        coreBodyDone(url);
        transferEnd(t);
        const arrivedAt = performance.timeOrigin + performance.now();
        await verify(url, bytes, expect, hasher, t.hashMs).catch((e) => { e.arrivedAt = arrivedAt; throw e; });
      } finally {
        transferEnd(t);
        coreBodyDone(url);  // also when it failed or never came: its own check names that (a second call changes nothing)
      }
    })();
    const checkedCopy = check.catch((e) => {
      throw e instanceof BootError ? e : new BootError(url, `could not be checked against its SHA-256 (${lastLine(errText(e))}).`, RELOAD, errText(e));
    });
    checkedCopy.catch(reportBoot);  // named at once, while Pyodide still boots
    coreChecks.push(checkedCopy);
    return response;
  };
}
watchPyodideFetches();
// Pyodide's WebAssembly and standard library are asked for now, as this worker starts, through the watching fetch (so
// checked and counted like any other), not when loadPyodide asks for them: both boots need both, and until Pyodide's
// two JavaScript modules have come and been run the link would carry only those (0.25 MB with Brotli) and then
// idle. loadPyodide's own fetch of either is handed the response already under way (earlyCore, once).
const earlyCore = new Map();
for (const name of CORE_BODIES) {
  const url = new URL(name, core);
  const response = self.fetch(url);
  response.catch(() => {});  // a failure is named by the file's own check and by Pyodide when it takes the response
  earlyCore.set(url.href, response);
}
/** import(``url``), shown to the page as a file arriving (its bytes uncounted) until it has come. */
function importWatched(url) {
  const t = transferStart(url, null, false);
  return import(url.href).finally(() => transferEnd(t));
}

// The core files Pyodide fetches itself, checked with HEAD: a missing, empty, truncated or
// mistyped file fails here within a round trip instead of hanging the boot. Only clear evidence
// fails: a server that refuses HEAD (405, 501), or compresses (no reliable length), is let through.
const CORE = [
  ["pyodide.asm.wasm", /^application\/wasm$/, "application/wasm for .wasm files"],
  ["pyodide.mjs", /javascript/, "text/javascript for .mjs files"],
  ["pyodide.asm.mjs", /javascript/, "text/javascript for .mjs files"],
  ["python_stdlib.zip", null, ""],
];
async function checkCore() {
  const manifest = await manifestP.catch(() => null);
  const sizes = (manifest && manifest.core) || {};
  await Promise.all(CORE.map(async ([name, type, want]) => {
    const url = new URL(name, core);
    let r;
    try {
      r = await nativeFetch(url, { method: "HEAD" });
    } catch (e) {
      throw new BootError(url, "could not be fetched (the network request failed).", "Check that the site's server is running and reachable.", errText(e));
    }
    if (r.status === 405 || r.status === 501) return;
    if (!r.ok) throw new BootError(url, `is missing: the server answered HTTP ${r.status}.`, REBUILD);
    const len = r.headers.get("Content-Length");
    if (len !== null && !r.headers.get("Content-Encoding")) {
      if (Number(len) === 0) throw new BootError(url, "is empty (0 bytes).", REBUILD);
      if (sizes[name] && Number(len) !== sizes[name]) {
        throw new BootError(url, `is ${Number(len).toLocaleString("en")} bytes where the build wrote ${sizes[name].toLocaleString("en")}: it is truncated or from another build.`, REBUILD);
      }
    }
    const ct = (r.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
    if (type && !type.test(ct)) {
      throw new BootError(url, `is served as ${ct ? "“" + ct + "”" : "no type"}, which the browser will not run.`,
        `Configure the web server to send ${want}; see Hosting.`, `Content-Type: ${ct || "(none)"}`, true);
    }
  }));
}
const checked = checkCore();
checked.catch(() => {});
let reported = false;
function reportBoot(err) {
  if (reported || bootedFrom) return;
  reported = true;
  const e = err instanceof BootError ? err : new BootError(null, `Python could not be loaded (${lastLine(errText(err))}).`, "", errText(err));
  postMessage({ type: "boot-error", file: e.file, message: e.message, hint: e.hint, detail: e.detail, hosting: e.hosting,
                arrivedAt: e.arrivedAt || null, namedAt: performance.timeOrigin + performance.now() });
}
// Once a failure is reported, Pyodide's own pending fetches may still fail: that is not news.
addEventListener("unhandledrejection", (ev) => { if (reported) ev.preventDefault(); });
// Named at once, not when the boot gets to them: a file that cannot be had fails the boot anyway.
for (const p of [checked, manifestP, named, lock]) p.catch(reportBoot);

/** Run ``fn``; a Python (or other) error in it becomes a BootError naming ``url``. */
async function step(url, what, fn) {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof BootError) throw e;
    const text = errText(e);
    throw new BootError(url, `${what}: ${lastLine(text)}.`, REBUILD, text);
  }
}

// Durations of the boot's phases in ms, sent with "ready" (the benchmark reports them), and
// when this worker started running, as epoch ms (the page turns it into ms since navigation).
const phases = {};
let last = performance.now();
const startedAt = performance.timeOrigin + last;
function phase(name) {
  const now = performance.now();
  phases[name] = Math.round(now - last);
  last = now;
}

/** Python booted from the snapshot: {pyodide, catalogue, bundle, bytecode}; throws on any failure.
 * Pyodide 314 restores a snapshot into the WebAssembly memory as the module starts it (30 MiB), without
 * growing it: a heap that grew past that while the snapshot was made (the build's is about 36 MiB) does
 * not fit ("offset is out of bounds"). So the module is created here (loadPyodide's createPyodideModule
 * option, the function pyodide.asm.mjs exports) with one more pre-run step that grows the memory to the
 * snapshot's heap first (Emscripten's Module.growMemory). */
async function fromSnapshot(loadPyodide, snap, createModule) {
  const createPyodideModule = (settings) => {
    settings.preRun.push((Module) => {
      if (Module.HEAP8.length < snapshotHeap && !Module.growMemory(snapshotHeap)) {
        throw new Error(`the browser could not grow Python's memory to the snapshot's ${snapshotHeap} bytes`);
      }
    });
    return createModule(settings);
  };
  const pyodide = await loadPyodide({ indexURL: core.href, lockFileContents: lock, packageBaseUrl: core.href,
                                      _loadSnapshot: snapshotBytes, createPyodideModule });
  const state = pyodide.globals.get("_atlas_snapshot");
  if (!state) throw new Error(`${sitePath(snap.url)} holds no calculators.`);
  const catalogue = state.get("catalogue");
  const bundles = state.get("bundles");
  const bundle = bundles && bundles.get(calc);
  if (!catalogue || !bundle || !catalogue.prepare(calc)) throw new Error(`${sitePath(snap.url)} does not hold the ${calc} calculator.`);
  return { pyodide, catalogue, bundle, bytecode: !!state.get("bytecode") };
}

async function boot() {
  progress("runtime", "Loading the Python runtime (Pyodide)");
  const pyodideUrl = new URL("pyodide.mjs", core);
  const asmUrl = new URL("pyodide.asm.mjs", core);
  // Pyodide's module and its WebAssembly's glue, imported here (not by loadPyodide, which takes the glue as
  // createPyodideModule) so that the page is told while either is still coming
  const asm = importWatched(asmUrl);
  asm.catch(() => {});
  const { loadPyodide } = await step(pyodideUrl, "could not be loaded as a JavaScript module", () => importWatched(pyodideUrl));
  const { default: createModule } = await step(asmUrl, "could not be loaded as a JavaScript module", () => asm);
  measuredAfter();
  const choice = await bootChoice.catch(() => ({ from: "files", why: "the manifest could not be read" }));
  bootWhy = choice.why;
  const snap = choice.from === "snapshot" ? await snapshotName.catch(() => null) : null;
  let snapshotError = null;
  if (snap) {
    try {
      const s = await fromSnapshot(loadPyodide, snap, createModule);
      heap = () => s.pyodide._module && s.pyodide._module.HEAPU8 ? s.pyodide._module.HEAPU8.length : null;
      phase("runtime");
      phases.import = 0;
      phases.data = 0;
      return ready(s.pyodide, s.catalogue, s.bundle, s.bytecode, "snapshot", null);
    } catch (e) {
      // a Python traceback ends with its error; a JavaScript error starts with it
      const text = errText(e).trim();
      snapshotError = /^Traceback/.test(text) ? lastLine(text) : text.split("\n")[0];
      files();
    }
  }
  const pyodide = await step(new URL("pyodide.asm.wasm", core), "could not start Python",
    () => loadPyodide({ indexURL: core.href, lockFileContents: lock, packageBaseUrl: core.href, createPyodideModule: createModule }));
  heap = () => pyodide._module && pyodide._module.HEAPU8 ? pyodide._module.HEAPU8.length : null;
  phase("runtime");
  progress("code", "Loading the calculator code");
  const code = await files().code;
  const names = await named;
  const catalogue = await step(names.pack, "is damaged (its Python code does not import)", () => {
    for (const [f, content] of code.files) {
      pyodide.FS.mkdirTree("/atlas/" + f.split("/").slice(0, -1).join("/"));
      pyodide.FS.writeFile("/atlas/" + f, content);
    }
    const dirs = ["/atlas", ...code.path.map((d) => "/atlas/" + d)];
    pyodide.globals.set("_atlas_path", pyodide.toPy(dirs));
    pyodide.runPython("import sys\nfor _d in reversed(_atlas_path):\n    _d in sys.path or sys.path.insert(0, _d)\ndel _atlas_path, _d");
    const mod = pyodide.pyimport("calculators.catalogue");
    if (!mod.prepare(calc)) throw new BootError(names.pack, `does not hold the ${calc} calculator.`, REBUILD);
    return mod;
  });
  progress("data", "Loading the benchmark data");
  const raw = await files().bundle;
  phase("import");
  const bytecode = catalogue.uses_bytecode();
  // Load the data bundle once, while booting, not on every run (api.run_json: JSON in, JSON out,
  // exceptions propagate). The .marshal goes through the file system: handing its bytes to
  // Python directly would copy them slowly.
  const json = pyodide.pyimport("json");
  let bundle = await step(names.marshal, "is damaged (it does not load)", () => {
    pyodide.FS.writeFile("/atlas/bundle.marshal", raw);
    try {
      return catalogue.load_bundle_file("/atlas/bundle.marshal");
    } finally {
      pyodide.FS.unlink("/atlas/bundle.marshal");
    }
  });
  if ((bundle === undefined || bundle === null) && !names.json) {
    throw new BootError(names.marshal, "is not a file this calculator can read (not a SQLite database).", REBUILD);
  }
  if (bundle === undefined || bundle === null) {
    const text = new TextDecoder().decode(await fetchVerified(names.json, names.digest(names.json), RELOAD));
    bundle = await step(names.json, "is damaged (it does not parse)", () => json.loads(text));
  }
  phase("data");
  return ready(pyodide, catalogue, bundle, bytecode, "files", snapshotError);
}

/** Python is ready to run ``catalogue.run(bundle, params)``; says so to the page, with how it booted
 * (``from``: "snapshot" or "files") and why not from the snapshot (``snapshotError``, or null). */
async function ready(pyodide, catalogue, bundle, bytecode, from, snapshotError) {
  const json = pyodide.pyimport("json");
  api = {
    /** The XLSX report of the result for ``params`` (reportxlsx.for_browser): {bytes, filename} or {error}.
     * The report pack (calculators/report.py, reportxlsx, XlsxWriter) is fetched and imported on the first call. */
    async report(params) {
      if (!reportMod) reportMod = loadReportPack(pyodide);
      const mod = await reportMod;
      const out = mod.for_browser(catalogue, bundle, JSON.stringify(params));
      try {
        const [bytes, filename, error] = out.toJs();
        if (error) return { error };
        const copy = new Uint8Array(bytes);  // out of Python's memory, so it can be transferred
        return { bytes: copy, filename };
      } finally {
        out.destroy();
      }
    },
    /** A result with its downloads left unwritten (catalogue.run(..., later=True)): the page shows it, then asks
     * for the downloads (downloads_json) once no newer inputs wait. */
    run_json(paramsJson) {
      const params = json.loads(paramsJson);
      let res = null;
      try {
        res = catalogue.run.callKwargs(bundle, params, { later: true });
        return json.dumps(res);
      } finally {
        params.destroy();
        if (res) res.destroy();
      }
    },
    /** A warm-up run (see warmUp below): the result for ``paramsJson`` computed and its downloads written as a
     * run and the downloads request do (catalogue.run without ``later``, which leaves the held downloads of the
     * reader's newest result as they are), then dropped. */
    warm_json(paramsJson) {
      const params = json.loads(paramsJson);
      let res = null;
      try {
        res = catalogue.run(bundle, params);
        return json.dumps(res);
      } finally {
        params.destroy();
        if (res) res.destroy();
      }
    },
    /** The newest result's downloads, written (catalogue.later_downloads), as JSON text. */
    downloads_json() {
      const res = catalogue.later_downloads();
      try {
        return json.dumps(res);
      } finally {
        res.destroy();
      }
    },
  };
  await checked.catch(() => {});
  // nothing is computed before every file Pyodide fetched itself has matched its SHA-256 (watchPyodideFetches)
  await Promise.all(coreChecks).catch(() => {});
  if (reported) return;
  bootedFrom = from;
  postMessage({ type: "ready", phases, bytecode, startedAt, heap: heap(), from, snapshotError, verifiedWith, hashMs,
                why: bootWhy });
}

// The report pack: named in manifest.json as "report" ({pack, files}), fetched when the reader first asks for an
// XLSX, never while booting. Its files go beside the calculators' (/atlas/...); then Python's import caches are
// refreshed so the new modules are found.
let reportMod = null;
async function loadReportPack(pyodide) {
  const manifest = await manifestP;
  const entry = manifest && manifest.report;
  if (!entry || !Array.isArray(entry.files) || !SAFE_NAME.test(entry.pack || "")) {
    throw new Error("manifest.json does not list the report pack: rebuild the site");
  }
  const pack = new URL("py/" + entry.pack, assets);
  const code = await fetchCode({ pack, files: entry.files, path: [], digest: (url) => digestOf(manifest, url) });
  for (const [f, content] of code.files) {
    pyodide.FS.mkdirTree("/atlas/" + f.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile("/atlas/" + f, content);
  }
  pyodide.runPython("import importlib\nimportlib.invalidate_caches()");
  return pyodide.pyimport("reportxlsx");
}

// Warm-up after a snapshot boot. WebAssembly code starts in V8's baseline compiler (Liftoff) and each function is
// recompiled by the optimizing one (TurboFan) only once it has run enough, in the background. Booted from its files,
// Python's start-up, the imports and the data runs that much Python before the first result; booted from the
// snapshot, none, so the reader's first recomputes ran at two to four times the steady time (Policy 3.1.5 packed:
// 25-60 ms against 10-14 ms; with --js-flags=--no-liftoff every recompute took 8-13 ms: the optimizing tier is
// the whole difference). So, after the first result of a snapshot boot, the worker runs the same inputs
// WARM_RUNS more times, WARM_GAP_MS apart, and drops the results: the gap lets the background compiles land
// between runs (back to back, eight runs left the next recomputes as slow). A reader's run or request waits
// for at most the one warm-up run under way (the first take about as long as the first result), and a warm-up
// run is skipped while the reader's runs come (they warm the code as well). Each warm-up run's ms go to the page
// ({type: "warm", ms}; the benchmark reports them).
const WARM_RUNS = 8;
const WARM_GAP_MS = 150;
let warmStarted = false;
let lastRunAt = 0;
function warmUp(paramsJson) {
  const times = [];
  const step = () => {
    if (!api || times.length >= WARM_RUNS) return;
    if (performance.now() - lastRunAt >= WARM_GAP_MS) {
      const t0 = performance.now();
      try {
        JSON.parse(api.warm_json(paramsJson));
      } catch (err) {
        postMessage({ type: "warm", ms: times, error: lastLine(errText(err)).trim() });
        return;
      }
      times.push(Math.round(performance.now() - t0));
      postMessage({ type: "warm", ms: times });
    } else {
      times.push(null);  // skipped: the reader's own run came just before
    }
    setTimeout(step, WARM_GAP_MS);
  };
  setTimeout(step, WARM_GAP_MS);
}

const booting = boot().catch(async (err) => {
  // A core file found bad by checkCore is the cause of whatever the boot then threw.
  await checked.catch(reportBoot);
  reportBoot(err);
});

// Runs: the page keeps at most one run in flight (and the newest waiting), so this queue stays
// short. Each result says how many runs this worker has computed and the size of Python's heap
// (the WebAssembly memory, bytes), which the tests and the benchmark watch under a burst of input.
onmessage = async (ev) => {
  const msg = ev.data || {};
  if (msg.type === "report") {
    await booting;
    if (!api || reported) return;
    try {
      const out = await api.report(msg.params);
      if (out.bytes) postMessage({ type: "report", id: msg.id, bytes: out.bytes, filename: out.filename }, [out.bytes.buffer]);
      else postMessage({ type: "report", id: msg.id, error: out.error });
    } catch (err) {
      reportMod = null;  // a failed load is tried again on the next click
      const text = err instanceof BootError ? err.text : errText(err);
      postMessage({ type: "report", id: msg.id, error: lastLine(text).trim(), detail: err instanceof BootError ? err.detail : text });
    }
    return;
  }
  if (msg.type === "downloads") {
    // the downloads of the result of run ``msg.id``: only while it is this worker's newest computed result
    await booting;
    if (!api || reported) return;
    if (msg.id !== lastResult) {
      postMessage({ type: "downloads", id: msg.id, error: "a newer result was computed since: press Compute again" });
      return;
    }
    try {
      const t0 = performance.now();
      downloadsWritten += 1;
      const out = JSON.parse(api.downloads_json());
      postMessage({ type: "downloads", id: msg.id, downloads: out, ms: Math.round(performance.now() - t0), written: downloadsWritten });
    } catch (err) {
      postMessage({ type: "downloads", id: msg.id, error: lastLine(errText(err)).trim() });
    }
    return;
  }
  if (msg.type !== "run") return;
  await booting;
  if (!api || reported) return;
  try {
    const t0 = performance.now();
    runs += 1;
    const paramsJson = JSON.stringify(msg.params);
    const out = JSON.parse(api.run_json(paramsJson));
    if (out.ok) lastResult = msg.id;
    lastRunAt = performance.now();
    postMessage({ type: "result", id: msg.id, result: out, ms: Math.round(lastRunAt - t0), runs, heap: heap() });
    if (!warmStarted && out.ok && bootedFrom === "snapshot") {
      warmStarted = true;
      warmUp(paramsJson);
    }
  } catch (err) {
    // A PythonError's message is the whole traceback; the reader gets its last line ("RuntimeError: ...").
    // After a fatal error (a stack overflow in the runtime) this Pyodide cannot run again: the page restarts it.
    // So it does after an error that left the heap past HEAP_RESTART_BYTES: a runaway recursion grows it to the
    // 4 GiB WebAssembly limit and ends in "lost sys.stderr", after which every run fails the same way, and a
    // WebAssembly heap never shrinks (only a new worker gives the memory back).
    const text = errText(err), h = heap(), swollen = h !== null && h > HEAP_RESTART_BYTES;
    const said = lastLine(text).trim() + (swollen ? ` (Python's memory had grown to ${(h / 2 ** 30).toFixed(1)} GiB)` : "");
    postMessage({ type: "run-error", id: msg.id, message: said, fatal: /fatal/i.test(text) || swollen, runs, heap: h });
  }
};
