import { getConfig, getJson } from "./api.js";
import { bandName, corridorsOf } from "./corridors.js";
import { address, fill, h, pill, problem, table } from "./dom.js";
import { ago, dateTime, number, percent, shortAddress } from "./format.js";
import { LadderWatch } from "./ladders.js";
import { readPages } from "./pages.js";
import { quotesTable } from "./quote-list.js";
import { resolverHref } from "./routes.js";
import { keeperMargins } from "./summaries.js";

/** How often the overview reads the relay again: nodes heartbeat every few seconds, bands every 10 s. */
const REFRESH_MS = 10_000;
/** Recent quotes are read more often: a swap shows up within a few seconds of its answer. */
const QUOTES_REFRESH_MS = 3_000;
/** How many recent quotes the overview lists. */
const RECENT_QUOTES = 10;
/** Resolvers a page of the directory holds; More reads the next page (docs/api.md, "Lists"). */
const DIRECTORY_PAGE = 50;

/** The directory's first `pages` pages (`GET /v1/resolvers`, by address), and how many were left out. */
async function readDirectory(pages) {
  const read = async (cursor) => {
    const page = await getJson(
      `/v1/resolvers?limit=${DIRECTORY_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    return { items: page.resolvers, nextCursor: page.nextCursor, inactive: page.inactive };
  };
  const { items, nextCursor, last } = await readPages(read, pages);
  return { resolvers: items, inactive: last.inactive, nextCursor };
}

/**
 * The overview (`#/`): the recent quotes (read again every 3 s), corridors with their connected nodes,
 * the resolver directory, the keeper's margin per chain, the rate bands and their sources (read again
 * every 10 s). The directory shows its first page, and More opens the next; a refresh reads as many pages
 * as are open. A failed read keeps what was shown and says why above it.
 *
 * @param {HTMLElement} root
 * @returns {{stop: () => void}}
 */
export function showOverview(root) {
  const status = h("div", { class: "status" });
  const quotesStatus = h("div", { class: "status" });
  const sections = {
    quotes: h("section", { id: "recent-quotes", "aria-labelledby": "recent-quotes-title" }),
    corridors: h("section", { id: "corridors", "aria-labelledby": "corridors-title" }),
    resolvers: h("section", { id: "resolvers", "aria-labelledby": "resolvers-title" }),
    keeper: h("section", { id: "keeper", "aria-labelledby": "keeper-title" }),
    rates: h("section", { id: "rates", "aria-labelledby": "rates-title" }),
  };
  fill(root, status, sections.quotes, sections.corridors, sections.resolvers, sections.keeper, sections.rates);
  for (const section of Object.values(sections)) section.append(h("p", { class: "muted" }, "Loading…"));
  fill(
    sections.quotes,
    h("h2", { id: "recent-quotes-title" }, "Recent quotes"),
    quotesStatus,
    h("p", { class: "muted" }, "Loading…"),
  );

  let stopped = false;
  let timer;
  const ladders = new LadderWatch(sections.corridors);
  let quotesTimer;
  /** Pages of the directory open: More adds one, and every refresh reads them all. */
  let directoryPages = 1;
  const showDirectory = (directory, now) => {
    const more = async (button) => {
      button.disabled = true;
      button.textContent = "Loading…";
      directoryPages++;
      try {
        const next = await readDirectory(directoryPages);
        if (!stopped) showDirectory(next, Date.now());
      } catch (e) {
        if (stopped) return;
        directoryPages--;
        fill(status, problem("Could not read the resolvers.", e.message));
        button.disabled = false;
        button.textContent = "More";
      }
    };
    fill(sections.resolvers, ...resolversSection(directory, now, more));
  };
  const loadQuotes = async () => {
    try {
      const [config, { quotes }] = await Promise.all([getConfig(), getJson(`/v1/quotes?limit=${RECENT_QUOTES}`)]);
      if (stopped) return;
      fill(sections.quotes, ...quotesSection(config, quotes, quotesStatus, Date.now()));
    } catch (e) {
      if (stopped) return;
      fill(quotesStatus, problem("Could not read the recent quotes.", e.message));
    }
    if (!stopped) quotesTimer = setTimeout(loadQuotes, QUOTES_REFRESH_MS);
  };
  const load = async () => {
    try {
      const [config, { nodes }, directory, rates, health] = await Promise.all([
        getConfig(),
        getJson("/v1/nodes"),
        readDirectory(directoryPages),
        getJson("/v1/rates"),
        getJson("/v1/health"),
      ]);
      if (stopped) return;
      const now = Date.now();
      fill(sections.corridors, ...corridorsSection(corridorsOf(config, nodes, rates.bands), now, ladders));
      showDirectory(directory, now);
      fill(sections.keeper, ...keeperSection(keeperMargins(config, health)));
      fill(sections.rates, ...ratesSection(config, rates, now));
      fill(status, h("p", { class: "muted" }, `Updated ${dateTime(now)}; refreshed every 10 s.`));
    } catch (e) {
      if (stopped) return;
      fill(status, problem("Could not read the relay.", e.message));
    }
    if (!stopped) timer = setTimeout(load, REFRESH_MS);
  };
  load();
  loadQuotes();
  ladders.start();
  return {
    stop: () => {
      stopped = true;
      ladders.stop();
      clearTimeout(timer);
      clearTimeout(quotesTimer);
    },
  };
}

function quotesSection(config, quotes, quotesStatus, now) {
  fill(quotesStatus);
  return [
    h("h2", { id: "recent-quotes-title" }, "Recent quotes"),
    quotesStatus,
    h("p", { class: "muted" }, "The newest quotes on every chain, read again every 3 s."),
    quotes.length
      ? quotesTable(config, quotes, now, { id: "recent-quote-table" })
      : h("p", { class: "muted" }, "No quote yet."),
  ];
}

function keeperSection(margins) {
  return [
    h("h2", { id: "keeper-title" }, "Keeper margin"),
    h(
      "p",
      { class: "muted" },
      "Per chain over the last 24 h: what the settled fills' quotes charged for gas, what the keeper paid, and the difference.",
    ),
    margins.length
      ? table(
          ["Chain", "Fills", "Charged", "Spent", "Margin"],
          margins.map((m) => [
            h("span", {}, m.name, " ", h("span", { class: "muted" }, String(m.chainId))),
            m.books ? m.books.fills : "—",
            m.books ? m.books.charged : "—",
            m.books ? m.books.spent : "—",
            m.books
              ? h(
                  "span",
                  {},
                  h("strong", { class: m.books.negative ? "negative" : "positive" }, m.books.margin),
                  m.books.notes.length ? h("span", { class: "detail muted" }, m.books.notes.join("; ")) : null,
                )
              : h("span", { class: "muted" }, "the books could not be read"),
          ]),
          { id: "keeper-table" },
        )
      : h("p", { class: "muted" }, "No chain is configured."),
  ];
}

function corridorsSection(corridors, now, ladders) {
  return [
    h("h2", { id: "corridors-title" }, "Corridors"),
    h(
      "div",
      { class: "cards" },
      corridors.map((c) =>
        h(
          "article",
          { class: "card", "data-corridor": c.key },
          h(
            "h3",
            {},
            `${c.tokens[0].symbol} / ${c.tokens[1].symbol}`,
            " ",
            h("span", { class: "muted" }, `${c.chainName} · ${c.chainId}`),
          ),
          c.band
            ? h(
                "p",
                {},
                `Band: 1 ${c.band.base} = ${number(c.band.mid)} ${c.band.quote} `,
                h("span", { class: "muted" }, `(${number(c.band.low)}–${number(c.band.high)}, ${ago(c.band.at, now)})`),
              )
            : h("p", { class: "muted" }, "No band: quotes are not steered by price."),
          ladders.slot(c.chainId, c.tokens[0], c.tokens[1], c.nodes.length > 0),
          ladders.slot(c.chainId, c.tokens[1], c.tokens[0], c.nodes.length > 0),
          h("h4", {}, `Connected nodes: ${c.nodes.length}`),
          c.nodes.length
            ? h(
                "ul",
                { class: "nodes" },
                c.nodes.map((n) =>
                  h(
                    "li",
                    {},
                    h("strong", {}, n.name),
                    " ",
                    address(n.address, shortAddress(n.address)),
                    " ",
                    pill(n.fresh ? n.state : "stale", n.fresh ? n.state : "stale"),
                    " ",
                    h(
                      "span",
                      { class: "muted" },
                      n.lastHeartbeat ? `heartbeat ${ago(n.lastHeartbeat, now)}` : "no heartbeat yet",
                    ),
                  ),
                ),
              )
            : h("p", { class: "muted" }, "No node is connected: quotes here find no offer."),
        ),
      ),
    ),
  ];
}

function resolversSection({ resolvers, inactive, nextCursor }, now, more) {
  const rows = resolvers.map((r) => [
    h(
      "span",
      {},
      h("a", { href: resolverHref(r.address), class: "resolver-link" }, h("strong", {}, r.name)),
      h("br"),
      address(r.address, shortAddress(r.address)),
    ),
    h(
      "span",
      {},
      pill(r.online ? "online" : "offline"),
      r.state ? [" ", pill(r.state)] : null,
      r.degraded ? h("span", { class: "muted" }, ` ${r.degraded}`) : null,
    ),
    reliabilityCell(r),
    r.badges.length
      ? h(
          "span",
          {},
          r.badges.map((b) => pill(b, "badge")),
        )
      : "—",
    r.demoted
      ? h(
          "span",
          {},
          pill("demoted"),
          ` until ${r.demotedUntil ? dateTime(r.demotedUntil) : "reinstated"}`,
          r.demotionReason ? h("br") : null,
          r.demotionReason,
        )
      : "no",
    r.lastSeen ? ago(r.lastSeen, now) : "—",
  ]);
  return [
    h("h2", { id: "resolvers-title" }, "Resolvers"),
    h(
      "p",
      { class: "muted" },
      "Reliability is response × fill × uptime over the last 7 days, once each has 20 samples.",
    ),
    resolvers.length
      ? table(["Resolver", "State", "Reliability", "Badges", "Demoted", "Last seen"], rows, { id: "resolver-table" })
      : h("p", { class: "muted" }, "No resolver has connected in the last 7 days."),
    nextCursor ? moreButton(more) : null,
    inactive ? h("p", { class: "muted" }, `${inactive} inactive resolvers are not listed.`) : null,
  ];
}

/** The button that opens the directory's next page. */
function moreButton(more) {
  const button = h("button", { type: "button", class: "more", id: "resolvers-more" }, "More");
  button.addEventListener("click", () => more(button));
  return button;
}

function reliabilityCell(r) {
  const detail = r.reliabilityDetail;
  const measure = (name, m) => `${name} ${percent(m.rate)} (${m.samples})`;
  return h(
    "span",
    {},
    h("strong", {}, r.reliability === null ? "not yet" : percent(r.reliability)),
    detail
      ? h(
          "small",
          { class: "muted detail" },
          [measure("response", detail.response), measure("fill", detail.fill), measure("uptime", detail.uptime)].join(
            " · ",
          ),
        )
      : null,
  );
}

function ratesSection(config, { bands, sources, unavailable }, now) {
  return [
    h("h2", { id: "rates-title" }, "Rate bands"),
    h(
      "p",
      { class: "muted" },
      "Advisory: the median of public sources, recomputed every 10 s; never a quote's price. Native prices price the gas fee.",
    ),
    bands.length
      ? table(
          ["Corridor", "Mid", "Low", "High", "Sources", "Computed"],
          bands.map((b) => [
            bandName(config, b),
            `${number(b.mid)} ${b.quote}/${b.base}`,
            number(b.low),
            number(b.high),
            b.sources,
            ago(b.at, now),
          ]),
          { id: "band-table" },
        )
      : h("p", { class: "muted" }, "No corridor has a band yet."),
    h("h3", {}, "Sources"),
    sources.length
      ? table(
          ["Source", "Value", "Bid", "Ask", "Age"],
          sources.map((s) => [
            s.name,
            number(s.value),
            s.bid === null ? "—" : number(s.bid),
            s.ask === null ? "—" : number(s.ask),
            `${s.ageSeconds} s`,
          ]),
          { id: "source-table" },
        )
      : h("p", { class: "muted" }, "No source answers plausibly right now."),
    unavailable.length
      ? h(
          "p",
          {},
          h("strong", {}, "Failing now: "),
          unavailable.join(", "),
          h("span", { class: "muted" }, " (left out of every band)"),
        )
      : null,
  ];
}
