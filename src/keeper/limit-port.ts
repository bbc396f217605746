import { adapterFor } from "../chains";
import type { RelayConfig } from "../config/schema";
import { d1LimitBook } from "../db/limit-book";
import { bandAssetOf } from "../oracle/band-corridors";
import type { LimitJobPort } from "./limit-job";

/** What the limit job's port is made of in the keeper object: D1, the configuration, and the other objects. */
export interface LimitPortDeps {
  db: D1Database;
  config(): RelayConfig;
  band: LimitJobPort["band"];
  auction: LimitJobPort["auction"];
  submit: LimitJobPort["submit"];
  paused: LimitJobPort["paused"];
  moved: LimitJobPort["moved"];
}

/** The limit job's port over D1 and the objects (docs/limit-orders.md, "The keeper's job"). */
export function limitJobPort(deps: LimitPortDeps): LimitJobPort {
  return {
    book: d1LimitBook(deps.db, deps.config),
    band: deps.band,
    auction: deps.auction,
    submit: deps.submit,
    paused: deps.paused,
    moved: deps.moved,
    now: () => Date.now(),
    ask(order) {
      const config = deps.config();
      const chain = config.chains.find((c) => c.chainId === order.chainId);
      const adapter = chain ? adapterFor(chain) : null;
      const asset = (token: string) =>
        adapter ? bandAssetOf(config, order.corridorKey, token, adapter.sameAddress) : null;
      const decimals = (token: string) => adapter?.token(token)?.decimals ?? 0;
      return {
        sellAmount: BigInt(order.sellAmount),
        limitAmount: BigInt(order.limitAmount),
        sellAsset: asset(order.sellToken),
        buyAsset: asset(order.buyToken),
        sellDecimals: decimals(order.sellToken),
        buyDecimals: decimals(order.buyToken),
      };
    },
  };
}
