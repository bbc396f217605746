/**
 * The state tables (docs/api.md, docs/limit-orders.md): which status may follow which, and the settlement
 * and limit-order moves src/db/ builds its conditional SQL from.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export {
  ACTIVE_LIMIT_STATUSES,
  afterFailedFill,
  isTerminal,
  LIMIT_MOVES,
  TAKER_BAD_SIGNATURE,
} from "./limit-order-states";
export {
  ENDING_MOVES,
  type EndingMove,
  EXECUTION_TRANSITIONS,
  isOpen,
  OPEN_SQL,
  SETTLEMENT_MOVES,
  type SettlementMove,
  type SettlementStep,
  statusSql,
} from "./quote-states";
