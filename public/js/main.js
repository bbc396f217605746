import { showOverview } from "./overview.js";
import { showQuote } from "./quote-page.js";
import { showResolver } from "./resolver-page.js";
import { routeOf } from "./routes.js";
import { showTaker } from "./taker-page.js";

/**
 * The explorer's router (docs/explorer.md). Views live in the URL's fragment, `#/` for the overview,
 * `#/quotes/<id>` for a quote, `#/resolvers/<address>` and `#/takers/<address>`, so the page is one
 * static file and every `/v1` path stays the API's.
 */
const view = /** @type {HTMLElement} */ (document.getElementById("view"));
const search = /** @type {HTMLFormElement} */ (document.getElementById("search"));
const input = /** @type {HTMLInputElement} */ (document.getElementById("quote-id"));
let current = null;

function route() {
  current?.stop();
  const to = routeOf(location.hash);
  if (to.page === "quote") {
    input.value = to.id;
    document.title = `Quote ${to.id} · Relay explorer`;
    current = showQuote(view, to.id);
  } else if (to.page === "resolver") {
    document.title = `Resolver ${to.id} · Relay explorer`;
    current = showResolver(view, to.id);
  } else if (to.page === "taker") {
    document.title = `Taker ${to.id} · Relay explorer`;
    current = showTaker(view, to.id);
  } else {
    document.title = "Relay explorer";
    current = showOverview(view);
  }
  window.scrollTo(0, 0);
}

search.addEventListener("submit", (event) => {
  event.preventDefault();
  const quoteId = input.value.trim();
  if (quoteId) location.hash = `#/quotes/${encodeURIComponent(quoteId)}`;
});
window.addEventListener("hashchange", route);
route();
