import type { ChainAdapter } from "../chains";
import type { Issue } from "../errors";

/** The addresses of a request must be addresses of the chain asked for: an issue for each that is not. */
export function addressIssues(chain: ChainAdapter, fields: Record<string, string | undefined>): Issue[] {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined && !chain.isAddress(v))
    .map(([path]) => ({ path, message: `must be ${chain.addressDescription}` }));
}
