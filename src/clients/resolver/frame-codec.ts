import type { LocalAccount } from "viem";
import { type AuthFrame, authMessage, type NodeFrame, nodeFrame, type SignerType } from "../../protocol/node-frames";
import { type RelayFrame, relayFrame } from "../../protocol/relay-frames";
import type { SolanaSigner } from "./keys";

/** The node's side of the codec (the relay's is `src/protocol/codec.ts`), with the frames' zod schemas. */

export type ParsedRelayFrame = { ok: true; frame: RelayFrame } | { ok: false; error: Error };

export function parseRelayFrame(data: string): ParsedRelayFrame {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { ok: false, error: new Error(`the relay sent a frame that is not JSON: ${data}`) };
  }
  const parsed = relayFrame.safeParse(json);
  if (!parsed.success) return { ok: false, error: new Error(`unrecognised relay frame: ${data.slice(0, 200)}`) };
  return { ok: true, frame: parsed.data };
}

/** A frame's text, or null when the frame is not one the protocol allows: the node never sends those. */
export function encodeNodeFrame(frame: NodeFrame): string | null {
  return nodeFrame.safeParse(frame).success ? JSON.stringify(frame) : null;
}

/** What the node does on each type of relay frame; a type without a handler is only for listeners. */
export type RelayFrameHandlers = {
  [K in RelayFrame["type"]]?: (frame: Extract<RelayFrame, { type: K }>) => void;
};

export function dispatchRelayFrame(frame: RelayFrame, handlers: RelayFrameHandlers): void {
  const handler = handlers[frame.type] as ((frame: RelayFrame) => void) | undefined;
  handler?.(frame);
}

/** Who the node says it is in `auth`. */
export interface NodeIdentity {
  /** The node's identity: signs the auth challenge and every bid. */
  account: LocalAccount;
  name: string;
  version: string;
  region?: string | null;
  /** `keyfile` for a key held by the process, or a custody service (`SIGNER_TYPES`). */
  signerType?: SignerType | null;
  /**
   * The node's Solana key: proved at auth, it signs the node's bids on Solana corridors and, when it
   * wins, the swap transaction (`sign`). Without it, Solana rfqs are declined `no_solana_key`.
   */
  solana?: SolanaSigner | null;
}

/** The answer to `challenge {corridor, nonce}` (docs/resolver-protocol.md, "Authentication"). */
export async function authFrameFor(identity: NodeIdentity, corridor: string, nonce: string): Promise<AuthFrame> {
  const { account, name, version, region, signerType, solana } = identity;
  const text = authMessage(corridor, nonce);
  const signature = await account.signMessage({ message: text });
  return {
    type: "auth",
    address: account.address,
    signature,
    name,
    version,
    ...(region ? { region } : {}),
    ...(signerType ? { signerType } : {}),
    ...(solana ? { solana: { address: solana.address, signature: solana.sign(text) } } : {}),
  };
}
