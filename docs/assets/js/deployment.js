/* The "Your deployment" page (docs/calculators/deployment.md), after calculator.js:
 * - what the reader pastes or drops as `kubectl get -o yaml` becomes JSON here (js-yaml, self-hosted in
 *   assets/vendor/js-yaml/) before Python sees it, in the hidden field "objects"; JSON passes as it is;
 * - a select per unmatched workload writes the hand mapping (hidden field "mapping", JSON);
 * - "Export inputs" writes the inputs and the mapping to a JSON file, with the points of the result shown when it
 *   is the result of those inputs (Python's deployment.own_points: the home and service pages' "Add my
 *   deployment..." draws them); "Import inputs" reads one back;
 * - "Try an example" loads an example's files from this site.
 * The three fields are data-no-permalink: calculator.js never writes them into the address. Nothing is
 * stored (no localStorage) and nothing is sent (the examples are fetched from this site).
 * Each change dispatches an "input" event on the hidden field, so calculator.js computes as for typing. */
(function () {
  "use strict";
  var root = document.getElementById("atlas-calculator");
  if (!root || root.getAttribute("data-calculator") !== "deployment") return;
  var form = root.querySelector("form");
  var text = document.getElementById("deployment-objects-text");
  var objects = form.elements.objects, top = form.elements.top, mapping = form.elements.mapping;
  var ioStatus = document.getElementById("deployment-io-status");
  var FORMAT = "benchmark-atlas-deployment-inputs";

  function changed(el) { el.dispatchEvent(new Event("input", { bubbles: true })); }
  function say(msg) { if (ioStatus) ioStatus.textContent = msg; }

  /* YAML (one document or a stream) to the JSON Python reads; JSON and empty text pass unchanged. A YAML
   * error becomes {"yamlError": "..."} so Python names it as the Workloads field's problem. */
  function toJson(src) {
    var s = src.trim();
    if (!s || s.charAt(0) === "{" || s.charAt(0) === "[") return src;
    try {
      var docs = [];
      window.jsyaml.loadAll(s, function (d) { if (d !== null && d !== undefined) docs.push(d); });
      return JSON.stringify(docs.length === 1 ? docs[0] : docs);
    } catch (e) {
      return JSON.stringify({ yamlError: String(e && e.message || e) });
    }
  }
  function syncObjects() {
    var v = toJson(text.value);
    if (objects.value !== v) { objects.value = v; changed(objects); }
  }
  var timer = null;
  text.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(syncObjects, 200); });
  if (text.value.trim()) syncObjects();

  function readFile(input, max, done) {
    var file = input.files && input.files[0];
    if (!file) return;
    if (file.size > max) { say("“" + file.name + "” is " + file.size + " bytes; the limit is " + max + " bytes. Nothing was read."); input.value = ""; return; }
    file.arrayBuffer().then(function (buf) {
      var t;
      try { t = new TextDecoder("utf-8", { fatal: true }).decode(buf); } catch (e) { t = null; }
      if (t === null || t.indexOf("\u0000") !== -1) { say("“" + file.name + "” is not a UTF-8 text file. Nothing was read."); input.value = ""; return; }
      done(t, file.name);
    });
  }
  var objFile = document.getElementById("deployment-objects-file");
  if (objFile) objFile.addEventListener("change", function () {
    readFile(objFile, Number(objFile.getAttribute("data-max-bytes")) || 8388608, function (t, name) {
      text.value = t; syncObjects(); say("Read " + name + ".");
    });
  });

  /* The hand mapping: a select per unmatched workload in the result ("-": leave it out). */
  function currentMapping() {
    try { var m = JSON.parse(mapping.value || "{}"); return m && typeof m === "object" ? m : {}; } catch (e) { return {}; }
  }
  document.getElementById("atlas-calc-result").addEventListener("change", function (ev) {
    var sel = ev.target;
    if (!sel.classList || !sel.classList.contains("atlas-map")) return;
    var m = currentMapping(), key = sel.getAttribute("data-map-key");
    if (sel.value === "") delete m[key];
    else m[key] = sel.value === "-" ? "" : sel.value;
    mapping.value = Object.keys(m).length ? JSON.stringify(m) : "";
    changed(mapping);
  });

  /* The newest result shown (calculator.js's "atlas:result"): the inputs it was computed from and its points. */
  var shown = null;
  root.addEventListener("atlas:result", function (ev) {
    shown = { params: ev.detail.params, points: ev.detail.result.points || null };
  });
  /* The points of the shown result when it is the result of the form's inputs now, else null with why. */
  function pointsNow() {
    if (!shown) return { points: null, why: "no result of your inputs has been computed here yet" };
    var same = Array.prototype.every.call(form.elements, function (el) {
      if (!el.name || el.type === "file" || el.type === "submit" || el.type === "button") return true;
      return String(el.value).trim() === (shown.params[el.name] === undefined ? "" : String(shown.params[el.name]));
    });
    if (!same || root.getAttribute("data-busy") === "true") return { points: null, why: "the result of your newest inputs is not shown (still computing, or refused: see the message above the result)" };
    if (!shown.points) return { points: null, why: "nothing of yours is pasted" };
    return { points: shown.points, why: "" };
  }
  /* Export and import: every named field of the form, the pasted workloads as pasted (YAML stays YAML). */
  function fieldsNow() {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.name && el.type !== "file" && el.type !== "submit" && el.type !== "button" && el.name !== "objects") out[el.name] = el.value;
    });
    out.objects_text = text.value;
    return out;
  }
  document.getElementById("deployment-export").addEventListener("click", function () {
    var pts = pointsNow();
    var blob = new Blob([JSON.stringify({ format: FORMAT, version: 1, inputs: fieldsNow(), points: pts.points }, null, 2)],
                        { type: "application/json" });
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "your-deployment-inputs.json";
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
    say(pts.points ? "Exported your inputs, mapping and the points of this result (for the home and service pages' charts) " +
        "to your-deployment-inputs.json."
      : "Exported your inputs and mapping to your-deployment-inputs.json, without points for the charts: " + pts.why +
        ". Export again once the result is shown to add them.");
  });
  function setFields(inputs) {
    Object.keys(inputs).forEach(function (k) {
      if (k === "objects_text") { text.value = String(inputs[k]); return; }
      var el = form.elements[k];
      if (!el || k === "objects" || typeof inputs[k] !== "string") return;
      el.value = inputs[k];
      if (el.tagName === "SELECT") el.dispatchEvent(new Event("change", { bubbles: true }));
    });
    objects.value = toJson(text.value);
    changed(objects);
  }
  var imp = document.getElementById("deployment-import");
  imp.addEventListener("change", function () {
    readFile(imp, 16777216, function (t, name) {
      var d;
      try { d = JSON.parse(t); } catch (e) { d = null; }
      if (!d || d.format !== FORMAT || typeof d.inputs !== "object") { say("“" + name + "” is not a file of exported inputs (" + FORMAT + ")."); imp.value = ""; return; }
      setFields(d.inputs);
      imp.value = "";
      say("Imported " + name + ".");
    });
  });

  /* Examples, fetched from this site. */
  Array.prototype.forEach.call(root.querySelectorAll("button[data-example]"), function (b) {
    b.addEventListener("click", function () {
      Promise.all([fetch(b.getAttribute("data-objects")), fetch(b.getAttribute("data-top"))]).then(function (rs) {
        if (!rs[0].ok || !rs[1].ok) throw new Error("HTTP " + rs[0].status + "/" + rs[1].status);
        return Promise.all([rs[0].text(), rs[1].text()]);
      }).then(function (ts) {
        var inputs = { product: b.getAttribute("data-product"), call_model: b.getAttribute("data-call-model"),
          load: b.getAttribute("data-load"), objects_text: ts[0], top: ts[1], mapping: "" };
        form.elements.product.value = inputs.product;
        form.elements.product.dispatchEvent(new Event("change", { bubbles: true }));
        setFields(inputs);
        say("Loaded the example " + b.textContent + ".");
      }).catch(function (e) { say("The example could not be loaded: " + e.message); });
    });
  });
})();
