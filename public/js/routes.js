/**
 * The explorer's pages and their addresses, all in the URL's fragment (docs/explorer.md): `#/` the
 * overview, `#/quotes/<id>`, `#/resolvers/<address>`, `#/takers/<address>`. Pure: unit-tested in Node.
 */

const PAGES = [
  ["quote", /^#\/quotes\/([^/?#]+)$/],
  ["resolver", /^#\/resolvers\/([^/?#]+)$/],
  ["taker", /^#\/takers\/([^/?#]+)$/],
];

/**
 * The page a fragment names; anything else is the overview.
 *
 * @param {string} hash `location.hash`
 * @returns {{page: "overview"} | {page: "quote" | "resolver" | "taker", id: string}}
 */
export function routeOf(hash) {
  for (const [page, pattern] of PAGES) {
    const match = hash.match(pattern);
    if (!match) continue;
    try {
      const id = decodeURIComponent(match[1]).trim();
      if (id) return { page: /** @type {"quote" | "resolver" | "taker"} */ (page), id };
    } catch {
      // A malformed escape names no page.
    }
  }
  return { page: "overview" };
}

export const quoteHref = (quoteId) => `#/quotes/${encodeURIComponent(quoteId)}`;
export const resolverHref = (address) => `#/resolvers/${encodeURIComponent(address)}`;
export const takerHref = (address) => `#/takers/${encodeURIComponent(address)}`;
