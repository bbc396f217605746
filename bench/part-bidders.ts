/**
 * The bench's resolvers that bid parts (bench/README.md, "Parts beside whole bids"): reference resolvers
 * (the real client, which signs a part over `rfqFillPart`, docs/legs.md "For resolvers") whose inventory
 * covers a fixed share of what the whole would deliver, so that the client offers that share of every rfq
 * (docs/reference-resolver.md, "Parts"). The shares are 60 % and 40 %, so a pair of them sums to exactly
 * the asked amount and is composed into two legs; each part is priced at a premium drawn per bid, so
 * that a pair pays the taker more than the best whole bid after its extra leg's gas fee some of the time.
 */
import type { InventorySource } from "../src/clients/resolver/inventory";
import { staticInventory } from "../src/clients/resolver/inventory";
import { fixedRatePricer, type Pricer, type Rational, sameToken } from "../src/clients/resolver/pricing";
import type { ChainInfo } from "../src/clients/resolver/relay-config";

const BPS = 10_000n;

/** The two shares of the whole the part bidders hold, in turn: together exactly the whole. */
export const PART_SHARES: readonly Rational[] = [
  { num: 3n, den: 5n },
  { num: 2n, den: 5n },
];

export interface PartBidderOptions {
  /** The resolver's rate for the whole, USDC per cNGN, as the fleet gives it. */
  rate: Rational;
  share: Rational;
  /** What every rfq of the bench sells, in cNGN base units. */
  wholeSell: bigint;
  /** The most a part is priced over `rate`; each bid draws its premium from 0 up to it. */
  maxPremiumBps: number;
  random: () => number;
  /** The bench's sold token; the others are the bought ones, with the same decimals (6). */
  sellToken: string;
  chains: readonly ChainInfo[];
}

const premium = (rate: Rational, bps: bigint): Rational => ({ num: rate.num * (BPS + bps), den: rate.den * BPS });

/**
 * The whole's price at the full premium, rounded up to a multiple of the share's denominator: what the
 * bidder answers for the whole, so that the share of it it holds is exact and its part is exactly the
 * share of the sale (the client's part is `whole × held ÷ the whole's price`).
 */
export function wholeCeiling(options: Pick<PartBidderOptions, "rate" | "share" | "wholeSell" | "maxPremiumBps">) {
  const { num, den } = premium(options.rate, BigInt(options.maxPremiumBps));
  const exact = (options.wholeSell * num + den - 1n) / den;
  const step = options.share.den;
  return ((exact + step - 1n) / step) * step;
}

/** A part bidder's pricer and inventory, for `startResolverFleet`'s `own` (test/support/reference-resolvers.ts). */
export function partBidder(options: PartBidderOptions): { pricer: Pricer; inventory: InventorySource } {
  const ceiling = wholeCeiling(options);
  const held = (ceiling * options.share.num) / options.share.den;
  const plain = fixedRatePricer({ rate: options.rate, sellSymbol: "cNGN" });
  const max = options.maxPremiumBps;
  const pricer: Pricer = (request) => {
    if (!sameToken(request.sellToken.address, options.sellToken)) return plain(request);
    if (request.sellAmount === options.wholeSell) return { outputAmount: ceiling };
    // A part (or a ladder's rung): its premium drawn for this bid, never past what the share holds.
    const bps = BigInt(Math.floor(options.random() * max));
    return fixedRatePricer({ rate: premium(options.rate, bps), sellSymbol: "cNGN" })(request);
  };
  const inventory = staticInventory(
    options.chains.flatMap((c) =>
      c.tokens.map((t) => {
        const amount = sameToken(t.address, options.sellToken) ? 10n ** 18n : held;
        return { chainId: c.chainId, token: t.address, balance: amount.toString(), allowance: amount.toString() };
      }),
    ),
  );
  return { pricer, inventory };
}
