/**
 * The geometry of a corridor's live ladder (docs/explorer.md, "The live ladder"): the best rate over the
 * resolvers' fresh ladders (`GET /v1/prices` without an amount) by amount sold, the amount on a log
 * scale, as SVG path data. Floats only place points on the screen; amounts stay strings. Pure:
 * unit-tested in Node.
 */

/** @typedef {{width: number, height: number, top: number, right: number, bottom: number, left: number}} Box */

/** A rung's rate in whole buy tokens per whole sell token, for drawing. */
export function rateOf(level, sellDecimals, buyDecimals) {
  return (Number(level.buyAmount) / Number(level.sellAmount)) * 10 ** (sellDecimals - buyDecimals);
}

/**
 * Where each rung sits: x by the log of its amount sold, y by its rate (the best at the top), and the
 * ranges drawn. A flat ladder is given a span of ±0.1 % so its line sits mid-height.
 *
 * @param {{sellAmount: string, buyAmount: string}[]} levels by increasing sellAmount
 * @param {number} sellDecimals
 * @param {number} buyDecimals
 * @param {Box} box
 */
export function ladderGeometry(levels, sellDecimals, buyDecimals, box) {
  const logs = levels.map((l) => Math.log10(Number(l.sellAmount)));
  const rates = levels.map((l) => rateOf(l, sellDecimals, buyDecimals));
  const [minLog, maxLog] = [Math.min(...logs), Math.max(...logs)];
  let [low, high] = [Math.min(...rates), Math.max(...rates)];
  if (high - low < high * 0.002) [low, high] = [(low + high) / 2 - high * 0.001, (low + high) / 2 + high * 0.001];
  const width = box.width - box.left - box.right;
  const height = box.height - box.top - box.bottom;
  const round = (v) => Math.round(v * 10) / 10;
  const points = levels.map((_, i) => ({
    x: round(box.left + (maxLog === minLog ? width / 2 : (width * (logs[i] - minLog)) / (maxLog - minLog))),
    y: round(box.top + height * (1 - (rates[i] - low) / (high - low))),
  }));
  const path = points.map((p, i) => `${i === 0 ? "M" : "L"}${p.x} ${p.y}`).join(" ");
  return { points, path, rates: { low: Math.min(...rates), high: Math.max(...rates) } };
}
