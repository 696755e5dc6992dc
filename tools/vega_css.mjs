// Build step (called by atlas/assets.py): print the CSS that vega-embed and vega-tooltip
// would otherwise inject as <style> elements at run time (blocked by style-src 'self'), so the
// site ships it as a file and charts.js embeds with defaultStyle: false and the tooltip's
// disableDefaultStyle: true.
//
//   node tools/vega_css.mjs NODE_MODULES_DIR
//
// vega-tooltip exports the function that writes its stylesheet (for the default tooltip element
// id, vg-tooltip-element); vega-embed keeps its stylesheet in embed.js as `var embedStyle = `...``.
// Exit status 1 if either is not found.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const nm = process.argv[2];
if (!nm) {
  console.error("usage: node tools/vega_css.mjs NODE_MODULES_DIR");
  process.exit(2);
}
try {
  const tooltip = await import(pathToFileURL(path.resolve(nm, "vega-tooltip/build/index.js")).href);
  const embedJs = readFileSync(path.resolve(nm, "vega-embed/build/embed.js"), "utf8");
  const m = /var embedStyle = `([^`]*)`;/.exec(embedJs);
  if (!m) throw new Error("vega-embed/build/embed.js: embedStyle not found (vega-embed changed?)");
  const embedVersion = JSON.parse(readFileSync(path.resolve(nm, "vega-embed/package.json"), "utf8")).version;
  process.stdout.write(`/* vega-embed ${embedVersion} and vega-tooltip ${tooltip.version}: their own stylesheets, ` +
    `shipped as a file (tools/vega_css.mjs) */\n${m[1].trim()}\n${tooltip.createDefaultStyle("vg-tooltip-element").trim()}\n`);
} catch (e) {
  console.error(String(e && e.stack || e));
  process.exit(1);
}
