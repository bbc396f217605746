/**
 * The floor's Worker (bench/README.md, "The floor"): routes only, to one object per corridor
 * name (`?corridor=`, default `default`) and one keeper.
 *
 * - `GET /connect?corridor=` (WebSocket): a resolver's socket, held by the corridor's object;
 * - `POST /quote?corridor=`: the body, as JSON, to the corridor's auction; its best reply as JSON;
 * - `POST /execute`: the body to the keeper, which calls the chain; 202 with the transaction's hash;
 * - `GET /health`: answers, for the bench to find the Worker's own socket (bench/workerd.ts);
 * - `GET /required/connect`, `POST /required/quote`, `POST /required/execute`: the same on the
 *   required-work floor (bench/floor/required-auction.ts, bench/floor/required-keeper.ts); a refused
 *   submission is answered 400.
 */
import type { FillRequest } from "../../src/chains/settler";
import { FloorAuction } from "./auction";
import { FloorKeeper, type KeeperEnv } from "./keeper";
import type { FloorSubmission } from "./protocol";
import { RequiredAuction } from "./required-auction";
import { RequiredKeeper, type RequiredKeeperEnv } from "./required-keeper";

export { FloorAuction, FloorKeeper, RequiredAuction, RequiredKeeper };

interface Env extends KeeperEnv, RequiredKeeperEnv {
  AUCTION: DurableObjectNamespace<FloorAuction>;
  KEEPER: DurableObjectNamespace<FloorKeeper>;
  REQUIRED_AUCTION: DurableObjectNamespace<RequiredAuction>;
  REQUIRED_KEEPER: DurableObjectNamespace<RequiredKeeper>;
}

const byName = <T extends Rpc.DurableObjectBranded>(ns: DurableObjectNamespace<T>, name: string) =>
  ns.get(ns.idFromName(name));

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const corridor = url.searchParams.get("corridor") ?? "default";
    const route = `${request.method} ${url.pathname}`;
    if (route === "GET /connect") return byName(env.AUCTION, corridor).fetch(request);
    if (route === "POST /quote") return Response.json(await byName(env.AUCTION, corridor).quote(await request.json()));
    if (route === "POST /execute") {
      const submission = (await request.json()) as FloorSubmission;
      return Response.json(await byName(env.KEEPER, "leader").submit(submission), { status: 202 });
    }
    if (route === "GET /required/connect") return byName(env.REQUIRED_AUCTION, corridor).fetch(request);
    if (route === "POST /required/quote") {
      const asked = (await request.json()) as { taker?: string; sellAmount?: string };
      return Response.json(await byName(env.REQUIRED_AUCTION, corridor).quote(asked));
    }
    if (route === "POST /required/execute") {
      const answer = await byName(env.REQUIRED_KEEPER, "leader").submit((await request.json()) as FillRequest);
      return Response.json(answer, { status: "txHash" in answer ? 202 : 400 });
    }
    if (route === "GET /health") return new Response("ok");
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
