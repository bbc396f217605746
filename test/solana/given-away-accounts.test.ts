import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { SOL } from "../support/ws-client";
import {
  closedAfterEach,
  expectNotAsked,
  expectStruck,
  freshResolver,
  freshTaker,
  giveAway,
  strikes,
  submitRequoted,
  wonBy,
} from "./token-accounts";

/**
 * A token account given to another key (SPL Token `SetAuthority`, `AccountOwner`) by the party it belongs
 * to (docs/security.md, "A token account given away"). The swap creates each destination account
 * idempotently, and the associated token account program refuses one that exists under another owner
 * (`Custom(0)`, `InvalidOwner`): that failure is the account's owner's, the resolver's for the account its
 * sale is paid into, the taker's for its output's. A resolver whose account another key owns is not asked.
 * The taker here sells cNGN for USDC, so the resolver's sell-token account is its cNGN account and the
 * taker's output account its USDC account.
 */

const app = createApp();

const open = closedAfterEach();

describe("a token account given away by its owner", () => {
  it("the winner's account its sale goes to, after its bid: resolver:transfer_failed, a strike", async () => {
    const resolver = await freshResolver("gives-sale-account");
    open.push(resolver);
    const submission = await wonBy(app, resolver, await freshTaker());
    await giveAway(resolver.keypair, SOL.cngn);
    await expectStruck(app, resolver, submission, "resolver:transfer_failed");
  });

  it("the taker's output account, after its quote: taker:recipient_refused, the resolver not struck", async () => {
    const resolver = await freshResolver("honest-winner");
    open.push(resolver);
    const taker = await freshTaker();
    const submission = await wonBy(app, resolver, taker);
    await giveAway(taker, SOL.usdc);
    const execution = await submitRequoted(app, submission, "taker:recipient_refused");
    expect(execution).toMatchObject({ status: "requote", blame: "taker" });
    expect(await strikes(resolver)).toBe(0);
  });

  it("a resolver whose sale account another key owns is not asked, and shows degraded account_owner_changed", async () => {
    // It claims what the chain shows: USDC to sell, no cNGN (its cNGN account is no longer its own).
    const resolver = await freshResolver("gave-sale-account", {
      before: (keypair) => giveAway(keypair, SOL.cngn),
      balances: { [SOL.usdc]: "5000000000", [SOL.cngn]: "0" },
    });
    open.push(resolver);
    await expectNotAsked(app, resolver, "account_owner_changed");
  });
});
