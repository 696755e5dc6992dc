/* Material's search worker, with hyphenated names kept whole and still found by their parts.
 *
 * mkdocs.yml's search separator leaves "-" inside words, so the index holds "ingress-gateway" and
 * "ocpcf-ocpm-pre" as tokens. Two things in the worker would still split them, and this wrapper
 * (started by searchdefer.js in place of Material's worker, which it then loads unchanged) fixes both:
 *  - lunr's query lexer splits queries with the separator lunr started with ([\s\-]+), not the one
 *    Material sets for the index: it now reads the current one, so "ingress-gateway" is one term;
 *  - each hyphenated token is also indexed by its parts ("ingress", "gateway"), at the same
 *    position, so a search for a part still finds the page (and highlights the whole name).
 * Only Material's own worker of this site may be loaded: ?material= must name it. */
(function () {
  "use strict";
  var given = new URL(self.location.href).searchParams.get("material") || "";
  var url = new URL(given, self.location.href);
  if (url.origin !== self.location.origin || !/\/assets\/javascripts\/workers\/search\.[0-9a-f]+\.min\.js$/.test(url.pathname)) {
    throw new Error("searchworker.js: ?material= must name Material's search worker of this site, not “" + given + "”");
  }
  /* A query word with inner hyphens is searched whole (ten times the weight) and by its parts, each
   * part whole (no prefix match): "ingress-gateway" also finds the pages that write "Ingress Gateway",
   * while "ocpcf-ocpm-pre" does not turn into "pre*" (which matches "Previous"). Registered before
   * Material's worker, so its listener reads the query as rewritten here. */
  function expand(query) {
    return query.split(/(\s+)/).map(function (word) {
      if (!/^[^\s"+\-:^~*]+(-[^\s"+\-:^~*]+)+$/.test(word)) return word;
      return word + "*^10 " + word.split("-").map(function (part) { return "text:" + part + "^1"; }).join(" ");
    }).join("");
  }
  self.addEventListener("message", function (e) {
    if (e.data && e.data.type === 2 && typeof e.data.data === "string") e.data.data = expand(e.data.data);
  });
  importScripts(url.href);
  var lunr = self.lunr;
  Object.defineProperty(lunr.QueryLexer, "termSeparator", {
    configurable: true,
    get: function () { return lunr.tokenizer.separator; }
  });
  function withParts(tokenize) {
    var f = function (obj, metadata) {
      var tokens = tokenize(obj, metadata);
      var out = tokens.slice();
      tokens.forEach(function (t) {
        var whole = t.toString();
        if (whole.indexOf("-") < 1) return;
        whole.split("-").forEach(function (part) {
          if (part) out.push(new lunr.Token(part, lunr.utils.clone(t.metadata)));
        });
      });
      return out;
    };
    f.atlasParts = true;
    return f;
  }
  var add = lunr.Builder.prototype.add;
  lunr.Builder.prototype.add = function () {
    if (!this.tokenizer.atlasParts) this.tokenizer = withParts(this.tokenizer);
    return add.apply(this, arguments);
  };
})();
