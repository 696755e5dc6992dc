/* The query page (docs/data/query.md): an example link (a.atlas-query-example, href "?sql=<the query>") puts its SQL in
 * the query box and computes it, as typing there does (calculator.js listens for "input"), without reloading the page
 * and Python with it. A click with a modifier key, or without JavaScript, follows the link: the page opens with that
 * query in its address, which calculator.js computes once Python is ready. */
(function () {
  "use strict";
  document.addEventListener("click", function (ev) {
    var a = ev.target && ev.target.closest && ev.target.closest("a.atlas-query-example");
    var box = document.getElementById("calc-sql");
    if (!a || !box || ev.button > 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
    var sql = new URL(a.href, location.href).searchParams.get("sql");
    if (sql === null) return;
    ev.preventDefault();
    box.value = sql;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.scrollIntoView({ block: "nearest" });
    box.focus({ preventScroll: true });
  });
})();
