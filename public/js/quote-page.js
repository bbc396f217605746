import { ApiError, getConfig, getJson } from "./api.js";
import { tokenOf } from "./corridors.js";
import { address, fill, h, pill, problem, table } from "./dom.js";
import { clock, dateTime, elapsed, number, shortAddress, units } from "./format.js";
import { legSection } from "./leg-section.js";
import { resolverHref, takerHref } from "./routes.js";
import { describeDetail, entriesOf, mergeTimeline, outcomeOf, placeEntry, quoteIsOver, stageOf } from "./timeline.js";
import { followTimeline } from "./timeline-stream.js";

/** What the live marker says in each state of the stream. */
const LIVE_TEXT = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  ended: "complete",
  unavailable: "live updates unavailable: reload for later events",
};

/**
 * A quote's page (`#/quotes/<id>`): what was swapped, the auction transcript (every offer with its
 * latency, rank and outcome, the reply counts, the steering) and the timeline, kept live through the
 * quote's event stream until a terminal event. Each event also reads the record again, so executions and
 * the settlement follow the timeline.
 *
 * @param {HTMLElement} root
 * @param {string} quoteId
 * @returns {{stop: () => void}}
 */
export function showQuote(root, quoteId) {
  fill(root, h("p", { class: "muted" }, `Loading quote ${quoteId}…`));
  const state = { config: null, quote: null, timeline: [], live: "connecting" };
  let stopped = false;
  let stream = null;
  let reading = null;

  const render = () => {
    if (!stopped && state.quote) fill(root, ...quoteView(state));
  };
  const read = () => getJson(`/v1/quotes/${encodeURIComponent(quoteId)}`);
  // One read at a time; an event that arrives during a read asks for one more after it.
  let again = false;
  const reread = () => {
    if (reading) {
      again = true;
      return;
    }
    reading = read()
      .then((quote) => {
        state.quote = quote;
        state.timeline = mergeTimeline(state.timeline, quote.timeline);
        render();
      })
      .catch(() => {
        // The timeline still follows the stream; the record is read again with the next event.
      })
      .finally(() => {
        reading = null;
        if (again && !stopped) {
          again = false;
          reread();
        }
      });
  };

  Promise.all([getConfig(), read()])
    .then(([config, quote]) => {
      if (stopped) return;
      Object.assign(state, { config, quote, timeline: quote.timeline });
      if (quoteIsOver(quote)) state.live = "ended";
      else {
        stream = followTimeline(quoteId, {
          onEntry: (position, entry) => {
            state.timeline = placeEntry(state.timeline, position, entry);
            render();
            reread();
          },
          onState: (live) => {
            state.live = live;
            render();
          },
        });
      }
      render();
    })
    .catch((e) => {
      if (stopped) return;
      fill(
        root,
        e instanceof ApiError && e.status === 404
          ? problem("No such quote.", `The relay has no quote with the id ${quoteId}. Check the id and try again.`)
          : problem("Could not read the quote.", e.message),
        h("p", {}, h("a", { href: "#/" }, "Back to the overview")),
      );
    });

  return {
    stop: () => {
      stopped = true;
      stream?.close();
    },
  };
}

function quoteView({ config, quote, timeline, live }) {
  const sell = tokenOf(config, quote.chainId, quote.sellToken);
  const buy = tokenOf(config, quote.chainId, quote.buyToken);
  const chain = config.chains.find((c) => c.chainId === quote.chainId);
  const amount = (token, value) => `${units(value, token.decimals)} ${token.symbol}`;
  const feeToken = (fee) => tokenOf(config, quote.chainId, fee.token);
  const stage = stageOf(timeline, quote.status);
  return [
    h(
      "section",
      { id: "quote", "aria-labelledby": "quote-title" },
      h("h2", { id: "quote-title" }, "Quote ", h("code", { class: "wrap" }, quote.quoteId)),
      h(
        "p",
        { class: "stage" },
        "Stage ",
        h("span", { id: "quote-stage", class: `pill pill-${stage}` }, stage),
        " ",
        h("span", { id: "live", class: `live live-${live}` }, LIVE_TEXT[live]),
      ),
      h(
        "dl",
        { class: "facts" },
        fact("Sells", amount(sell, quote.sellAmount)),
        fact("Receives", amount(buy, quote.received)),
        fact("Fee", amount(feeToken(quote.fee), quote.fee.amount)),
        fact("Gas fee", amount(feeToken(quote.gasFee), quote.gasFee.amount)),
        fact("Taker pays", amount(sell, quote.takerPays)),
        fact(
          "Winner",
          quote.resolver ? h("a", { href: resolverHref(quote.resolver.address) }, quote.resolver.name) : "none",
        ),
        fact("Chain", chain ? `${chain.name} · ${quote.chainId}` : quote.chainId),
        fact("Taker", h("a", { href: takerHref(quote.taker) }, address(quote.taker, shortAddress(quote.taker)))),
        fact("Band", quote.band ? `1 ${quote.band.base} = ${number(quote.band.mid)} ${quote.band.quote}` : "none"),
        fact("Quoted", dateTime(quote.quotedAt)),
        fact("Expires", dateTime(quote.expiresAt)),
      ),
    ),
    legSection(quote, sell, buy),
    transcript(quote, sell, buy),
    h(
      "section",
      { id: "timeline", "aria-labelledby": "timeline-title" },
      h("h2", { id: "timeline-title" }, "Timeline"),
      h(
        "ol",
        { class: "timeline" },
        entriesOf(timeline).map((entry, i, all) =>
          h(
            "li",
            { "data-event": entry.event },
            pill(entry.event),
            " ",
            h("time", { datetime: entry.at }, clock(entry.at)),
            i > 0 ? h("span", { class: "muted" }, ` ${elapsed(all[0].at, entry.at)}`) : null,
            describeDetail(entry) ? h("div", { class: "detail wrap" }, describeDetail(entry)) : null,
          ),
        ),
      ),
    ),
    settlement(quote),
  ];
}

function transcript(quote, sell, buy) {
  const { replies, steering } = quote;
  // A part's amount beside its resolver, where any bid was a part (docs/legs.md); else the columns of old.
  const parts = quote.offers.some((o) => o.sellAmount !== undefined);
  const sold = (o) =>
    o.sellAmount === undefined ? "the whole" : `${units(o.sellAmount, sell.decimals)} ${sell.symbol}`;
  return h(
    "section",
    { id: "transcript", "aria-labelledby": "transcript-title" },
    h("h2", { id: "transcript-title" }, "Auction transcript"),
    h(
      "p",
      { id: "replies" },
      `Replies: ${replies.valid} valid, ${replies.rejected} rejected, ${replies.declined} declined, `,
      `${replies.noReply} without reply, ${replies.late} late.`,
    ),
    quote.offers.length
      ? table(
          ["Rank", "Resolver", ...(parts ? ["Sells"] : []), "Output", "Latency", "Outcome"],
          quote.offers.map((o) => {
            const outcome = outcomeOf(o.status);
            return [
              o.rank,
              h(
                "span",
                {},
                h("a", { href: resolverHref(o.resolver) }, h("strong", {}, o.name)),
                " ",
                address(o.resolver, shortAddress(o.resolver)),
              ),
              ...(parts ? [sold(o)] : []),
              `${units(o.outputAmount, buy.decimals)} ${buy.symbol}`,
              `${o.latencyMs} ms`,
              pill(outcome.label, outcome.kind),
            ];
          }),
          { id: "offer-table" },
        )
      : h("p", { class: "muted" }, "No valid offer."),
    steering
      ? h(
          "p",
          { class: "muted" },
          `Steering: band guard ${steering.bandGuardBps} bps`,
          steering.minOutput && steering.maxOutput
            ? `, outputs from ${units(steering.minOutput, buy.decimals)} to ${units(steering.maxOutput, buy.decimals)} ${buy.symbol} may win`
            : "",
          `; ${steering.outsideBand.length} outside the band, ${steering.demoted.length} demoted.`,
        )
      : null,
  );
}

function settlement(quote) {
  if (!quote.executions.length && !quote.settlement) return null;
  const s = quote.settlement;
  return h(
    "section",
    { id: "settlement", "aria-labelledby": "settlement-title" },
    h("h2", { id: "settlement-title" }, "Settlement"),
    quote.executions.length
      ? table(
          ["Execution", "Status", "Transaction", "Gas used"],
          quote.executions.map((x) => [
            h("code", { class: "wrap" }, x.executionId),
            h("span", {}, pill(x.status), x.reason ? ` ${x.reason}` : ""),
            x.txHash ? h("code", { class: "wrap" }, x.txHash) : "—",
            x.gasUsed ?? "—",
          ]),
        )
      : null,
    s
      ? h(
          "p",
          {},
          `Block ${s.block}`,
          s.confirmed ? `, confirmed ${s.confirmedAt ? dateTime(s.confirmedAt) : ""}` : ", not yet final",
          "; submitted by ",
          address(s.submitter, shortAddress(s.submitter)),
          ".",
        )
      : null,
  );
}

const fact = (term, value) => [h("dt", {}, term), h("dd", {}, value)];
