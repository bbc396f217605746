import type { Context } from "hono";
import type { AppEnv } from "../env";
import { RelayError, retryLater } from "../errors";
import {
  type ClientId,
  clientOfAddress,
  clientOfKey,
  lookUpApiKey,
  perPeriod,
  type Rate,
  TokenBuckets,
} from "../limits";
import type { ApiKeyQuotas, Limits } from "../schemas";

/** Who a request counts against, and the quotas its API key has (docs/security.md, "Clients"). */
export interface RequestClient {
  client: ClientId;
  quotas?: ApiKeyQuotas;
}

export const API_KEY_HEADER = "X-Api-Key";

/** The address a request came from, as Cloudflare gives it (`CF-Connecting-IP`), as a client id. */
export const addressOf = (c: Context<AppEnv>): ClientId => clientOfAddress(c.req.header("CF-Connecting-IP"));

/**
 * Requests a client got wrong, counted per client in this isolate's memory (docs/security.md, "Limits"):
 * past the limit a client is answered 429 before anything is read for it. A request spends one of the
 * client's failures as it comes in and gets it back unless it fails, so that even a burst sent at once is
 * held to the limit. `rate` reads the limit from the configuration in force.
 */
export class FailureGate {
  private readonly buckets = new TokenBuckets();

  constructor(
    private readonly what: string,
    private readonly rate: (limits: Limits) => Rate,
  ) {}

  /** Runs `run` for `client` unless it has no failure left (429 `rate_limited`); a `failed` throw keeps it spent. */
  async guard<T>(c: Context<AppEnv>, client: ClientId, run: () => Promise<T>, failed: (e: unknown) => boolean) {
    const rate = this.rate(c.get("config").limits);
    const spent = this.buckets.take(client, Date.now(), rate);
    if (!spent.ok) {
      throw retryLater(429, "rate_limited", `Too many ${this.what} from this client; wait.`, spent.retryAfter);
    }
    try {
      const result = await run();
      this.buckets.give(client, Date.now(), rate);
      return result;
    } catch (e) {
      if (!failed(e)) this.buckets.give(client, Date.now(), rate);
      throw e;
    }
  }
}

/** Wrong admin tokens and API keys, per address: guessing costs time, and the relay no D1 read. */
const wrongCredentials = new FailureGate("wrong credentials", (l) => perPeriod(l.adminFailuresPerMinute, 60));
const unauthorized = (e: unknown) => e instanceof RelayError && e.status === 401;

/** Runs `check`, which throws 401 for a wrong credential, under the address's wrong-credential limit. */
export const checkCredential = <T>(c: Context<AppEnv>, check: () => Promise<T>) =>
  wrongCredentials.guard(c, addressOf(c), check, unauthorized);

/**
 * The request's client: its API key when it sent `X-Api-Key` (401 `invalid_api_key` for a key the relay
 * did not issue or revoked), else its address.
 */
export async function requestClient(c: Context<AppEnv>): Promise<RequestClient> {
  const key = c.req.header(API_KEY_HEADER);
  if (key === undefined) return { client: addressOf(c) };
  const found = await checkCredential(c, async () => {
    const live = await lookUpApiKey(c.env.DB, key);
    if (!live) {
      throw new RelayError(401, "invalid_api_key", "The X-Api-Key is not a key this relay issued, or it was revoked.");
    }
    return live;
  });
  return { client: clientOfKey(found.id), quotas: found.quotas };
}
