// Build step "compress" (called by atlas/compress.py): write FILE.gz and FILE.br beside each file
// named on stdin (one path a line, relative to SITE_DIR), for servers that send a precompressed
// file to browsers that accept its encoding (docs/about/hosting.md).
//
//   node tools/precompress.mjs SITE_DIR BROTLI_QUALITY < list
//
// gzip: level 9, the header's time 0 (Node writes no name and no time), so the same file gives the
// same bytes on every build. Brotli: the given quality (0-11), the window fitted to the file, text mode
// for text. Node's zlib runs each job on libuv's thread pool, so the files are compressed in parallel
// (UV_THREADPOOL_SIZE, default 4). Prints a JSON report: {"files": n, "raw": bytes, "gz": bytes,
// "br": bytes}. Exit status 1 (message on stderr) if any file cannot be read or written.
import { readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const [root, qualityArg] = process.argv.slice(2);
if (!root || qualityArg === undefined) {
  console.error("usage: node tools/precompress.mjs SITE_DIR BROTLI_QUALITY < list");
  process.exit(2);
}
const quality = Number(qualityArg);
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const TEXT = /\.(html|js|mjs|css|json|svg|xml|txt|csv|map|py)$/;

let input = "";
for await (const chunk of process.stdin) input += chunk;
const names = input.split("\n").filter(Boolean);

async function write(file, bytes) {
  const tmp = `${file}.tmp`;
  await writeFile(tmp, bytes, { mode: 0o644 });
  await rename(tmp, file);
}

async function one(name) {
  const file = path.join(root, name);
  const raw = await readFile(file);
  const [gz, br] = await Promise.all([
    gzip(raw, { level: 9 }),
    brotli(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_MODE]: TEXT.test(name) ? zlib.constants.BROTLI_MODE_TEXT : zlib.constants.BROTLI_MODE_GENERIC,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [zlib.constants.BROTLI_PARAM_LGWIN]: Math.max(16, Math.min(24, Math.ceil(Math.log2(raw.length + 1)))),
      },
    }),
  ]);
  await Promise.all([write(`${file}.gz`, gz), write(`${file}.br`, br)]);
  return [raw.length, gz.length, br.length];
}

try {
  // largest first, so the long jobs start at once and the small ones fill in around them
  const sized = await Promise.all(names.map(async (n) => [n, (await stat(path.join(root, n))).size]));
  sized.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const results = await Promise.all(sized.map(([n]) => one(n)));
  const sum = (i) => results.reduce((s, r) => s + r[i], 0);
  process.stdout.write(JSON.stringify({ files: results.length, raw: sum(0), gz: sum(1), br: sum(2) }) + "\n");
} catch (e) {
  console.error(String((e && e.stack) || e));
  process.exit(1);
}
