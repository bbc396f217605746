/**
 * `scripts/check-config.ts`'s protocol-fee check (docs/configuration.md, "Checking a configuration"):
 * each chain whose contracts keep bps (EVM: the FeeController) is asked them; a configured `fee.bps`
 * that differs on any token is refused, and a chain that does not answer is reported unchecked.
 */
import { readContractFeeBps, type TokenFeeBps } from "../../src/chains/protocol-fee";
import type { ChainConfig, RelayConfig } from "../../src/config/schema";
import { describeFeeDifference, feeDifferences } from "../../src/ops/fee-truth";

export interface FeeCheck {
  /** One line per token whose on-chain bps differ, naming the chain, the token and both values. */
  refused: string[];
  /** One line per chain that could not be asked, and why. */
  unchecked: string[];
  /** The chains whose bps agree. */
  agreed: string[];
}

type Reader = (chain: ChainConfig) => Promise<TokenFeeBps[]> | null;

const nameOf = (chain: ChainConfig) => `chain ${chain.name} (${chain.chainId})`;

/** Asks every chain at once; never throws. */
export async function checkFeeBps(config: RelayConfig, read: Reader = (c) => readContractFeeBps(c)): Promise<FeeCheck> {
  const check: FeeCheck = { refused: [], unchecked: [], agreed: [] };
  const answers = await Promise.all(
    config.chains.map(async (chain) => {
      try {
        return { chain, onChain: await read(chain) };
      } catch (e) {
        return { chain, error: e instanceof Error ? e.message : String(e) };
      }
    }),
  );
  for (const answer of answers) {
    const { chain } = answer;
    if ("error" in answer) {
      check.unchecked.push(`${nameOf(chain)}: could not check fee.bps against the FeeController: ${answer.error}`);
      continue;
    }
    if (answer.onChain === null) continue;
    const differences = feeDifferences(chain.fee.bps, answer.onChain);
    if (differences.length === 0) check.agreed.push(nameOf(chain));
    for (const d of differences) check.refused.push(`${nameOf(chain)}: ${describeFeeDifference(d)}`);
  }
  return check;
}
