// Build step "compress" (called by atlas/compress.py): write FILE.gz and FILE.br beside each file
// named on stdin (one path a line, relative to SITE_DIR), for servers that send a precompressed
// file to browsers that accept its encoding (docs/about/hosting.md).
//
//   node tools/precompress.mjs SITE_DIR BROTLI_QUALITY [CACHE_DIR] < list
//
// list: a path a line; "path<TAB>quality" compresses that file at another Brotli quality (0-11).
//
// CACHE_DIR (optional): the compressed bytes of every file compressed before, named by the SHA-256 of the
// file's bytes, the quality and the Brotli mode; a file whose bytes were compressed before is copied from
// there instead of compressed again (the memory snapshot alone, 38 MB, took about 3 s of each build). The
// same bytes come out either way. Entries this run did not use are deleted, oldest first, while the folder
// holds more than CACHE_MAX_BYTES.
//
// gzip: level 9, the header's time 0 (Node writes no name and no time), so the same file gives the
// same bytes on every build. Brotli: the given quality (0-11), the window fitted to the file, text mode
// for text. Node's zlib runs each job on libuv's thread pool, so the files are compressed in parallel
// (UV_THREADPOOL_SIZE, default 4). Prints a JSON report: {"files": n, "raw": bytes, "gz": bytes,
// "br": bytes, "cached": files copied from CACHE_DIR}. Exit status 1 (message on stderr) if any file cannot be read or written.
import crypto from "node:crypto";
import { copyFile, mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const [root, qualityArg, cacheDir] = process.argv.slice(2);
const CACHE_MAX_BYTES = 300 * 1024 * 1024;
if (!root || qualityArg === undefined) {
  console.error("usage: node tools/precompress.mjs SITE_DIR BROTLI_QUALITY [CACHE_DIR] < list");
  process.exit(2);
}
const defaultQuality = Number(qualityArg);
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const TEXT = /\.(html|js|mjs|css|json|svg|xml|txt|csv|map|py)$/;

let input = "";
for await (const chunk of process.stdin) input += chunk;
const qualityOf = new Map();
const names = input.split("\n").filter(Boolean).map((line) => {
  const [name, q] = line.split("\t");
  if (q !== undefined) {
    if (!/^(1[01]|[0-9])$/.test(q)) {
      console.error(`precompress: "${line}" gives no Brotli quality 0-11 after its tab`);
      process.exit(2);
    }
    qualityOf.set(name, Number(q));
  }
  return name;
});

let tmps = 0;
async function write(file, bytes) {
  // two builds, or two files of one build with the same bytes, may write one cache entry at once
  const tmp = `${file}.${process.pid}.${++tmps}.tmp`;
  await writeFile(tmp, bytes, { mode: 0o644 });
  await rename(tmp, file);
}

let hits = 0;
const used = new Set();

async function one(name) {
  const file = path.join(root, name);
  const raw = await readFile(file);
  const text = TEXT.test(name);
  const quality = qualityOf.has(name) ? qualityOf.get(name) : defaultQuality;
  let key = null;
  if (cacheDir) {
    key = crypto.createHash("sha256").update(raw).digest("hex") + `-q${quality}${text ? "t" : "g"}`;
    used.add(`${key}.gz`).add(`${key}.br`);
    const [gzC, brC] = [path.join(cacheDir, `${key}.gz`), path.join(cacheDir, `${key}.br`)];
    try {
      const [gs, bs] = await Promise.all([stat(gzC), stat(brC)]);
      await Promise.all([copyFile(gzC, `${file}.gz`), copyFile(brC, `${file}.br`)]);
      // (a cache entry deleted between the stat and the copy fails the copy: compressed below)
      const now = new Date();
      await Promise.all([utimes(gzC, now, now), utimes(brC, now, now)]);
      hits += 1;
      return [raw.length, gs.size, bs.size];
    } catch {
      // not cached (or only half): compressed below
    }
  }
  const [gz, br] = await Promise.all([
    gzip(raw, { level: 9 }),
    brotli(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_MODE]: text ? zlib.constants.BROTLI_MODE_TEXT : zlib.constants.BROTLI_MODE_GENERIC,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [zlib.constants.BROTLI_PARAM_LGWIN]: Math.max(16, Math.min(24, Math.ceil(Math.log2(raw.length + 1)))),
      },
    }),
  ]);
  await Promise.all([write(`${file}.gz`, gz), write(`${file}.br`, br)]);
  if (key) await Promise.all([write(path.join(cacheDir, `${key}.gz`), gz), write(path.join(cacheDir, `${key}.br`), br)]);
  return [raw.length, gz.length, br.length];
}

/** Delete the cache entries this run did not use, oldest first, while the cache holds more than CACHE_MAX_BYTES
 * (a file another build is writing, name.tmp, is left alone). */
async function prune() {
  const entries = [];
  for (const name of await readdir(cacheDir)) {
    if (name.endsWith(".tmp")) continue;
    try {
      const st = await stat(path.join(cacheDir, name));
      entries.push([name, st.size, st.mtimeMs]);
    } catch {
      // deleted meanwhile by another build
    }
  }
  let total = entries.reduce((n, e) => n + e[1], 0);
  entries.sort((a, b) => a[2] - b[2]);
  for (const [name, size] of entries) {
    if (total <= CACHE_MAX_BYTES) break;
    if (used.has(name)) continue;
    await unlink(path.join(cacheDir, name)).catch(() => {});
    total -= size;
  }
}

try {
  // largest first, so the long jobs start at once and the small ones fill in around them
  const sized = await Promise.all(names.map(async (n) => [n, (await stat(path.join(root, n))).size]));
  sized.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (cacheDir) await mkdir(cacheDir, { recursive: true });
  const results = await Promise.all(sized.map(([n]) => one(n)));
  if (cacheDir) await prune();
  const sum = (i) => results.reduce((s, r) => s + r[i], 0);
  process.stdout.write(JSON.stringify({ files: results.length, raw: sum(0), gz: sum(1), br: sum(2), cached: hits }) + "\n");
} catch (e) {
  console.error(String((e && e.stack) || e));
  process.exit(1);
}
