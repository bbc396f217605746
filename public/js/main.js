import { showOverview } from "./overview.js";
import { showQuote } from "./quote-page.js";

/**
 * The explorer's router (docs/explorer.md). Views live in the URL's fragment, `#/` for the overview and
 * `#/quotes/<id>` for a quote, so the page is one static file and every `/v1` path stays the API's.
 */
const view = /** @type {HTMLElement} */ (document.getElementById("view"));
const search = /** @type {HTMLFormElement} */ (document.getElementById("search"));
const input = /** @type {HTMLInputElement} */ (document.getElementById("quote-id"));
let current = null;

function route() {
  current?.stop();
  const match = location.hash.match(/^#\/quotes\/(.+)$/);
  if (match) {
    const quoteId = decodeURIComponent(match[1]);
    input.value = quoteId;
    document.title = `Quote ${quoteId} · Relay explorer`;
    current = showQuote(view, quoteId);
  } else {
    document.title = "Relay explorer";
    current = showOverview(view);
  }
}

search.addEventListener("submit", (event) => {
  event.preventDefault();
  const quoteId = input.value.trim();
  if (quoteId) location.hash = `#/quotes/${encodeURIComponent(quoteId)}`;
});
window.addEventListener("hashchange", route);
route();
