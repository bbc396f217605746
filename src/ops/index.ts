/**
 * Operations (docs/operations.md): the health check and its probes, corridor states and controls, pauses.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { CorridorControls } from "./corridor-controls";
export { corridorRecord, corridorStatuses } from "./corridor-records";
export type { CorridorStatus } from "./corridor-state";
export { assessHealth, HEALTH_PART_TIMEOUT_MS, type OracleStatus } from "./health";
export { PauseSwitch } from "./pause";
export { probeHealth } from "./probes";
