import { createTestClient, createWalletClient, http, parseAbi, parseEther } from "viem";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, PHONE, watchedPage } from "../../scripts/lib/chromium";
import { FUNDED_AMOUNT, LOCAL_ACCOUNTS, prepareLocalChain, startLocalResolvers } from "../../scripts/lib/local-stack";
import type { ResolverClient } from "../../src/clients/resolver/client";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { requestQuote, submitExecution } from "../../src/clients/taker/relay";
import { signForSubmission } from "../../src/clients/taker/swap";
import { balance, base, client, deployment, rpcUrl } from "./evm-chain";

/**
 * A struck resolver's page in the explorer (docs/explorer.md): a resolver of its own wins a quote
 * alone, moves its USDC away before the taker's fill, and the keeper's simulation fails with
 * `resolver:insufficient_balance`, which strikes and demotes it (docs/reliability.md, "Blame"). Its page
 * then shows the strike, its reason and blame, and the demotion.
 */

/**
 * A resolver of its own (anvil's account 10, funded here): the stack's spare resolvers are other files'
 * makers, and a demotion and its bids' level samples would stay with them.
 */
const GAMMA = 10;
const gamma = anvilAccount(GAMMA);
const taker = anvilAccount(LOCAL_ACCOUNTS.takers[2]);
const holder = anvilAccount(LOCAL_ACCOUNTS.deployer);
const erc20 = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);

let fleet: ResolverClient[] = [];
beforeAll(async () => {
  await createTestClient({ mode: "anvil", transport: http(rpcUrl) }).setBalance({
    address: gamma.address,
    value: parseEther("1"),
  });
  await prepareLocalChain(rpcUrl, { takers: [], resolvers: [gamma], amount: FUNDED_AMOUNT });
  fleet = await startLocalResolvers(base, { rpcUrl, resolvers: [{ index: GAMMA, name: "gamma", spreadBps: 0 }] });
});
afterAll(() => Promise.all(fleet.map((c) => c.stop())));

/** Moves `amount` of USDC from one local account to another, and waits for it to be mined. */
async function moveUsdc(from: typeof gamma, to: string, amount: bigint) {
  const wallet = createWalletClient({ account: from, chain: foundry, transport: http(rpcUrl) });
  const hash = await wallet.writeContract({
    address: deployment.usdc,
    abi: erc20,
    functionName: "transfer",
    args: [to as `0x${string}`, amount],
  });
  await client.waitForTransactionReceipt({ hash });
}

describe("a struck resolver's page", () => {
  it("shows the strike with its reason and blame, and the demotion it brought", async () => {
    const quote = await requestQuote(base, {
      sellToken: deployment.cngn,
      buyToken: deployment.usdc,
      sellAmount: "1580000000",
      taker: taker.address,
    });
    expect(quote.resolver?.name).toBe("gamma");
    const held = await balance(deployment.usdc, gamma.address);
    await moveUsdc(gamma, holder.address, held);
    try {
      const signed = await signForSubmission(client, taker, quote);
      await submitExecution(base, signed.request, { idempotencyKey: crypto.randomUUID() }).catch(() => null);
      await expect
        .poll(
          async () => {
            const record = await (await fetch(`${base}/v1/resolvers/${gamma.address}`)).json();
            return (record as { strikes?: { quoteId: string | null }[] }).strikes?.[0]?.quoteId ?? null;
          },
          { timeout: 30_000, interval: 250 },
        )
        .toBe(quote.quoteId);
    } finally {
      await moveUsdc(holder, gamma.address, held);
    }

    const browser = await launchChromium();
    const { page, trouble, close } = await watchedPage(browser, PHONE);
    try {
      await page.goto(`${base}/#/resolvers/${gamma.address}`);
      const row = page.locator("#strike-table tbody tr").first();
      await row.waitFor({ timeout: 10_000 });
      const cells = await row.locator("td").allTextContents();
      expect(cells[1]).toMatch(/resolver:insufficient_balance/);
      expect(cells[2]).toBe("resolver");
      expect(await row.locator("a").getAttribute("href")).toBe(`#/quotes/${quote.quoteId}`);
      expect(await page.locator("#strikes-title").textContent()).toBe("Strikes (1)");
      expect(await page.locator("#demotion").textContent()).toMatch(
        /^Demoted until .+ UTC: asked, but cannot win\. Why: /,
      );
      expect(await page.locator("#standing .pills").textContent()).toMatch(/demoted/);
      expect(await page.locator("#not-counted").textContent()).toMatch(/never counted against it/);
      expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
      expect(trouble).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
    } finally {
      await close();
      await browser.close();
    }
  });
});
