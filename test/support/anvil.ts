/**
 * A fresh anvil on a free loopback port for the contract and e2e tests; the process handling is shared
 * with `npm start` and the benchmarks (scripts/lib/local-stack.ts).
 */
export { type AnvilProcess, anvilBinary, startAnvil } from "../../scripts/lib/local-stack";
