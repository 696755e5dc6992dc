// Build step "static charts" (called by atlas/charts.py): draw each chart's Vega-Lite spec as SVG, in
// the light theme, at two widths (wide for desktop, narrow for phones), so a chart page shows its charts
// at first paint without loading Vega (about 830 KB); charts.js loads Vega when the reader uses a chart.
//
//   node tools/vega_svg.mjs NODE_MODULES_DIR THEME_JSON < charts.json > svgs.json
//
// stdin: {"<key>": <Vega-Lite spec>, ...}; stdout: {"<key>": {"wide": "<svg…>", "narrow": "<svg…>"}, ...}.
// A spec Vega cannot draw stops the script (exit 1) with its key in the message.
// The theme follows docs/assets/js/charts.js's config() and adapt() (same colours, from THEME_JSON).
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [nm, themeFile] = process.argv.slice(2);
if (!nm || !themeFile) {
  console.error("usage: node tools/vega_svg.mjs NODE_MODULES_DIR THEME_JSON < charts.json");
  process.exit(2);
}
const vega = await import(pathToFileURL(path.resolve(nm, "vega/build/vega.module.js")).href);
const vl = await import(pathToFileURL(path.resolve(nm, "vega-lite/build/index.js")).href);
const { optimize } = await import(pathToFileURL(path.resolve(nm, "svgo/lib/svgo-node.js")).href);
const theme = JSON.parse(readFileSync(themeFile, "utf8"));
const specs = JSON.parse(readFileSync(0, "utf8"));

function config(size) {
  const t = theme.light, s = theme[size];
  return {
    background: null, font: theme.font,
    axis: { labelColor: t.fg, titleColor: t.fg, gridColor: t.grid, domainColor: t.muted, tickColor: t.muted,
            labelFontSize: s.labelFontSize, titleFontSize: s.labelFontSize, labelLimit: s.labelLimit },
    legend: { labelColor: t.fg, titleColor: t.fg, labelFontSize: s.labelFontSize, labelLimit: s.legendLabelLimit },
    title: { color: t.fg }, mark: { color: t.mark }, tick: { color: t.fg },
    range: { category: t.category }, view: { stroke: null },
    // No ARIA per mark or axis: the page puts each drawing inside the chart's role="img" element, whose
    // children assistive technology never reads (the element's label describes the chart; the table
    // beside it holds the values). The marks' labels were a third of the drawing's bytes. The live
    // chart (charts.js) keeps its ARIA.
    aria: false
  };
}
// charts.js adapt(): marks painted black (reference ticks) take the foreground; marks without a
// tooltip are decorative, with no ARIA of their own.
function adapt(spec, fg) {
  const copy = JSON.parse(JSON.stringify(spec));
  (function walk(o) {
    if (!o || typeof o !== "object") return;
    if (o.mark && typeof o.mark === "object" && /^(black|#000|#000000)$/i.test(o.mark.color || "")) o.mark.color = fg;
    if (o.mark && typeof o.mark === "object" && !o.mark.tooltip && o.mark.aria === undefined) o.mark.aria = false;
    for (const k of Object.keys(o)) if (k !== "data") walk(o[k]);
  })(copy);
  return copy;
}
// Text widths. Without a canvas Vega estimates 0.8 em per character, about half as wide again as the
// page's sans-serif, so labels were cut short and margins left too wide. The page's font stack is
// Helvetica/Arial first (Liberation Sans on Linux has the same metrics): their advance widths, in
// 1/1000 em, for printable ASCII (Adobe's Helvetica AFM); 556 for other characters, bold 7 % wider.
const ADVANCE = [278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584];
function advance(text, size, bold) {
  let units = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0);
    units += c >= 32 && c <= 126 ? ADVANCE[c - 32] : ch === "\u2026" ? 1000 : 556;
  }
  return units * size / 1000 * (bold ? 1.07 : 1);
}
// Vega calls this for a text mark's extent and, with the label's parts, to cut it to its limit: a text
// longer than the limit is drawn cut to it, so its extent is the limit.
vega.textMetrics.width = (item, text) => {
  const t = text == null ? "" : String(text).trim();
  const bold = /bold|[6-9]00/.test(String(item.fontWeight || ""));
  const w = advance(t, vega.fontSize(item), bold);
  return item.limit > 0 && w >= item.limit ? +item.limit : w;
};

// Vega-Lite warns on stderr about things it resolves itself (e.g. unioned sort domains); the build
// stays quiet about them, as the browser console does.
const quiet = new vega.logger(vega.None);
// Vega writes coordinates to 15 digits, one <line> per grid line and a transform on every mark: SVGO (its
// default preset, numbers to 3 decimals, a thousandth of a pixel) writes the same drawing in a third to a half
// of the bytes (Policy 3.1.5's observed-CPU chart 20.2 -> 10.9 KB, the accuracy scatter plot 92.7 -> 36.8 KB).
// Kept as drawn: the colours, written exactly (assets/css/charts.css repaints them for the dark palette by
// their value), and one path per mark (mergePaths off: each bar or point stays an element of its own).
const SVGO = { multipass: true, plugins: [{ name: "preset-default",
  params: { overrides: { convertColors: false, mergePaths: false, cleanupIds: false } } }] };
const out = {};
for (const [key, spec] of Object.entries(specs)) {
  out[key] = {};
  for (const size of ["wide", "narrow"]) {
    try {
      const s = adapt(spec, theme.light.fg);
      // "container" width, as the page sizes it: the whole chart (axes and legend too) fits the width
      if (s.width === "container" || s.width === undefined) {
        s.width = theme[size].width;
        s.autosize = { type: "fit-x", contains: "padding", ...(s.autosize || {}) };
      }
      const compiled = vl.compile({ ...s, config: config(size) }, { logger: quiet }).spec;
      const view = new vega.View(vega.parse(compiled), { renderer: "none", logLevel: vega.None });
      out[key][size] = optimize(await view.toSVG(), SVGO).data;
      view.finalize();
    } catch (e) {
      console.error(`chart ${key} (${size}): ${e && e.message || e}`);
      process.exit(1);
    }
  }
}
process.stdout.write(JSON.stringify(out));
