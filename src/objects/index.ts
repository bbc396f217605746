/**
 * The Durable Objects as the Worker and the domain reach them (docs/architecture.md): each object's stub
 * by name, and a call to one that may be unreachable, answered 503 with `Retry-After`; and what every
 * object runs its periodic work with, one alarm over a schedule table.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { behindTheAlarm, type Job, periodic, Schedule, type ScheduleRow } from "./schedule";
export { chainKeeperStub, corridorStub, KEEPER_NAME, keeperStub, ORACLE_NAME, oracleStub } from "./stubs";
export {
  CORRIDOR_UNREACHABLE,
  callObject,
  KEEPER_LEADER_UNREACHABLE,
  NOT_LEADER_RETRY_SECONDS,
  OBJECT_UNREACHABLE,
  ORACLE_UNREACHABLE,
  type Unreachable,
  unreachableRefusal,
} from "./unreachable";
