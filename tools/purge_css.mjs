// Build step "trim stylesheets" (called by atlas/trimcss.py): Material's stylesheets cut to the rules the
// site can use, with PurgeCSS (npm, MIT).
//
//   node tools/purge_css.mjs NODE_MODULES_DIR < job.json > result.json
//
// job.json: {"css": [stylesheet texts], "content": [paths or globs], "safelist": [regular expressions as text],
//            "variables": [custom properties kept whether or not a rule read so far uses them]}.
// A rule is kept when every class, id, element and attribute it names is a word of some content file
// (PurgeCSS's default extractor: runs of letters, digits, "-" and "_"). The content is every page of the
// site and every script and Python module that writes markup at run time (Material's bundle, the site's
// scripts, tablesort, the calculators), so markup made in the browser keeps its styles; names a script
// builds by joining strings are the safelist's. A custom property is kept when a kept rule of the stylesheets
// read so far uses it (variables: true; PurgeCSS judges after each sheet) or job.variables names it; keyframes and
// font faces are all kept.
// Prints [{"css": text, "rejected": n}] in the order of job.css; exit 1 (message on stderr) on any error.
import { createRequire } from "node:module";
import path from "node:path";

const [nm] = process.argv.slice(2);
if (!nm) {
  console.error("usage: node tools/purge_css.mjs NODE_MODULES_DIR < job.json");
  process.exit(2);
}
let input = "";
for await (const chunk of process.stdin) input += chunk;
try {
  const job = JSON.parse(input);
  // the package's CommonJS build, as `require("purgecss")` loads it (its ES module build fails to call fast-glob)
  const { PurgeCSS } = createRequire(import.meta.url)(path.resolve(nm, "purgecss"));
  const res = await new PurgeCSS().purge({
    content: job.content, css: job.css.map((raw) => ({ raw })), rejected: true,
    safelist: { greedy: (job.safelist || []).map((s) => new RegExp(s)), variables: job.variables || [] },
    variables: true, keyframes: false, fontFace: false,
  });
  process.stdout.write(JSON.stringify(res.map((r) => ({ css: r.css, rejected: (r.rejected || []).length }))));
} catch (e) {
  console.error(`purge_css: ${e && e.stack || e}`);
  process.exit(1);
}
