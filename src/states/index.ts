/**
 * The state tables (docs/api.md, docs/limit-orders.md): every move of a quote and of a limit order, from
 * which src/db/ builds its conditional SQL, and which status may follow which.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { type Blame, blamed, blameOf, PARTIES } from "./blame";
export {
  ACTIVE_LIMIT_STATUSES,
  afterFailedFill,
  isTerminal,
  LIMIT_MOVES,
  TAKER_BAD_SIGNATURE,
} from "./limit-order-states";
export {
  EXECUTION_TRANSITIONS,
  isOpen,
  isQuoteTerminal,
  OPEN_SQL,
  QUOTE_MOVES,
  type QuoteMove,
  type QuoteMoveName,
  type SettlementStep,
  statusSql,
} from "./quote-states";
