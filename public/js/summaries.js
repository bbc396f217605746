/**
 * Lines the lists of the explorer print (docs/explorer.md): a quote's swap in tokens, a resolver's
 * demotion, the keeper's books per chain. Pure: unit-tested in Node against the relay's own records.
 */
import { tokenOf } from "./corridors.js";
import { dateTime, significant, units } from "./format.js";

/**
 * What a quote of a list swaps, in whole tokens: `1,580 cNGN → 1 USDC`.
 *
 * @param {any} config the configuration record
 * @param {{chainId: number, sellToken: string, buyToken: string, sellAmount: string, received: string}} quote
 */
export function swapOf(config, quote) {
  const sell = tokenOf(config, quote.chainId, quote.sellToken);
  const buy = tokenOf(config, quote.chainId, quote.buyToken);
  return `${units(quote.sellAmount, sell.decimals)} ${sell.symbol} → ${units(quote.received, buy.decimals)} ${buy.symbol}`;
}

/** `q_1f0c…9a2e`: a quote's or an order's id shortened for a list, the whole of it in the link's title. */
export function shortId(id) {
  const [prefix, rest] = id.includes("_")
    ? [id.slice(0, id.indexOf("_") + 1), id.slice(id.indexOf("_") + 1)]
    : ["", id];
  return rest.length > 12 ? `${prefix}${rest.slice(0, 4)}…${rest.slice(-4)}` : id;
}

/**
 * A resolver's demotion as a sentence (docs/reliability.md): until when and why, or that it is not
 * demoted.
 *
 * @param {{demoted: boolean, demotedUntil: string | null, demotionReason: string | null}} resolver
 */
export function demotionText(resolver) {
  if (!resolver.demoted) return "Not demoted: its offers can win.";
  const until = resolver.demotedUntil ? `until ${dateTime(resolver.demotedUntil)}` : "until reinstated";
  return `Demoted ${until}: asked, but cannot win.${resolver.demotionReason ? ` Why: ${resolver.demotionReason}` : ""}`;
}

/** A chain's native token: what the keeper pays gas in, and what its books count in base units. */
export function nativeOf(chain) {
  return chain?.kind === "solana" ? { symbol: "SOL", decimals: 9 } : { symbol: "ETH", decimals: 18 };
}

/**
 * The keeper's books per chain over the last 24 h (`GET /v1/health`, `chains[].books`; docs/api.md,
 * "Corridors and health"), in whole native tokens to 4 significant digits: what the quotes charged, what
 * the keeper spent, and the margin between them, negative when it paid more than it charged.
 *
 * @param {any} config the configuration record
 * @param {{chains: Array<{chainId: number, name: string, books: any}>}} health
 */
export function keeperMargins(config, health) {
  return health.chains.map((c) => {
    const chain = config.chains.find((x) => x.chainId === c.chainId);
    const native = nativeOf(chain);
    const whole = (amount) => `${significant(units(amount, native.decimals), 4)} ${native.symbol}`;
    const b = c.books;
    if (!b) return { chainId: c.chainId, name: c.name, books: null };
    const notes = [];
    if (b.unpriced) notes.push(`${b.unpriced} at the fallback fee, not in charged`);
    if (b.capped) notes.push("only the newest fills counted");
    return {
      chainId: c.chainId,
      name: c.name,
      books: {
        fills: b.fills,
        charged: whole(b.charged),
        spent: whole(b.spent),
        margin: whole(b.margin),
        negative: b.margin.startsWith("-"),
        notes,
      },
    };
  });
}
