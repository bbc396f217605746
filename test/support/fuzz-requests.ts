import fc from "fast-check";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";

/**
 * Generated HTTP requests for every route of the relay: edge numbers (negative, fractional, ≥ 2^256),
 * malformed and checksum-broken addresses, odd content types, over-long Idempotency-Keys, bodies that
 * are not JSON. Used by test/integration/fuzz-http.test.ts (through `app.request`) and by
 * `npm run fuzz` (against a running relay).
 */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const chain = primaryEvmChain(localConfig);
const tokens = chain.tokens.map((t) => t.address);

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString("hex")}`);
const id = (prefix: string) =>
  fc.oneof(
    fc.constant(`${prefix}_${"0".repeat(32)}`),
    hex(16).map((h) => `${prefix}_${h.slice(2)}`),
    fc.string(),
  );

/** Numbers at the edges: negative, fractional, huge, ≥ 2^256, not numbers at all. */
const edgyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: 0n, max: 2n ** 300n }).map(String),
  fc.constantFrom(
    "0",
    "-1",
    "1.5",
    "1e18",
    "0x10",
    "",
    " 1",
    "115792089237316195423570985008687907853269984665640564039457584007913129639936",
  ),
);

const address = fc.oneof(
  fc.constantFrom(...tokens, tokens[0]?.toLowerCase() ?? "", "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"),
  hex(20),
  fc.string(),
  fc.constant("4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU"),
);

const anyJson = fc.jsonValue({ maxDepth: 3 });

const quoteBody = fc.record(
  {
    chainId: fc.oneof(fc.constant(chain.chainId), fc.constant(103), edgyNumber),
    sellToken: address,
    buyToken: address,
    sellAmount: edgyNumber,
    taker: address,
    recipient: address,
    takerProof: fc.record({ signature: fc.string(), timestamp: edgyNumber }),
  },
  { requiredKeys: [] },
);

const permit = fc.record(
  { value: edgyNumber, deadline: edgyNumber, v: edgyNumber, r: fc.oneof(hex(32), hex(33), fc.string()), s: hex(32) },
  { requiredKeys: [] },
);

const executionBody = fc.record(
  {
    quoteId: id("q"),
    chainId: edgyNumber,
    signature: fc.oneof(hex(65), hex(64), fc.string()),
    permit,
    transaction: fc.string(),
  },
  { requiredKeys: [] },
);

/** Prepare's body, and placing's with a draft of edgy values. */
const limitBody = fc.record(
  {
    sellToken: address,
    buyToken: address,
    sellAmount: edgyNumber,
    limitAmount: edgyNumber,
    taker: address,
    expiresInSeconds: edgyNumber,
    draft: fc.record({ chainId: edgyNumber, typedData: anyJson, fee: anyJson, draft: anyJson }, { requiredKeys: [] }),
    signature: fc.oneof(hex(65), fc.string()),
  },
  { requiredKeys: [] },
);

const body = fc.oneof(
  quoteBody.map((b) => JSON.stringify(b)),
  limitBody.map((b) => JSON.stringify(b)),
  executionBody.map((b) => JSON.stringify(b)),
  anyJson.map((v) => JSON.stringify(v)),
  fc.string(),
  fc.constant(""),
);

const path = fc.oneof(
  fc.constantFrom("/v1/quotes", "/v1/quotes/", "/v1/executions", "/v1/config", "/v1/nodes", "/v1/resolvers"),
  fc.constantFrom(
    "/v1/resolvers?include=inactive",
    "/v1/resolvers?include=%ff",
    "/v1/resolvers?limit=1000&cursor=%ff",
    "/v1/openapi.json",
    "/v1/limit-orders",
    "/v1/limit-orders/prepare",
    "/v1/limit-orders?taker=0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc&cursor=x",
  ),
  fc.string().map((cursor) => `/v1/resolvers?cursor=${encodeURIComponent(cursor)}`),
  id("lo").map((lo) => `/v1/limit-orders/${encodeURIComponent(lo)}`),
  id("lo").map((lo) => `/v1/limit-orders/${encodeURIComponent(lo)}/cancel`),
  id("q").map((q) => `/v1/quotes/${encodeURIComponent(q)}`),
  id("q").map((q) => `/v1/quotes/${encodeURIComponent(q)}/cancel`),
  id("x").map((x) => `/v1/executions/${encodeURIComponent(x)}`),
  address.map((a) => `/v1/admin/resolvers/${encodeURIComponent(a)}`),
  address.map((a) => `/v1/admin/resolvers/${encodeURIComponent(a)}/demote`),
  fc
    .tuple(edgyNumber, address, address)
    .map(([c, a, b]) => `/v1/corridors/${c}/${encodeURIComponent(a)}/${encodeURIComponent(b)}/connect`),
  fc.webPath(),
);

const headers = fc.record(
  {
    "content-type": fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "application/x-www-form-urlencoded",
      "text/plain",
      "multipart/form-data; boundary=x",
      "",
    ),
    "idempotency-key": fc.oneof(fc.string({ maxLength: 10 }), fc.string({ minLength: 129, maxLength: 200 })),
    authorization: fc.constantFrom("Bearer test-admin-token", "Bearer wrong", "Basic x"),
  },
  { requiredKeys: [] },
);

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.record({
  method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
  path,
  headers,
  body,
});

/** The request as `fetch` takes it: no body on GET and OPTIONS. */
export function fuzzInit(r: FuzzRequest): RequestInit {
  const init: RequestInit = { method: r.method, headers: r.headers };
  if (r.method !== "GET" && r.method !== "OPTIONS") init.body = r.body;
  return init;
}
