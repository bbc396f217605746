import { env } from "cloudflare:test";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { encodeCursor, encodeKeyCursor } from "../../src/db/page-cursor";
import { countStatement } from "../../src/db/resolver-days";
import { newId } from "../../src/ids";
import type { ResolverPage } from "../../src/schemas/resolvers";

/** GET /v1/resolvers a page at a time, read in SQL (docs/api.md, "Nodes and resolvers"). */

const app = createApp();
const list = async (query: string) => {
  const res = await app.request(`/v1/resolvers${query}`, {}, env);
  return { status: res.status, body: (await res.json()) as ResolverPage & { error?: string; issues?: unknown } };
};

const DAY = 86_400_000;
const ACTIVE = 130;
const INACTIVE = 20;
/** Addresses whose order by text is not their order of creation: a page is by address, not by time. */
const addressOf = (i: number) =>
  `0x${((i * 7919) % 1000).toString(16).padStart(3, "0")}${"0".repeat(34)}${i.toString(16).padStart(3, "0")}`;

/** Follows `nextCursor` from the page `start` names (the first by default) to the last; every page it read. */
async function allPages(query: string, start: string | null = null): Promise<ResolverPage[]> {
  const pages: ResolverPage[] = [];
  let cursor = start;
  do {
    const { status, body } = await list(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(status).toBe(200);
    pages.push(body);
    cursor = body.nextCursor;
  } while (cursor !== null && pages.length < 20);
  return pages;
}

describe("GET /v1/resolvers, paged", () => {
  const now = Date.now();
  const active: string[] = [];
  const inactive: string[] = [];

  it("pages the directory by address: every active resolver once, none twice, the inactive ones counted", async () => {
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < ACTIVE + INACTIVE; i++) {
      const address = addressOf(i);
      const seen = new Date(i < ACTIVE ? now - 60_000 : now - 2 * DAY).toISOString();
      (i < ACTIVE ? active : inactive).push(address);
      statements.push(
        env.DB.prepare(
          "INSERT INTO resolvers (address, name, registered, first_seen, last_seen, updated_at) VALUES (?1, ?2, 0, ?3, ?3, ?3)",
        ).bind(address, `r${i}`, seen),
      );
    }
    // A registered resolver never seen is active for a day from its registration.
    const registered = `0x${"f".repeat(40)}`;
    active.push(registered);
    statements.push(
      env.DB.prepare(
        "INSERT INTO resolvers (address, name, registered, registered_at, updated_at) VALUES (?1, 'reg', 1, ?2, ?2)",
      ).bind(registered, new Date(now - 60_000).toISOString()),
    );
    // Counters of a resolver that falls on a later page: a page reads its own resolvers' counters.
    const measured = [...active].sort()[120] as string;
    statements.push(countStatement(env.DB, measured, { asked: 30, answered: 27 }, new Date(now).toISOString()));
    await env.DB.batch(statements);

    const pages = await allPages("?limit=50");
    expect(pages.map((p) => p.resolvers.length)).toEqual([50, 50, 31]);
    expect(pages.map((p) => p.inactive)).toEqual([INACTIVE, INACTIVE, INACTIVE]);
    const listed = pages.flatMap((p) => p.resolvers.map((r) => r.address));
    expect(listed).toEqual([...active].sort().map((a) => getAddress(a)));
    expect(new Set(listed).size).toBe(listed.length);
    const entry = pages[2]?.resolvers.find((r) => r.address.toLowerCase() === measured);
    expect(entry?.reliabilityDetail?.response).toEqual({ rate: 0.9, samples: 30 });
  });

  it("lists every resolver with include=inactive, 50 to a page by default", async () => {
    const pages = await allPages("?include=inactive");
    expect(pages.map((p) => p.resolvers.length)).toEqual([50, 50, 50, 1]);
    expect(pages.every((p) => p.inactive === 0)).toBe(true);
    const listed = pages.flatMap((p) => p.resolvers.map((r) => r.address.toLowerCase()));
    expect(listed).toEqual([...active, ...inactive].sort());
  });

  it("keeps its place when the directory changes between pages: nothing repeated, nothing skipped", async () => {
    const first = await list("?include=inactive&limit=40");
    const last = first.body.resolvers.at(-1)?.address.toLowerCase() as string;
    // Renamed, seen again, and a new resolver after the cursor: none moves what the next page holds.
    await env.DB.batch([
      env.DB.prepare("UPDATE resolvers SET name = 'aaa', last_seen = ?2 WHERE address = ?1").bind(
        last,
        new Date().toISOString(),
      ),
      env.DB.prepare("INSERT INTO resolvers (address, name, updated_at) VALUES (?1, 'late', ?2)").bind(
        `0x${"e".repeat(40)}`,
        new Date().toISOString(),
      ),
    ]);
    const rest = await allPages("?include=inactive&limit=40", first.body.nextCursor);
    const listed = [...first.body.resolvers, ...rest.flatMap((p) => p.resolvers)].map((r) => r.address.toLowerCase());
    expect(listed).toEqual([...active, ...inactive, `0x${"e".repeat(40)}`].sort());
  });

  it("answers 400 invalid_request for a cursor it did not give out and a limit out of 1 to 100", async () => {
    const quoteCursor = encodeCursor({ at: new Date().toISOString(), id: newId("q") });
    for (const cursor of [
      "nope!",
      "AAAA",
      quoteCursor,
      encodeKeyCursor("0xABC"),
      encodeKeyCursor(`0x${"G".repeat(40)}`),
    ]) {
      const { status, body } = await list(`?cursor=${encodeURIComponent(cursor)}`);
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: "invalid_request", issues: [{ path: "cursor" }] });
    }
    for (const limit of ["0", "101", "x", "-1"]) {
      const { status, body } = await list(`?limit=${limit}`);
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: "invalid_request", issues: [{ path: "limit" }] });
    }
    expect((await list("?limit=100")).body.resolvers).toHaveLength(100);
  });
});
