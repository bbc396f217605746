import { ApiError, getConfig, getJson } from "./api.js";
import { dayLabel, dotsOf, latencyTop, linePath, xAt, yAt } from "./chart.js";
import { fill, h, pill, problem, svg, table } from "./dom.js";
import { ago, dateTime, percent } from "./format.js";
import { quotesTable } from "./quote-list.js";
import { quoteHref } from "./routes.js";
import { demotionText, shortId } from "./summaries.js";

/** The record moves with every auction and fill: read again as often as the overview. */
const REFRESH_MS = 10_000;
const RECENT_WINS = 20;

/**
 * A resolver's page (`#/resolvers/<address>`): its standing, its strikes, the failures of its wins that
 * were never counted against it, its 7 days as a chart, and its recent wins, from `GET
 * /v1/resolvers/{address}` (docs/reliability.md, "A resolver's record") and `GET /v1/quotes?resolver=`.
 *
 * @param {HTMLElement} root
 * @param {string} resolver its identity address
 * @returns {{stop: () => void}}
 */
export function showResolver(root, resolver) {
  fill(root, h("p", { class: "muted" }, `Loading resolver ${resolver}…`));
  const status = h("div", { class: "status" });
  let stopped = false;
  let timer;
  let shown = false;
  const load = async () => {
    try {
      const path = encodeURIComponent(resolver);
      const [config, record, { quotes }] = await Promise.all([
        getConfig(),
        getJson(`/v1/resolvers/${path}`),
        getJson(`/v1/quotes?resolver=${path}&limit=${RECENT_WINS}`),
      ]);
      if (stopped) return;
      const now = Date.now();
      fill(
        root,
        status,
        standing(record, now),
        strikes(record),
        notCounted(record),
        week(record),
        h(
          "section",
          { id: "wins", "aria-labelledby": "wins-title" },
          h("h2", { id: "wins-title" }, "Recent wins"),
          quotes.length
            ? quotesTable(config, quotes, now, { id: "win-table", leave: "resolver" })
            : h("p", { class: "muted" }, "It has won no quote yet."),
        ),
      );
      fill(status, h("p", { class: "muted" }, `Updated ${dateTime(now)}; refreshed every 10 s.`));
      shown = true;
    } catch (e) {
      if (stopped) return;
      if (e instanceof ApiError && e.status === 404 && !shown) {
        fill(
          root,
          problem("No such resolver.", `The relay knows no resolver with the address ${resolver}.`),
          h("p", {}, h("a", { href: "#/" }, "Back to the overview")),
        );
        return;
      }
      if (shown) fill(status, problem("Could not read the resolver.", e.message));
      else
        fill(
          root,
          problem("Could not read the resolver.", e.message),
          h("p", {}, h("a", { href: "#/" }, "Back to the overview")),
        );
    }
    if (!stopped) timer = setTimeout(load, REFRESH_MS);
  };
  load();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

function standing(r, now) {
  const d = r.reliabilityDetail;
  const measure = (name, m) => (m ? `${percent(m.rate)} (${m.samples} ${name})` : "—");
  return h(
    "section",
    { id: "standing", "aria-labelledby": "resolver-title" },
    h("h2", { id: "resolver-title" }, "Resolver ", h("strong", {}, r.name)),
    h("p", {}, h("code", { class: "wrap", id: "resolver-address" }, r.address)),
    h(
      "p",
      { class: "pills" },
      pill(r.online ? "online" : "offline"),
      r.state ? pill(r.state) : null,
      r.demoted ? pill("demoted") : null,
      r.badges.map((b) => pill(b, "badge")),
    ),
    h("p", { id: "demotion", class: r.demoted ? "demotion demoted" : "demotion" }, demotionText(r)),
    h(
      "dl",
      { class: "facts" },
      fact("Reliability", r.reliability === null ? "not yet: each measure needs 20 samples" : percent(r.reliability)),
      fact("Response", measure("asked", d?.response)),
      fact("Fill", measure("fills counted", d?.fill)),
      fact("Uptime", measure("minutes", d?.uptime)),
      fact(
        "Reply latency",
        r.replyLatency ? `p50 ≤ ${r.replyLatency.p50Ms} ms, p99 ≤ ${r.replyLatency.p99Ms} ms` : "no reply yet",
      ),
      fact("Price ladders", levelsText(r.levels)),
      fact("Registered", r.registered ? (r.registeredAt ? `since ${dateTime(r.registeredAt)}` : "yes") : "no"),
      fact("Region", r.region ?? "—"),
      fact("Version", r.version ?? "—"),
      fact("First seen", r.firstSeen ? dateTime(r.firstSeen) : "—"),
      fact("Last seen", r.lastSeen ? ago(r.lastSeen, now) : "—"),
      r.degraded ? fact("Degraded", r.degraded) : null,
    ),
  );
}

/**
 * How honest its price ladders are (docs/reliability.md, "Honest levels"): how much worse what it did with
 * the rfqs its own ladders covered (its bids; a decline, no reply or out-of-band bid as the worst case)
 * was than those ladders over 7 days.
 */
export function levelsText(levels) {
  if (!levels || levels.samples === 0) return "no rfq its own ladder covered yet";
  const of = `over ${levels.samples} rfq${levels.samples === 1 ? "" : "s"} its own ladder covered`;
  return `slippage p50 ${levels.p50SlippageBps} bps, p90 ${levels.p90SlippageBps} bps ${of}`;
}

function strikes(r) {
  return h(
    "section",
    { id: "strikes", "aria-labelledby": "strikes-title" },
    h("h2", { id: "strikes-title" }, `Strikes (${r.strikes.length})`),
    h(
      "p",
      { class: "muted" },
      "Failures that were its own: each counted against it and demoted it (last 50, newest first).",
    ),
    r.strikes.length
      ? table(
          ["When", "Reason", "Blame", "Quote", "Demoted until"],
          r.strikes.map((s) => [
            h("time", { datetime: s.at }, dateTime(s.at)),
            h("span", { class: "wrap" }, s.reason),
            pill(s.blame, "blame"),
            s.quoteId
              ? h("a", { href: quoteHref(s.quoteId), title: s.quoteId }, h("code", {}, shortId(s.quoteId)))
              : h("code", { class: "wrap" }, s.event),
            dateTime(s.demotedUntil),
          ]),
          { id: "strike-table" },
        )
      : h("p", { class: "muted" }, "No strike."),
  );
}

function notCounted(r) {
  return h(
    "section",
    { id: "not-counted", "aria-labelledby": "not-counted-title" },
    h("h2", { id: "not-counted-title" }, `Failures not counted (${r.notCounted.length})`),
    h(
      "p",
      { class: "muted" },
      "Fills of its wins that failed for the taker's or the relay's reason: never counted against it, and no demotion.",
    ),
    r.notCounted.length
      ? table(
          ["When", "Outcome", "Reason", "Blame", "Quote"],
          r.notCounted.map((x) => [
            h("time", { datetime: x.at }, dateTime(x.at)),
            pill(x.status),
            h("span", { class: "wrap" }, x.reason),
            pill(x.blame, "blame"),
            h("a", { href: quoteHref(x.quoteId), title: x.quoteId }, h("code", {}, shortId(x.quoteId))),
          ]),
          { id: "not-counted-table" },
        )
      : h("p", { class: "muted" }, "None."),
  );
}

/** The chart's size in SVG units; it scales to the width of its column. */
const BOX = { width: 340, height: 170, top: 12, right: 22, bottom: 26, left: 46 };

function week(r) {
  const days = r.days;
  const rates = chart(
    "rate-chart",
    "Response and fill rate by day",
    days,
    [
      { key: "response", label: "Response rate", values: days.map((d) => d.responseRate) },
      { key: "fill", label: "Fill rate", values: days.map((d) => d.fillRate) },
    ],
    1,
    (v) => `${Math.round(v * 100)}%`,
  );
  const top = latencyTop(days);
  const latency = chart(
    "latency-chart",
    "Reply latency by day (upper bound of the bucket)",
    days,
    [
      { key: "p50", label: "p50", values: days.map((d) => d.replyLatency?.p50Ms ?? null) },
      { key: "p99", label: "p99", values: days.map((d) => d.replyLatency?.p99Ms ?? null) },
    ],
    top,
    (v) => `${v} ms`,
  );
  return h(
    "section",
    { id: "week", "aria-labelledby": "week-title" },
    h("h2", { id: "week-title" }, "The last 7 days"),
    h("p", { class: "muted" }, "UTC days, oldest first. A day with no sample leaves a gap."),
    h("div", { class: "charts" }, rates, latency),
    h(
      "details",
      {},
      h("summary", {}, "The days in figures"),
      table(
        ["Day", "Asked", "Answered", "Won", "Submitted", "Settled", "Failed", "Response", "Fill", "Latency p50 / p99"],
        days.map((d) => [
          d.day,
          d.asked,
          d.answered,
          d.won,
          d.submitted,
          d.settled,
          d.failed,
          percent(d.responseRate),
          percent(d.fillRate),
          d.replyLatency ? `${d.replyLatency.p50Ms} / ${d.replyLatency.p99Ms} ms` : "—",
        ]),
        { id: "day-table" },
      ),
    ),
  );
}

/**
 * An inline SVG line chart: a grid at 0, half and the top, one labelled tick per day, and each series
 * as a path with a dot per day that has a value (docs/explorer.md).
 */
function chart(id, title, days, series, max, label) {
  const n = days.length;
  const grid = [0, max / 2, max].map((v) => {
    const y = yAt(BOX, v, max);
    return [
      svg("line", { x1: BOX.left, x2: BOX.width - BOX.right, y1: y, y2: y, class: "grid" }),
      svg("text", { x: BOX.left - 6, y: y + 4, "text-anchor": "end", class: "axis" }, label(v)),
    ];
  });
  const ticks = days.map((d, i) =>
    svg("text", { x: xAt(BOX, i, n), y: BOX.height - 8, "text-anchor": "middle", class: "axis" }, dayLabel(d.day)),
  );
  const lines = series.map((s) =>
    svg(
      "g",
      { class: `series series-${s.key}`, "data-series": s.key },
      svg("path", { d: linePath(s.values, BOX, max), fill: "none" }),
      dotsOf(s.values, BOX, max).map((p) =>
        svg(
          "circle",
          { cx: p.x, cy: p.y, r: s.key === "response" || s.key === "p50" ? 5 : 3 },
          svg("title", {}, `${days[p.i].day}: ${s.label} ${label(p.value)}`),
        ),
      ),
    ),
  );
  return h(
    "figure",
    { class: "chart", id },
    svg(
      "svg",
      { viewBox: `0 0 ${BOX.width} ${BOX.height}`, role: "img", "aria-label": title },
      svg("title", {}, title),
      grid,
      ticks,
      lines,
    ),
    h(
      "figcaption",
      {},
      title,
      h(
        "span",
        { class: "legend" },
        series.map((s) => h("span", { class: `key key-${s.key}` }, s.label)),
      ),
    ),
  );
}

const fact = (term, value) => [h("dt", {}, term), h("dd", {}, value)];
