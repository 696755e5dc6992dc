// Build step "generate pages" (called by atlas/pages/generate.py): the site's own scripts and stylesheets
// (docs/assets/js/*.js, *.mjs; docs/assets/css/*.css) minified for the pages, with esbuild's transform API
// (whitespace, comments and local names; top-level names of classic scripts and every string stay as they
// are, so class names the stylesheet trim reads are kept). The sources in docs/ stay as written.
//
//   node tools/minify.mjs < job.json
//
// job.json: [[file on disk, "js" | "css"], ...]. Prints {file: minified text} as JSON. Exit status 1 (the
// file and esbuild's message on stderr) if a file cannot be read or does not parse.
import fs from "node:fs";
import { transformSync } from "esbuild";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = {};
for (const [file, loader] of JSON.parse(input)) {
  try {
    // charset utf8: texts keep their characters (the default escapes every non-ASCII one); no target: the
    // syntax is left as written (nothing is rewritten for other browsers)
    out[file] = transformSync(fs.readFileSync(file, "utf8"), {
      loader, minify: true, charset: "utf8", legalComments: "none", sourcefile: file,
    }).code;
  } catch (e) {
    console.error(`${file}: ${String((e && e.message) || e)}`);
    process.exit(1);
  }
}
process.stdout.write(JSON.stringify(out));
