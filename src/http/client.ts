import type { Context } from "hono";
import type { AppEnv } from "../env";
import { RelayError, retryLater } from "../errors";
import {
  type ClientAsk,
  type ClientId,
  clientOfKey,
  clientOfRequest,
  lookUpApiKey,
  networkOfAddress,
  perPeriod,
  type Rate,
  TokenBuckets,
} from "../limits";
import type { Limits } from "../schemas";

/** Who a request counts against, the IPv6 /48 it came from, and the quotas its API key has (docs/security.md, "Clients"). */
export type RequestClient = ClientAsk;

export const API_KEY_HEADER = "X-Api-Key";

/**
 * The address a request came from, as Cloudflare gives it (`CF-Connecting-IP`), as a client id; another
 * Worker's request is its zone's (`CF-Worker`), not the address every Worker shares.
 */
export const addressOf = (c: Context<AppEnv>): ClientId =>
  clientOfRequest(c.req.header("CF-Connecting-IP"), c.req.header("CF-Worker"));

/** The request's IPv6 /48, where a count must hold against a client moving between its /64s; else null. */
const networkOf = (c: Context<AppEnv>): ClientId | null => networkOfAddress(c.req.header("CF-Connecting-IP"));

/**
 * Wrong credentials of one kind, counted per address in this isolate's memory after they are checked
 * (docs/security.md, "Wrong credentials lock out right ones"): a right one is served whatever its address guessed before,
 * and past the limit a wrong one is answered 429 instead of 401. Guessing a 256-bit key or a long token is
 * hopeless either way; the count makes a guesser wait, and keeps one kind's guesses off the other's count.
 */
class WrongCredentials {
  private readonly buckets = new TokenBuckets();

  constructor(
    private readonly what: string,
    private readonly rate: (limits: Limits) => Rate,
  ) {}

  /** The answer to a wrong credential from `c`'s client: `unauthorized` (401), or 429 past the limit. */
  refuse(c: Context<AppEnv>, unauthorized: RelayError): RelayError {
    const spent = this.buckets.take(addressOf(c), Date.now(), this.rate(c.get("config").limits));
    if (spent.ok) return unauthorized;
    return retryLater(429, "rate_limited", `Too many ${this.what} from this client; wait.`, spent.retryAfter);
  }
}

const wrongAdminTokens = new WrongCredentials("wrong admin tokens", (l) => perPeriod(l.adminFailuresPerMinute, 60));
const wrongApiKeys = new WrongCredentials("unknown API keys", (l) => perPeriod(l.apiKeyFailuresPerMinute, 60));

/** Lets the request on when `right` (the admin token checked); a wrong token is counted against its client. */
export function checkAdminToken(c: Context<AppEnv>, right: boolean): void {
  if (right) return;
  throw wrongAdminTokens.refuse(c, new RelayError(401, "unauthorized", "The admin API needs the admin bearer token."));
}

/**
 * The request's client: its API key when it sent `X-Api-Key` (401 `invalid_api_key` for a key the relay
 * did not issue or revoked, counted against its address), else its address, with its /48.
 */
export async function requestClient(c: Context<AppEnv>): Promise<RequestClient> {
  const key = c.req.header(API_KEY_HEADER);
  if (key === undefined) return { client: addressOf(c), network: networkOf(c) };
  const found = await lookUpApiKey(c.env.DB, key);
  if (!found) {
    throw wrongApiKeys.refuse(
      c,
      new RelayError(401, "invalid_api_key", "The X-Api-Key is not a key this relay issued, or it was revoked."),
    );
  }
  return { client: clientOfKey(found.id), quotas: found.quotas };
}
