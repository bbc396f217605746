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
 * Requests a client got wrong, counted per client in this isolate's memory, so that past the limit it is
 * answered 429 before anything is read for it (docs/security.md, "Limits"). `rate` reads the limit from
 * the configuration in force.
 */
export class FailureGate {
  private readonly buckets = new TokenBuckets();

  constructor(
    private readonly what: string,
    private readonly rate: (limits: Limits) => Rate,
  ) {}

  /** Throws 429 `rate_limited` while `client` has no failure left to spend. */
  refuseWhileFailing(c: Context<AppEnv>, client: ClientId): void {
    const spent = this.buckets.peek(client, Date.now(), this.rate(c.get("config").limits));
    if (!spent.ok)
      throw retryLater(429, "rate_limited", `Too many ${this.what} from this client; wait.`, spent.retryAfter);
  }

  count(c: Context<AppEnv>, client: ClientId): void {
    this.buckets.take(client, Date.now(), this.rate(c.get("config").limits));
  }
}

/** Wrong admin tokens and API keys, per address: guessing costs time, and the relay no D1 read. */
const wrongCredentials = new FailureGate("wrong credentials", (l) => perPeriod(l.adminFailuresPerMinute, 60));

export const refuseWhileGuessing = (c: Context<AppEnv>) => wrongCredentials.refuseWhileFailing(c, addressOf(c));
export const countWrongCredential = (c: Context<AppEnv>) => wrongCredentials.count(c, addressOf(c));

/**
 * The request's client: its API key when it sent `X-Api-Key` (401 `invalid_api_key` for a key the relay
 * did not issue or revoked), else its address.
 */
export async function requestClient(c: Context<AppEnv>): Promise<RequestClient> {
  const key = c.req.header(API_KEY_HEADER);
  if (key === undefined) return { client: addressOf(c) };
  refuseWhileGuessing(c);
  const found = await lookUpApiKey(c.env.DB, key);
  if (!found) {
    countWrongCredential(c);
    throw new RelayError(401, "invalid_api_key", "The X-Api-Key is not a key this relay issued, or it was revoked.");
  }
  return { client: clientOfKey(found.id), quotas: found.quotas };
}
