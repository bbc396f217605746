/**
 * The floor's Worker (bench/README.md, "The floor"): routes only, to one object per corridor
 * name (`?corridor=`, default `default`) and one keeper.
 *
 * - `GET /connect?corridor=` (WebSocket): a resolver's socket, held by the corridor's object;
 * - `POST /quote?corridor=`: the body, as JSON, to the corridor's auction; its best reply as JSON;
 * - `POST /execute`: the body to the keeper, which calls the chain; 202 with the transaction's hash;
 * - `GET /health`: answers, for the bench to find the Worker's own socket (bench/workerd.ts).
 */
import { FloorAuction } from "./auction";
import { FloorKeeper, type KeeperEnv } from "./keeper";
import type { FloorSubmission } from "./protocol";

export { FloorAuction, FloorKeeper };

interface Env extends KeeperEnv {
  AUCTION: DurableObjectNamespace<FloorAuction>;
  KEEPER: DurableObjectNamespace<FloorKeeper>;
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
    if (route === "GET /health") return new Response("ok");
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
