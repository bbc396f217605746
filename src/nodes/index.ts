/**
 * Connected resolver nodes (docs/resolver-protocol.md): `CorridorNodes` holds a corridor's sessions; the
 * live view of who is connected and fresh.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { CorridorNodes } from "./corridor-nodes";
export { corridorNodesOn } from "./corridor-nodes-on";
export { liveNodes } from "./live";
export { NodeDoor } from "./node-door";
export { isFresh, type NodeSession } from "./nodes";
export { type CorridorNodesHost, type NodeEvent, type NodeEventRoutes, routeNodeEvent } from "./ports";
