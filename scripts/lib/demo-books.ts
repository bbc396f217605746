/**
 * The keeper's books of the demo's swap (docs/settlement.md, "The keeper's books"), as `npm run demo`
 * prints them last: what the fill cost the keeper and what the quote charged, from `GET
 * /v1/executions/{id}` `keeper`, and the margin in native units and in the charged token, at the native
 * price the fee was priced at.
 */
import { formatUnits } from "viem";
import { type ChainKindName, kindOf } from "../../src/chains/kinds";
import { nativeToToken, tokenToNative } from "../../src/costs/gas-fee";
import type { Execution } from "../../src/schemas/quote";

/** The local stack's native of each chain kind: anvil's ether, the harness's SOL. */
const NATIVE_SYMBOL: Record<ChainKindName, string> = { evm: "ETH", solana: "SOL" };

interface Unit {
  symbol: string;
  decimals: number;
}

const signed = (value: bigint, unit: Unit) =>
  `${value < 0n ? "-" : value > 0n ? "+" : ""}${formatUnits(value < 0n ? -value : value, unit.decimals)} ${unit.symbol}`;
const plain = (value: bigint, unit: Unit) => `${formatUnits(value, unit.decimals)} ${unit.symbol}`;

/**
 * The lines of the books: `spent`, `charged` (and its value in native units at the quote's native price),
 * and `margin = charged − spent` in both units; a fallback fee has no price to convert at, so its margin
 * is not given. `token` is the charged token (null when the relay names one the demo does not know).
 */
export function keeperBooksLines(keeper: Execution["keeper"], kind: ChainKindName, token: Unit | null): string[] {
  if (!keeper) return ["the keeper's books: not recorded (the execution has not settled)"];
  const native = { symbol: NATIVE_SYMBOL[kind], decimals: kindOf({ kind }).nativeDecimals };
  const spent = BigInt(keeper.spent);
  const charged = BigInt(keeper.charged.amount);
  const unit = token ?? { symbol: keeper.charged.token, decimals: 0 };
  const lines = ["the keeper's books for this swap:", `  spent    ${plain(spent, native)} (gas, paid by the keeper)`];
  const price = keeper.nativePrice;
  if (price === null || token === null) {
    const why = price === null ? "the fallback fee: no native price to convert at" : "a token the demo does not know";
    lines.push(`  charged  ${plain(charged, unit)} (${why}; no margin)`);
    return lines;
  }
  const chargedNative = tokenToNative(charged, price, native.decimals, token.decimals);
  const spentInToken = nativeToToken(spent, price, native.decimals, token.decimals);
  lines.push(
    `  charged  ${plain(charged, token)} = ${plain(chargedNative, native)} at ${price} ${token.symbol} per ${native.symbol}`,
    `  margin   ${signed(chargedNative - spent, native)} = ${signed(charged - spentInToken, token)}`,
  );
  return lines;
}
