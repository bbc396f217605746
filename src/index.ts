import { createApp } from "./app";
import { entryEnv } from "./entry";
import type { Env } from "./env";

export { ChainKeeperDO } from "../durable-objects/chain-keeper";
export { CorridorDO } from "../durable-objects/corridor";
export { KeeperDO } from "../durable-objects/keeper";
export { OracleDO } from "../durable-objects/oracle";

const app = createApp();

export default {
  fetch: (request, env, ctx) => app.fetch(request, entryEnv(env), ctx),
} satisfies ExportedHandler<Env>;
