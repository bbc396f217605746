/**
 * The benchmark's resolvers sign their bids with libsecp256k1 (the `secp256k1` package's native
 * binding), as a market maker's server would, rather than with viem's JavaScript: a signature costs
 * about 30 µs instead of 230–300 µs. At 20 resolvers that is what keeps their thread from taking most of
 * a core of the two the relay shares with them (bench/README.md, "How a run measures"). The signatures
 * are the same deterministic (RFC 6979), low-s ECDSA the relay checks, so every bid is still checked for
 * real.
 */
import secp256k1 from "secp256k1";
import { bytesToHex, type HDAccount, type Hex, hexToBytes, type LocalAccount } from "viem";

/** The account, signing digests natively with its own key; everything else as viem does it. */
export function nativelySigning(account: HDAccount): LocalAccount {
  const key = account.getHdKey().privateKey;
  if (!key) throw new Error(`no private key for ${account.address}`);
  return {
    ...account,
    async sign({ hash }: { hash: Hex }): Promise<Hex> {
      const { signature, recid } = secp256k1.ecdsaSign(hexToBytes(hash), key);
      const signed = new Uint8Array(65);
      signed.set(signature);
      signed[64] = 27 + recid;
      return bytesToHex(signed);
    },
  };
}
