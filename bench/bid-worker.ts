/** The Worker `npm run bench:bid` runs in workerd: each request measures `?bids=` bids (bench/bid-checks.ts). */
import { bidCosts } from "./bid-checks";

export default {
  async fetch(request: Request): Promise<Response> {
    const bids = Number(new URL(request.url).searchParams.get("bids") ?? 2_000);
    return Response.json(await bidCosts(bids));
  },
};
