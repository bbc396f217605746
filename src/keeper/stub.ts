import type { Env } from "../env";

/** The one keeper object's name: the Worker always asks this one (DESIGN §1). */
export const KEEPER_NAME = "leader";

export const keeperStub = (env: Env) => env.KEEPER.get(env.KEEPER.idFromName(KEEPER_NAME));
