import { describe, expect, it } from "vitest";
import { indicativeLadder, indicativePrice } from "../../src/clients/taker/prices";
import { RelayHttpError } from "../../src/clients/taker/relay";

const RELAY = "http://relay.test/";
const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";

/** A fake relay answering `answer`, recording the URLs asked. */
function relay(answer: Response) {
  const asked: string[] = [];
  const fetchFake = (async (input: RequestInfo | URL) => {
    asked.push(String(input));
    return answer;
  }) as typeof fetch;
  return { asked, fetch: fetchFake };
}

describe("the taker library's indicative prices", () => {
  it("asks GET /v1/prices for an amount and answers its body", async () => {
    const body = { buyAmount: "1010000", firm: false };
    const r = relay(Response.json(body));
    const price = await indicativePrice(
      RELAY,
      { chainId: 31337, sellToken: CNGN, buyToken: USDC, sellAmount: "1580000000" },
      { fetch: r.fetch },
    );
    expect(price).toEqual(body);
    expect(r.asked).toEqual([
      `http://relay.test/v1/prices?sellToken=${CNGN}&buyToken=${USDC}&chainId=31337&sellAmount=1580000000`,
    ]);
  });

  it("asks without an amount for the best ladder, and throws the relay's no_prices", async () => {
    const r = relay(
      Response.json({ error: "no_prices", message: "No resolver streams a fresh ladder" }, { status: 404 }),
    );
    const asking = indicativeLadder(RELAY, { sellToken: CNGN, buyToken: USDC }, { fetch: r.fetch });
    await expect(asking).rejects.toBeInstanceOf(RelayHttpError);
    await expect(asking).rejects.toMatchObject({ status: 404, code: "no_prices" });
    expect(r.asked).toEqual([`http://relay.test/v1/prices?sellToken=${CNGN}&buyToken=${USDC}`]);
  });
});
