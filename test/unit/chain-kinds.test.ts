import { describe, expect, it } from "vitest";
import {
  adapterFor,
  CHAIN_KINDS,
  type ChainKind,
  chainRecord,
  costsFor,
  type EvmChain,
  kindOf,
  limitOrdersFor,
} from "../../src/chains";
import { localConfig } from "../../src/config/local";

describe("the chain kinds' registry", () => {
  it("reaches every configured chain's kind by its name, and the chain's ports are that kind's", () => {
    const kinds = localConfig.chains.map((c) => c.kind);
    expect(new Set(kinds)).toEqual(new Set(Object.keys(CHAIN_KINDS)));
    for (const chain of localConfig.chains) {
      expect(kindOf(chain)).toBe(CHAIN_KINDS[chain.kind]);
      expect(adapterFor(chain).kind).toBe(chain.kind);
      expect(chainRecord(chain).kind).toBe(chain.kind);
      expect(costsFor(chain).nativeDecimals).toBe(CHAIN_KINDS[chain.kind].nativeDecimals);
      expect(limitOrdersFor(chain) === null).toBe(CHAIN_KINDS[chain.kind].limitOrders === null);
    }
  });

  it("gives each kind's configuration schema the chains of that kind, and refuses another kind's", () => {
    for (const chain of localConfig.chains) {
      expect(kindOf(chain).configSchema.safeParse(chain).success).toBe(true);
      const other = localConfig.chains.find((c) => c.kind !== chain.kind);
      expect(other && kindOf(chain).configSchema.safeParse(other).success).toBe(false);
    }
  });

  it("refuses, at compile time, an entry that lacks a member of ChainKind", () => {
    const { readHead: _dropped, ...withoutHead } = CHAIN_KINDS.evm;
    // @ts-expect-error: an entry without `readHead` is not a chain kind.
    const partial: ChainKind<EvmChain, unknown> = withoutHead;
    expect("readHead" in partial).toBe(false);
  });
});
