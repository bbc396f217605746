import { timingSafeEqual } from "node:crypto";
import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { allCorridors, type Corridor, findCorridor } from "../chains";
import type { RelayConfig } from "../config";
import { demoteResolver, readResolver, readTotals, reinstateResolver, upsertRegistration } from "../db";
import type { AppEnv, Env } from "../env";
import { notFound } from "../errors";
import { checkAdminToken, createRouter } from "../http";
import { resolverKey } from "../ids";
import { liveNodes } from "../nodes";
import { CORRIDOR_UNREACHABLE, callObject, corridorStub, KEEPER_LEADER_UNREACHABLE, keeperStub } from "../objects";
import { corridorRecord } from "../ops";
import { buildDirectory, windowStart } from "../resolvers";
import {
  CorridorRecord,
  DemoteBody,
  EvmAddressParam,
  errorResponses,
  jsonContent,
  KeeperRecord,
  PauseBody,
  RegistrationBody,
  Resolver,
} from "../schemas";

/**
 * Bearer `ADMIN_TOKEN`; without the secret set, the admin API is closed. The token is checked first, so
 * the right one is served whatever its address guessed; an address past 10 wrong tokens a minute has its
 * wrong ones answered 429 (docs/security.md, "Wrong credentials lock out right ones").
 */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  const given = c.req.header("authorization")?.match(/^Bearer (.+)$/)?.[1];
  checkAdminToken(c, !!expected && !!given && sameSecret(given, expected));
  await next();
});

function sameSecret(a: string, b: string): boolean {
  const [x, y] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

export const security = [{ bearerAuth: [] }];

/** A call to the keeper leader: 503 `not_leader` with `Retry-After` while it restarts (docs/api.md, "Conventions"). */
const keeperCall = <T>(call: () => Promise<T>) => callObject(async () => await call(), KEEPER_LEADER_UNREACHABLE);

/** Corridors cache demotions for their auctions; an admin change applies to the next auction at once. */
async function forgetDemotions(env: Env, config: RelayConfig): Promise<void> {
  await Promise.all(allCorridors(config).map((c) => corridorStub(env, c.key).forgetDemotions()));
}

/**
 * With `requireRegistration`, a de-registered resolver is closed on every corridor it is connected to
 * (1008 `not_registered`). Every corridor is asked, as for demotions: its directory row lists the
 * corridors it advertised, but a node that authenticated a moment ago may not be written there yet.
 */
async function closeDeregistered(env: Env, config: RelayConfig, address: string): Promise<void> {
  await Promise.all(allCorridors(config).map((c) => corridorStub(env, c.key).closeNode(address)));
}

/**
 * Demotes a resolver of the directory, or a connected node that has no entry yet, which then gets one: a
 * node is asked whether or not it has an entry (docs/reliability.md, "The directory"). False for an
 * address that is neither.
 */
async function demote(
  env: Env,
  config: RelayConfig,
  address: string,
  demotion: { until: string; reason: string },
  at: string,
): Promise<boolean> {
  if (await demoteResolver(env.DB, address, demotion, at)) return true;
  const wanted = resolverKey(address);
  const connected = (await liveNodes(env, config)).some((n) => resolverKey(n.address) === wanted);
  return connected && demoteResolver(env.DB, address, demotion, at, true);
}

async function resolverRecord(db: D1Database, address: string): Promise<Resolver> {
  const now = Date.now();
  const [row, totals] = await Promise.all([readResolver(db, address), readTotals(db, windowStart(now), address)]);
  if (!row) throw notFound(`No resolver has the address ${address}.`);
  return buildDirectory([row], totals, [], now, true).resolvers[0] as Resolver;
}

const CorridorKeyParam = z.object({
  key: z.string().openapi({
    param: { name: "key", in: "path" },
    description: "the corridor's key as `GET /v1/corridors` lists it, `<chainId>:<tokenA>:<tokenB>`",
  }),
});

/** The corridor a key names, in either token order or case; 404 when the relay does not serve it. */
function corridorOf(config: RelayConfig, key: string): Corridor {
  const [chainId, a, b, ...rest] = key.split(":");
  const corridor = a && b && rest.length === 0 ? findCorridor(config, Number(chainId), a, b) : null;
  if (!corridor) throw notFound(`The relay serves no corridor ${JSON.stringify(key)}.`);
  return corridor;
}

const pauseBody = { required: false, content: { "application/json": { schema: PauseBody } } };

const adminRouter = createRouter();
adminRouter.use("/v1/admin/*", requireAdmin);
adminRouter.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer" });

export const adminRoutes = adminRouter
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/admin/resolvers/{address}",
      operationId: "registerResolver",
      tags: ["admin"],
      summary: "Register or update a resolver",
      security,
      request: {
        params: EvmAddressParam,
        body: { required: true, content: { "application/json": { schema: RegistrationBody } } },
      },
      responses: { 200: jsonContent(Resolver, "The resolver"), ...errorResponses(400, 401, 503) },
    }),
    async (c) => {
      const { address } = c.req.valid("param");
      const body = c.req.valid("json");
      await upsertRegistration(c.env.DB, address, body, new Date().toISOString());
      const config = c.get("config");
      if (body.registered === false && config.requireRegistration) await closeDeregistered(c.env, config, address);
      return c.json(await resolverRecord(c.env.DB, address), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/admin/resolvers/{address}/demote",
      operationId: "demoteResolver",
      tags: ["admin"],
      summary: "Demote a resolver: it is still asked, but cannot win",
      security,
      request: {
        params: EvmAddressParam,
        body: { required: true, content: { "application/json": { schema: DemoteBody } } },
      },
      responses: { 200: jsonContent(Resolver, "The resolver"), ...errorResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const { address } = c.req.valid("param");
      const { minutes, reason } = c.req.valid("json");
      const now = Date.now();
      const demotion = { until: new Date(now + minutes * 60_000).toISOString(), reason };
      const at = new Date(now).toISOString();
      if (!(await demote(c.env, c.get("config"), address, demotion, at))) {
        throw notFound(`No resolver has the address ${address}.`);
      }
      await forgetDemotions(c.env, c.get("config"));
      return c.json(await resolverRecord(c.env.DB, address), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/admin/resolvers/{address}/reinstate",
      operationId: "reinstateResolver",
      tags: ["admin"],
      summary: "Lift a resolver's demotion",
      security,
      request: { params: EvmAddressParam },
      responses: { 200: jsonContent(Resolver, "The resolver"), ...errorResponses(401, 404, 503) },
    }),
    async (c) => {
      const { address } = c.req.valid("param");
      if (!(await reinstateResolver(c.env.DB, address, new Date().toISOString()))) {
        throw notFound(`No resolver has the address ${address}.`);
      }
      await forgetDemotions(c.env, c.get("config"));
      return c.json(await resolverRecord(c.env.DB, address), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/admin/corridors/{key}/pause",
      operationId: "pauseCorridor",
      tags: ["admin"],
      summary: "Pause a corridor: new quotes answer 503 not_leader; quotes already given still settle",
      security,
      request: { params: CorridorKeyParam, body: pauseBody },
      responses: { 200: jsonContent(CorridorRecord, "The corridor"), ...errorResponses(400, 401, 404, 503) },
    }),
    async (c) => {
      const corridor = corridorOf(c.get("config"), c.req.valid("param").key);
      const { reason } = c.req.valid("json");
      const paused = await callObject(
        async () => await corridorStub(c.env, corridor.key).pause(reason),
        CORRIDOR_UNREACHABLE,
      );
      return c.json(corridorRecord(corridor, paused), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/admin/corridors/{key}/resume",
      operationId: "resumeCorridor",
      tags: ["admin"],
      summary: "Resume a paused corridor",
      security,
      request: { params: CorridorKeyParam },
      responses: { 200: jsonContent(CorridorRecord, "The corridor"), ...errorResponses(401, 404, 503) },
    }),
    async (c) => {
      const corridor = corridorOf(c.get("config"), c.req.valid("param").key);
      const resumed = await callObject(
        async () => await corridorStub(c.env, corridor.key).resume(),
        CORRIDOR_UNREACHABLE,
      );
      return c.json(corridorRecord(corridor, resumed), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/admin/keeper/pause",
      operationId: "pauseKeeper",
      tags: ["admin"],
      summary: "Pause the keeper: submissions answer 503 not_leader, no limit-order round starts",
      security,
      request: { body: pauseBody },
      responses: { 200: jsonContent(KeeperRecord, "The keeper"), ...errorResponses(400, 401, 503) },
    }),
    async (c) => c.json(await keeperCall(() => keeperStub(c.env).pause(c.req.valid("json").reason)), 200),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/admin/keeper/resume",
      operationId: "resumeKeeper",
      tags: ["admin"],
      summary: "Resume the keeper",
      security,
      responses: { 200: jsonContent(KeeperRecord, "The keeper"), ...errorResponses(401, 503) },
    }),
    async (c) => c.json(await keeperCall(() => keeperStub(c.env).resume()), 200),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/admin/keeper",
      operationId: "getKeeper",
      tags: ["admin"],
      summary: "The keeper: its pause, the transactions it follows, its wallets per chain",
      security,
      responses: { 200: jsonContent(KeeperRecord, "The keeper"), ...errorResponses(401, 503) },
    }),
    async (c) => c.json(await keeperCall(() => keeperStub(c.env).status()), 200),
  );
