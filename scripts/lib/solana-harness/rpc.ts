/** The Solana JSON-RPC methods the harness serves, behind one dispatcher for the JSON-RPC framing. */
import { type Dispatch, METHOD_NOT_FOUND, RpcError } from "./jsonrpc";
import { accountMethods } from "./methods/accounts";
import { clusterMethods } from "./methods/cluster";
import type { Method, RpcContext } from "./methods/context";
import { historyMethods } from "./methods/history";
import { transactionMethods } from "./methods/transactions";
import { positional } from "./params";

export const METHODS: Readonly<Record<string, Method>> = {
  ...clusterMethods,
  ...accountMethods,
  ...transactionMethods,
  ...historyMethods,
};

export function solanaDispatch(ctx: RpcContext): Dispatch {
  return (method, params) => {
    const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    if (!handler) throw new RpcError(METHOD_NOT_FOUND, "Method not found");
    return handler(positional(params), ctx);
  };
}
