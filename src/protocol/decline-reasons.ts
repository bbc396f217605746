/**
 * Why a node declines, as the reference resolver says it (docs/resolver-protocol.md, "Auctions"). The
 * relay takes any text up to 200 characters and acts on none of it: a decline counts as `declined` in the
 * quote's `replies`, whatever its reason.
 */
export const DECLINE_REASONS = {
  random_decline: "declined at random (the reference resolver's --decline-rate)",
  paused: "the node, or its chain, is paused",
  degraded: "the node, or its chain, is degraded (its own `degraded` text may be sent instead)",
  unsupported_chain: "the node does not serve the rfq's chain, or not with this signature scheme",
  no_solana_key: "a Solana rfq, and the node holds no Solana key",
  unknown_token: "the node does not know the sell or buy token",
  "to_sign_mismatch:<field>": "the rfq's `toSign` disagrees with the rfq at <field>: the node will not sign it",
  no_band: "the node prices from the oracle band, and there is none",
  unpriced_pair: "the node has no price for the pair",
  bad_band: "the band's mid is not a usable price",
  pricing_error: "the node's pricer failed",
  amount_too_small: "the price came to no output",
  insufficient_inventory: "the node holds too little of the buy token, or allows too little",
  cannot_sign: "the node's signer failed",
} as const;
