import { getJson } from "./api.js";
import { fill, h, svg } from "./dom.js";
import { ago, number, units } from "./format.js";
import { ladderGeometry } from "./ladder-chart.js";

/** How often the live ladders are read again. */
const LADDER_REFRESH_MS = 2_000;
const BOX = { width: 320, height: 120, top: 8, right: 8, bottom: 8, left: 8 };

/**
 * The overview's live ladders (docs/explorer.md, "The live ladder"): for each corridor and direction the
 * best ladder over the resolvers' fresh ones (`GET /v1/prices` without an amount), drawn as SVG and read
 * again every 2 s. The overview re-renders its cards every 10 s: each card asks `slot` for a ladder's
 * element, which shows the last ladder read until the next read fills it.
 */
export class LadderWatch {
  /** @param {HTMLElement} root where the slots are */
  constructor(root) {
    this.root = root;
    /** @type {{chainId: number, sell: any, buy: any, id: string}[]} */
    this.sides = [];
    /** @type {Map<string, any>} the last answer per side: a ladder, or null when there is none */
    this.last = new Map();
    this.timer = undefined;
    this.stopped = false;
  }

  /**
   * The element a card shows the ladder selling `sell` for `buy` in, filled from the last read; a corridor
   * no node is connected to has no ladder, and is not asked for one.
   */
  slot(chainId, sell, buy, connected) {
    const id = `${chainId}:${sell.address}:${buy.address}`;
    let side = this.sides.find((s) => s.id === id);
    if (!side) {
      side = { chainId, sell, buy, id, connected };
      this.sides.push(side);
    }
    side.connected = connected;
    if (!connected) this.last.set(id, null);
    const el = h("figure", { class: "ladder", "data-ladder": id });
    this.show(el, side);
    return el;
  }

  /** Reads every side's ladder now and every 2 s until `stop`. */
  start() {
    const read = async () => {
      await Promise.all(
        this.sides
          .filter((side) => side.connected)
          .map(async (side) => {
            const query = `chainId=${side.chainId}&sellToken=${side.sell.address}&buyToken=${side.buy.address}`;
            try {
              this.last.set(side.id, await getJson(`/v1/prices?${query}`));
            } catch (e) {
              this.last.set(side.id, e.status === 404 ? null : this.last.get(side.id));
            }
            const el = this.root.querySelector(`[data-ladder="${CSS.escape(side.id)}"]`);
            if (el && !this.stopped) this.show(el, side);
          }),
      );
      if (!this.stopped) this.timer = setTimeout(read, LADDER_REFRESH_MS);
    };
    read();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  show(el, side) {
    const ladder = this.last.get(side.id);
    const title = h("figcaption", {}, `Live ladder: ${side.sell.symbol} → ${side.buy.symbol}`);
    if (!ladder) {
      const why = ladder === null ? "No resolver streams a fresh ladder." : "Reading the ladder…";
      fill(el, title, h("p", { class: "muted" }, why));
      return;
    }
    const { levels } = ladder;
    const geometry = ladderGeometry(levels, side.sell.decimals, side.buy.decimals, BOX);
    const first = levels[0];
    const last = levels[levels.length - 1];
    el.setAttribute("data-at", ladder.at);
    fill(
      el,
      title,
      svg(
        "svg",
        {
          viewBox: `0 0 ${BOX.width} ${BOX.height}`,
          role: "img",
          "aria-label": `Best rate by amount sold, ${side.sell.symbol} to ${side.buy.symbol}`,
        },
        svg("path", { d: geometry.path, class: "ladder-line" }),
        ...geometry.points.map((p) => svg("circle", { cx: p.x, cy: p.y, r: 2.5, class: "ladder-rung" })),
      ),
      h(
        "p",
        { class: "muted" },
        `${levels.length} rungs from ${units(first.sellAmount, side.sell.decimals)} to ${units(last.sellAmount, side.sell.decimals)} ${side.sell.symbol}: `,
        `1 ${side.sell.symbol} = ${number(geometry.rates.high)}–${number(geometry.rates.low)} ${side.buy.symbol}, `,
        `${ladder.resolvers} resolver${ladder.resolvers === 1 ? "" : "s"}, ${ago(Date.parse(ladder.at), Date.now())}. Indicative, not firm.`,
      ),
    );
  }
}
