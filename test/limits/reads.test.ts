import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { allCorridors, corridorTag } from "../../src/chains";
import { localConfig } from "../../src/config/local";
import type { Env } from "../../src/env";
import { newId } from "../../src/ids";

const app = createApp();
const { objectReadBurst: burst, objectReadsPerSecond: perSecond } = localConfig.limits;
const corridors = allCorridors(localConfig);
const firstCorridor = corridors[0]?.key ?? "";

/**
 * The relay's objects as the Worker reaches them, counting each call a read makes: a corridor's
 * write-through and nodes, the keeper's write-through. Each call still goes to the real object.
 */
function countingObjects() {
  const calls = { corridor: 0, keeper: 0 };
  const CORRIDOR = {
    idFromName: (name: string) => env.CORRIDOR.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = env.CORRIDOR.get(id);
      return {
        writeThrough: () => {
          calls.corridor += 1;
          return stub.writeThrough();
        },
        nodes: () => {
          calls.corridor += 1;
          return stub.nodes();
        },
      };
    },
  };
  const KEEPER = {
    idFromName: (name: string) => env.KEEPER.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = env.KEEPER.get(id);
      return {
        writeThrough: (x: string) => {
          calls.keeper += 1;
          return stub.writeThrough(x);
        },
      };
    },
  };
  return { env: { ...env, CORRIDOR, KEEPER } as unknown as Env, calls };
}

const get = (objects: Env, path: string, ip: string) =>
  app.request(path, { headers: { "CF-Connecting-IP": ip } }, objects);

/** `count` reads at once; what was answered, refused, and how many tokens the client earned meanwhile. */
async function readAtOnce(count: number, send: (i: number) => Response | Promise<Response>) {
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
  const earned = Math.ceil(((Date.now() - started) / 1000) * perSecond);
  return { answers, earned, refused: answers.filter((r) => r.status === 429) };
}

describe("reads that reach an object are counted per client", () => {
  it("600 reads of unknown quote ids at once: 429 past the client's burst, the corridors asked no more often", async () => {
    const objects = countingObjects();
    const { answers, earned, refused } = await readAtOnce(600, () =>
      get(objects.env, `/v1/quotes/${newId("q", corridorTag(firstCorridor))}`, "198.51.100.20"),
    );
    const answered = answers.filter((r) => r.status === 404).length;
    expect(answered + refused.length).toBe(600);
    expect(answered).toBeGreaterThanOrEqual(burst);
    expect(objects.calls.corridor).toBe(answered);
    expect(objects.calls.corridor).toBeLessThanOrEqual(burst + earned);
    expect(Number(refused[0]?.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(await refused[0]?.json()).toMatchObject({ error: "rate_limited" });
    // Another address is served.
    const other = await get(objects.env, `/v1/quotes/${newId("q", corridorTag(firstCorridor))}`, "198.51.100.21");
    expect(other.status).toBe(404);
  });

  it("600 reads of GET /v1/nodes at once: 429 past the burst, each corridor asked at most once a read let through", async () => {
    const objects = countingObjects();
    const { answers, earned, refused } = await readAtOnce(600, () => get(objects.env, "/v1/nodes", "198.51.100.22"));
    const served = answers.filter((r) => r.status === 200).length;
    expect(served + refused.length).toBe(600);
    expect(served).toBeLessThanOrEqual(burst + earned);
    expect(objects.calls.corridor).toBe(served * corridors.length);
    expect(refused.length).toBeGreaterThan(0);
  });

  it("asks the objects about an unknown id once, however often it is read again within seconds", async () => {
    const objects = countingObjects();
    const quoteId = newId("q", corridorTag(firstCorridor));
    const executionId = newId("x", corridorTag(firstCorridor));
    for (let i = 0; i < 30; i++) {
      expect((await get(objects.env, `/v1/quotes/${quoteId}`, "198.51.100.23")).status).toBe(404);
      expect((await get(objects.env, `/v1/executions/${executionId}`, "198.51.100.23")).status).toBe(404);
    }
    expect(objects.calls).toEqual({ corridor: 1, keeper: 1 });
  });

  it("counts an API key's reads at its own quota", async () => {
    const issued = await app.request(
      "/v1/admin/api-keys",
      {
        method: "POST",
        headers: { Authorization: "Bearer test-admin-token", "content-type": "application/json" },
        body: JSON.stringify({ name: "explorer", quotas: { objectReadBurst: 300, objectReadsPerSecond: 1 } }),
      },
      env,
    );
    const { key } = (await issued.json()) as { key: string };
    const objects = countingObjects();
    const { answers, refused } = await readAtOnce(400, (i) =>
      app.request(
        "/v1/nodes",
        { headers: { "X-Api-Key": key, "CF-Connecting-IP": `198.51.100.${100 + (i % 50)}` } },
        objects.env,
      ),
    );
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(300);
    expect(refused.length).toBeGreaterThan(0);
  });
});
