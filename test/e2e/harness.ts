/**
 * The e2e tests' relay: `wrangler dev` on a free loopback port with fresh local state. The process
 * handling is shared with `npm start` and the benchmarks (scripts/lib).
 */
export {
  type RelayProcess,
  type StartRelayOptions as StartOptions,
  startRelay,
} from "../../scripts/lib/local-stack";
export { freePort } from "../../scripts/lib/processes";
