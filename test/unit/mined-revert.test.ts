import { describe, expect, it } from "vitest";
import { minedReason, minedRevert, minedRevertReason } from "../../src/chains/evm/settler-revert";
import type { RevertOutcome } from "../../src/chains/settler";

/** A revert as a test names it: the outcome it stands for. */
class Reverted extends Error {
  constructor(readonly outcome: RevertOutcome) {
    super("execution reverted");
  }
}
const outcomeOf = (e: unknown): RevertOutcome => (e as Reverted).outcome;
const requote = (reason: string): RevertOutcome => ({ kind: "requote", reason });

/** A chain whose replays at each block answer as `at` says (undefined: the call passes); the blocks asked. */
function chain(at: (block: bigint) => RevertOutcome | "down" | undefined) {
  const asked: bigint[] = [];
  const replay = async (block: bigint) => {
    asked.push(block);
    const answer = at(block);
    if (answer === "down") throw new TypeError("fetch failed");
    if (answer) throw new Reverted(answer);
    return "0x";
  };
  return { asked, replay };
}

describe("minedRevertReason: a mined revert attributed against the chain it met", () => {
  it("reads the block before first: what the taker changed before the block is the taker's", async () => {
    const { asked, replay } = chain(() => requote("taker:nonce_used"));
    expect(await minedRevertReason(replay, outcomeOf, 42)).toBe("taker:nonce_used");
    expect(asked).toEqual([41n]);
  });

  it("reads the block's own state when the block before passes: a front-run inside the block is seen", async () => {
    const { asked, replay } = chain((block) => (block === 42n ? requote("taker:insufficient_balance") : undefined));
    expect(await minedRevertReason(replay, outcomeOf, 42)).toBe("taker:insufficient_balance");
    expect(asked).toEqual([41n, 42n]);
  });

  it("keeps what the replay's outcome says beside its reason: by how much a resolver in the same block fell short", async () => {
    const short: RevertOutcome = { kind: "requote", reason: "resolver:insufficient_balance", shortfall: 1_000_000n };
    const { replay } = chain((block) => (block === 42n ? short : undefined));
    expect(await minedRevert(replay, outcomeOf, 42)).toEqual(short);
  });

  it("names nobody when neither replay reverts, or the chain does not answer", async () => {
    expect(await minedRevertReason(chain(() => undefined).replay, outcomeOf, 42)).toBeNull();
    expect(await minedRevertReason(chain(() => "down").replay, outcomeOf, 42)).toBeNull();
    const late = chain((block) => (block === 42n ? "down" : undefined));
    expect(await minedRevertReason(late.replay, outcomeOf, 42)).toBeNull();
  });

  it("records every outcome with its party: a refused taker signature is the taker's, a refused keeper the relay's", () => {
    expect(minedReason({ kind: "bad_signature" })).toBe("taker:bad_signature");
    expect(minedReason({ kind: "keeper_refused", reason: "keeper_not_allowed" })).toBe("relay:keeper_not_allowed");
    expect(minedReason(requote("resolver:invalid_signature"))).toBe("resolver:invalid_signature");
  });
});
