import { createTestClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareLocalChain } from "../../scripts/lib/local-stack";
import { ResolverClient } from "../../src/clients/resolver/client";
import { rpcInventory } from "../../src/clients/resolver/inventory";
import { chainsFromRecord, corridorsFromRecord, fetchRelayConfig } from "../../src/clients/resolver/relay-config";
import { localConfig } from "../../src/config/local";
import { base, deployment, rpcUrl, withAlphaAndBeta } from "./evm-chain";

/**
 * A corridor's shares on `wrangler dev` with real sockets (docs/security.md, "A silent resolver and a few
 * clients lock every taker out"): the stack's two resolvers, a third that holds 1 base unit of each token,
 * authenticates, heartbeats it and never answers an rfq, and eight clients (CF-Connecting-IP) each asking
 * at its own limit. The silent key is new each run: the corridor remembers a key's silence across files.
 */

const { cngn, usdc } = deployment;
const { quotesPerSecond, quoteBurst } = localConfig.limits;
withAlphaAndBeta();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const someTaker = () => privateKeyToAccount(generatePrivateKey()).address;
/**
 * What `ip`'s quote request was answered: "200"; "no offer" for an auction that ran and heard no bid that
 * could win (it had its slot: on a machine this starved, the makers answer late or decline, and that is
 * theirs, not the corridor's shares); else the status, code and message of the limit that refused it.
 */
const quoteFrom = async (ip: string) => {
  const res = await fetch(`${base}/v1/quotes`, {
    method: "POST",
    headers: { "content-type": "application/json", "CF-Connecting-IP": ip },
    body: JSON.stringify({ sellToken: cngn, buyToken: usdc, sellAmount: "1580000000", taker: someTaker() }),
  });
  const body = (await res.json()) as { error?: string; message?: string };
  if (res.status === 200) return "200";
  if (body.error === "no_offers") return "no offer";
  return `${res.status} ${body.error}: ${body.message}`;
};

let silent: ResolverClient;
let silentRfqs = 0;

beforeAll(async () => {
  const record = await fetchRelayConfig(base);
  const chains = chainsFromRecord(record).filter((c) => c.kind === "evm");
  const corridors = corridorsFromRecord(record).filter((t) => chains.some((c) => c.chainId === t.chainId));
  const account = privateKeyToAccount(generatePrivateKey());
  await createTestClient({ mode: "anvil", transport: http(rpcUrl) }).setBalance({
    address: account.address,
    value: parseEther("1"),
  });
  await prepareLocalChain(rpcUrl, { takers: [], resolvers: [account], amount: 1n });
  silent = new ResolverClient({
    relayUrl: base,
    account,
    name: "silent",
    version: "e2e",
    signerType: "keyfile",
    chains,
    corridors,
    // It prices nothing and so answers nothing: every rfq it gets waits for it in vain.
    pricer: () => new Promise(() => {}),
    inventory: rpcInventory({ rpcUrl, owner: account.address }),
  });
  silent.on("frame", ({ frame }) => {
    if (frame.type === "rfq") silentRfqs += 1;
  });
  silent.start();
  // Asked until it is asked too: it is then online, its inventory covered on chain.
  for (let tries = 0; silentRfqs === 0; tries++) {
    if (tries > 60) throw new Error("the silent node got no rfq within 30 s");
    expect(await quoteFrom("198.51.100.59")).toBe("200");
    await sleep(500);
  }
});
afterAll(() => silent?.stop());

describe("a silent resolver and eight clients at their limits", () => {
  it("leave every quote of another client served", async () => {
    const floodMs = 4_000;
    const flooders = Array.from({ length: 8 }, (_, i) => `198.51.100.${40 + i}`);
    const flood = flooders.map(async (ip) => {
      // Each client's burst at once, then its rate: within its own limits throughout.
      const sent = Array.from({ length: quoteBurst }, () => quoteFrom(ip));
      for (let at = 0; at < floodMs; at += 1_000 / quotesPerSecond) {
        await sleep(1_000 / quotesPerSecond);
        sent.push(quoteFrom(ip));
      }
      return Promise.all(sent);
    });
    const honest: Promise<string>[] = [];
    for (let i = 0; i < 9; i++) {
      await sleep(400);
      honest.push(quoteFrom("198.51.100.50"));
    }
    const flooded = (await Promise.all(flood)).flat();
    const answers = await Promise.all(honest);
    const tally = (all: string[]) =>
      Object.fromEntries([...new Set(all)].map((a) => [a, all.filter((x) => x === a).length]));
    console.log(
      `honest: ${JSON.stringify(tally(answers))}; flooders: ${JSON.stringify(tally(flooded))}; silent asked ${silentRfqs}`,
    );
    expect(answers.filter((a) => a !== "200" && a !== "no offer")).toEqual([]);
    expect(answers.filter((a) => a === "200").length).toBeGreaterThan(0);
  });
});
