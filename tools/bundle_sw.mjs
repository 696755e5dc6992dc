// Build steps "browser assets" and "service worker" (atlas/offline.py): bundles, with esbuild and the Workbox
// packages of package-lock.json (served from this site, never a CDN),
//   node tools/bundle_sw.mjs page OUT           sw/register.mjs as one classic script, OUT
//   node tools/bundle_sw.mjs worker OUT BUILD   sw/service-worker.mjs (workbox-routing, -strategies, -core) as OUT,
//                                               with BUILD (a JSON file: {id, files}) written in as ATLAS_BUILD
// Minified, no source map, the same bytes for the same input. Exit status 1 with esbuild's message on failure.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const [kind, out, buildFile] = process.argv.slice(2);
const common = { bundle: true, minify: true, charset: "utf8", legalComments: "none", outfile: out, logLevel: "error",
                 absWorkingDir: path.join(here, ".."), format: "iife",
                 nodePaths: process.env.NODE_PATH ? [process.env.NODE_PATH] : [], target: ["es2020"] };
try {
  if (kind === "page") {
    buildSync({ ...common, entryPoints: ["sw/register.mjs"] });
  } else if (kind === "worker") {
    const build = fs.readFileSync(buildFile, "utf8");
    JSON.parse(build);  // fails here, naming the file, rather than as a syntax error in the worker
    buildSync({ ...common, entryPoints: ["sw/service-worker.mjs"], define: { ATLAS_BUILD: build, "process.env.NODE_ENV": '"production"' } });
  } else {
    throw new Error(`usage: bundle_sw.mjs page OUT | worker OUT BUILD.json (got ${kind})`);
  }
} catch (e) {
  console.error(String((e && e.message) || e));
  process.exit(1);
}
