/* Search costs nothing until it is used.
 *
 * Material's bundle requests search/search_index.json (about 1.2 MB) on every page as soon as it
 * starts. This script, loaded before the bundle, holds that one request back until the reader
 * shows an intent to search: focus or a click on the search box or its icon, Material's search
 * shortcuts ('/', 's', 'f') outside a text field, or a page opened with ?q=. The request then goes
 * out unchanged, so Material's own search (offline, in its worker) works as before: its box shows
 * "Initializing search" for the moment the index takes to arrive from this site.
 * Every other request passes untouched. window.atlasSearch.load() releases it by hand.
 * It also starts Material's search worker through searchworker.js, and only then (see the end). */
(function () {
  "use strict";
  var INDEX = /(^|\/)search\/search_index\.json$/;
  var proto = XMLHttpRequest.prototype, open = proto.open, send = proto.send;
  var wanted = false, held = [];
  var script = document.currentScript, searchWorker = null;

  proto.open = function (method, url) {
    try { this.__atlasIndex = INDEX.test(new URL(String(url), location.href).pathname); } catch (e) { this.__atlasIndex = false; }
    return open.apply(this, arguments);
  };
  proto.send = function () {
    if (this.__atlasIndex && !wanted) { held.push([this, arguments]); return undefined; }
    return send.apply(this, arguments);
  };

  function load() {
    if (wanted) return;
    wanted = true;
    document.documentElement.setAttribute("data-atlas-search-index", "requested");
    held.splice(0).forEach(function (h) { send.apply(h[0], h[1]); });
    if (searchWorker) searchWorker.start();
  }
  function editable(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }
  document.addEventListener("focusin", function (e) {
    var t = e.target;
    if (t && t.matches && t.matches("input[data-md-component=search-query], #__search")) load();
  }, true);
  document.addEventListener("click", function (e) {
    var t = e.target;
    if (t && t.closest && t.closest("label[for=__search], [data-md-component=search], .md-search")) load();
  }, true);
  document.addEventListener("change", function (e) {
    if (e.target && e.target.id === "__search") load();
  }, true);
  document.addEventListener("keydown", function (e) {
    if (!e.ctrlKey && !e.metaKey && !e.altKey && /^[/sSfF]$/.test(e.key) && !editable(e.target)) load();
  }, true);
  if (/[?&]q=/.test(location.search)) load();

  /* Material's search worker starts as searchworker.js (data-worker, its versioned URL), which loads
   * Material's worker unchanged and keeps hyphenated names whole in queries, and findable by parts.
   * It starts when search is wanted, not with the page: Material gets a stand-in (lazyWorker) at once, and
   * the real worker, with its scripts (Material's is 39 KB), is started by load() (so the worker script and the
   * index arrive together) or by Material's first message to it, whichever comes first. */
  var wrapper = script && script.getAttribute("data-worker");
  var NativeWorker = window.Worker;
  var EVENTS = ["message", "messageerror", "error"];
  /** A Worker for ``href`` that starts on its first postMessage or start(): an EventTarget with postMessage,
   * terminate and the on<event> properties; the real worker's events are dispatched on it, in order. */
  function lazyWorker(href, options) {
    var target = new EventTarget(), real = null, handlers = {};
    function start() {
      if (real) return real;
      real = new NativeWorker(href, options);
      EVENTS.forEach(function (type) {
        real.addEventListener(type, function (e) {
          var copy = type === "error"
            ? new ErrorEvent("error", { message: e.message, filename: e.filename, lineno: e.lineno, colno: e.colno, error: e.error, cancelable: true })
            : new MessageEvent(type, { data: e.data });
          if (!target.dispatchEvent(copy)) e.preventDefault();
        });
      });
      return real;
    }
    EVENTS.forEach(function (type) {
      Object.defineProperty(target, "on" + type, {
        get: function () { return handlers[type] || null; },
        set: function (fn) {
          if (handlers[type]) target.removeEventListener(type, handlers[type]);
          handlers[type] = typeof fn === "function" ? fn : null;
          if (handlers[type]) target.addEventListener(type, handlers[type]);
        }
      });
    });
    target.postMessage = function () { var w = start(); return w.postMessage.apply(w, arguments); };
    target.terminate = function () { if (real) real.terminate(); };
    target.start = start;
    target.started = function () { return !!real; };
    return target;
  }
  if (wrapper && NativeWorker) {
    var SearchWorker = function (url, options) {
      var u = new URL(String(url), location.href);
      var material = u.origin === location.origin && /\/assets\/javascripts\/workers\/search\.[0-9a-f]+\.min\.js$/.test(u.pathname);
      if (!material) return new NativeWorker(url, options);
      var w = new URL(wrapper, location.href);
      w.searchParams.set("material", u.pathname);
      searchWorker = lazyWorker(w.href, options);
      if (wanted) searchWorker.start();
      return searchWorker;
    };
    SearchWorker.prototype = NativeWorker.prototype;
    window.Worker = SearchWorker;
  }
  /* worker(): the search worker once Material started it (its messages carry every result, in order). */
  window.atlasSearch = { load: load, requested: function () { return wanted; }, worker: function () { return searchWorker; } };
})();
