/* Material for MkDocs' inline content script (partials/javascripts/content.html), as a
 * file for a Content-Security-Policy without 'unsafe-inline'; plus an accessible name
 * for Material's search dialog (axe: aria-dialog-name). */
(function(){var target=document.getElementById(location.hash.slice(1));target&&target.name&&(target.checked=target.name.startsWith("__tabbed_"))})();
(function(){var d=document.querySelector('.md-search[role="dialog"]');d&&!d.hasAttribute("aria-label")&&d.setAttribute("aria-label","Search")})();
