import { keccak256, recoverAddress, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { nativelySigning } from "../../bench/native-signer";
import { anvilAccount } from "../../src/clients/resolver/keys";

describe("the benchmark's native bid signer", () => {
  it("signs every digest exactly as viem does (RFC 6979, low s, v 27 or 28), so its bids are checked as any", async () => {
    for (const index of [1, 2, 3]) {
      const viem = anvilAccount(index);
      const native = nativelySigning(viem);
      expect(native.address).toBe(viem.address);
      for (let i = 0; i < 100; i++) {
        const hash = keccak256(toHex(`bid ${index} ${i}`));
        const signature = await native.sign?.({ hash });
        expect(signature).toBe(await viem.sign({ hash }));
        if (i === 0) expect(await recoverAddress({ hash, signature: signature ?? "0x" })).toBe(viem.address);
      }
    }
  });
});
