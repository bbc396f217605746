import { secp256k1 } from "@noble/curves/secp256k1";
import { bytesToHex, type Hex, hexToBytes, keccak256, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { hasKeyTable, KEY_TABLES, verifyEachWithKey, verifyWithKey } from "../../src/chains/evm/ecdsa";
import { recoverStrict } from "../../src/chains/evm/strict-signature";
import { flipV, highS, withV } from "../support/signature-variants";

const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const other = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const hash = keccak256(toHex("a bid"));
const { Point } = secp256k1;
const { Fp, Fn } = Point;

/** Whether plain ECDSA (which ignores v and takes x(R) mod n) accepts the signature's r ‖ s. */
const plainEcdsa = (h: Hex, signature: Hex, publicKey: Hex) =>
  secp256k1.verify(hexToBytes(signature).slice(0, 64), hexToBytes(h), hexToBytes(publicKey), {
    prehash: false,
    lowS: false,
  });

/**
 * A signature whose R has x = r + n, with the only key it verifies against: R is picked first (x past the
 * group order), then the key solved from the verification equation, Q = r⁻¹(sR − hG).
 */
function signatureWithRPastOrder(h: Hex): { signature: Hex; publicKey: Hex } {
  for (let x = Fn.ORDER + 1n; ; x++) {
    const y2 = Fp.add(Fp.mul(Fp.sqr(x), x), 7n);
    let y: bigint;
    try {
      y = Fp.sqrt(y2);
    } catch {
      continue;
    }
    if (Fp.sqr(y) !== y2) continue;
    const R = Point.fromAffine({ x, y });
    const r = x - Fn.ORDER;
    const s = 0x1234567n;
    const Q = R.multiply(s)
      .subtract(Point.BASE.multiply(Fn.create(BigInt(h))))
      .multiply(Fn.inv(r));
    const v = (y & 1n) === 0n ? 27 : 28;
    const signature = `${toHex(r, { size: 32 })}${toHex(s, { size: 32 }).slice(2)}${v.toString(16)}` as Hex;
    return { signature, publicKey: `0x${Q.toHex(false)}` };
  }
}

/** Each new key builds its table of multiples (about 40 ms here), so the file's tests get a CI machine's margin. */
describe("verifyWithKey", { timeout: 30_000 }, () => {
  it("accepts the key's signature and refuses others, other hashes and garbage", async () => {
    const signature = await account.sign({ hash });
    expect(verifyWithKey(hash, signature, account.publicKey)).toBe(true);
    expect(verifyWithKey(hash, signature, other.publicKey)).toBe(false);
    expect(verifyWithKey(keccak256(toHex("another bid")), signature, account.publicKey)).toBe(false);
    expect(verifyWithKey(hash, await other.sign({ hash }), account.publicKey)).toBe(false);
    expect(verifyWithKey(hash, "0x1234", account.publicKey)).toBe(false);
    expect(verifyWithKey(hash, `0x${"00".repeat(65)}`, account.publicKey)).toBe(false);
  });

  it("accepts the signer's signature and refuses another digest's, on 40 random keys", async () => {
    for (let i = 0; i < 40; i++) {
      const signer = privateKeyToAccount(generatePrivateKey());
      const digest = keccak256(toHex(`bid ${i}`));
      const signature = await signer.sign({ hash: digest });
      expect(verifyWithKey(digest, signature, signer.publicKey)).toBe(true);
      expect(verifyWithKey(keccak256(toHex(`bid ${i}+`)), signature, signer.publicKey)).toBe(false);
    }
  });

  it("refuses the high-s twin of a valid signature", async () => {
    const signature = hexToBytes(await account.sign({ hash }));
    const s = BigInt(bytesToHex(signature.slice(32, 64)));
    const twin = new Uint8Array(signature);
    twin.set(hexToBytes(toHex(Fn.ORDER - s, { size: 32 })), 32);
    expect(verifyWithKey(hash, bytesToHex(twin) as Hex, account.publicKey)).toBe(false);
    expect(verifyWithKey(hash, highS(bytesToHex(signature)), account.publicKey)).toBe(false);
  });

  it("refuses a signature with v flipped, which plain ECDSA accepts and ecrecover reads as another key's", async () => {
    for (let i = 0; i < 20; i++) {
      const digest = keccak256(toHex(`flip ${i}`));
      const flipped = flipV(await account.sign({ hash: digest }));
      expect(plainEcdsa(digest, flipped, account.publicKey)).toBe(true);
      expect(recoverStrict(digest, flipped)?.address).not.toBe(account.address);
      expect(verifyWithKey(digest, flipped, account.publicKey)).toBe(false);
    }
  });

  it("refuses v 0 or 1 and any v but 27 and 28, and signatures of 64 or 66 bytes", async () => {
    const signature = await account.sign({ hash });
    const yParity = signature.endsWith("1b") ? 0 : 1;
    expect(verifyWithKey(hash, withV(signature, yParity), account.publicKey)).toBe(false);
    for (const v of [2, 26, 29, 0xff]) expect(verifyWithKey(hash, withV(signature, v), account.publicKey)).toBe(false);
    expect(verifyWithKey(hash, signature.slice(0, 130) as Hex, account.publicKey)).toBe(false);
    expect(verifyWithKey(hash, `${signature}00`, account.publicKey)).toBe(false);
  });

  it("refuses a signature whose R has x = r + n, which plain ECDSA accepts and ecrecover cannot produce", () => {
    const { signature, publicKey } = signatureWithRPastOrder(hash);
    expect(plainEcdsa(hash, signature, publicKey)).toBe(true);
    expect(recoverStrict(hash, signature)?.publicKey).not.toBe(publicKey);
    expect(verifyWithKey(hash, signature, publicKey)).toBe(false);
  });

  it("agrees with noble where a window's digit is at its edges and borrows carry through every window", () => {
    // A signature chosen by its products: R = u₁G + u₂Q, r = x(R), s = r/u₂, h = u₁s, so that h/s and r/s
    // are the scalars wanted. Each window of 0x80…80 is the largest positive digit; of 0xff…ff a borrow.
    const d = 0x1234567890abcdefn;
    const Q = Point.BASE.multiply(d);
    const publicKey = `0x${Q.toHex(false)}` as Hex;
    const edges = [
      1n,
      2n,
      127n,
      128n,
      129n,
      255n,
      256n,
      BigInt(`0x${"80".repeat(32)}`) % Fn.ORDER,
      BigInt(`0x${"ff".repeat(31)}`),
      BigInt(`0x${"7f".repeat(32)}`),
      2n ** 255n,
      Fn.ORDER - 1n,
      Fn.ORDER - 129n,
    ];
    let checked = 0;
    for (const u1 of edges) {
      for (const u2 of edges) {
        const R = Point.BASE.multiply(u1).add(Q.multiply(u2));
        const { x, y } = R.toAffine();
        const r = Fn.create(x);
        const s = Fn.create(r * Fn.inv(u2));
        const h = Fn.create(u1 * s);
        // Only a low s is a signature the rule admits, and only one with x(R) < n is what ecrecover rebuilds.
        if (s > Fn.ORDER / 2n || x >= Fn.ORDER || r === 0n) continue;
        const v = (y & 1n) === 0n ? 27 : 28;
        const signature = `${toHex(r, { size: 32 })}${toHex(s, { size: 32 }).slice(2)}${v.toString(16)}` as Hex;
        const digest = toHex(h, { size: 32 });
        expect(verifyWithKey(digest, signature, publicKey)).toBe(true);
        expect(recoverStrict(digest, signature)?.publicKey).toBe(publicKey);
        expect(verifyWithKey(digest, withV(signature, v === 27 ? 28 : 27), publicKey)).toBe(false);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("agrees with noble where a step adds the very point summed so far, or its negation", () => {
    // With the key G itself (d = 1), u₁ = u₂ = k makes the key's first window add kG to kG (a doubling),
    // and u₂ = 3·256 − k makes it add −kG (the sum cancels to nothing, then 3·256·G follows).
    const publicKey = `0x${Point.BASE.toHex(false)}` as Hex;
    const kinds = { doubling: 0, cancelling: 0 };
    for (let k = 1n; k <= 40n; k++) {
      for (const [kind, u2] of [
        ["doubling", k],
        ["cancelling", 3n * 256n - k],
      ] as const) {
        const R = Point.BASE.multiply(k + u2);
        const { x, y } = R.toAffine();
        const s = Fn.create(x * Fn.inv(u2));
        if (s > Fn.ORDER / 2n) continue;
        const v = (y & 1n) === 0n ? 27 : 28;
        const signature = `${toHex(x, { size: 32 })}${toHex(s, { size: 32 }).slice(2)}${v.toString(16)}` as Hex;
        const digest = toHex(Fn.create(k * s), { size: 32 });
        expect(recoverStrict(digest, signature)?.publicKey).toBe(publicKey);
        expect(verifyWithKey(digest, signature, publicKey)).toBe(true);
        expect(verifyWithKey(digest, withV(signature, v === 27 ? 28 : 27), publicKey)).toBe(false);
        kinds[kind] += 1;
      }
    }
    expect(kinds.doubling).toBeGreaterThan(5);
    expect(kinds.cancelling).toBeGreaterThan(5);
  });
});

describe("verifyEachWithKey", () => {
  it("answers each signature as verifyWithKey does, in order, however the batch mixes them", async () => {
    const keys = Array.from({ length: 6 }, (_, i) => privateKeyToAccount(keccak256(toHex(`key ${i}`))));
    const signed = await Promise.all(
      keys.map(async (key, i) => {
        const digest = keccak256(toHex(`bid ${i}`));
        return { hash: digest, signature: await key.sign({ hash: digest }), publicKey: key.publicKey };
      }),
    );
    type Signed = (typeof signed)[number];
    const [a, b, c, d, e, f] = signed as [Signed, Signed, Signed, Signed, Signed, Signed];
    const past = signatureWithRPastOrder(hash);
    const batch = [
      a,
      { ...b, publicKey: c.publicKey },
      c,
      { ...d, signature: flipV(d.signature) },
      { hash, signature: past.signature, publicKey: past.publicKey as Hex },
      { ...e, signature: "0x1234" as Hex },
      { ...f, publicKey: `0x04${"11".repeat(64)}` as Hex },
      { ...f, signature: highS(f.signature) },
      f,
      { ...a, hash: b.hash },
      { ...a, publicKey: `0x${Point.fromHex(a.publicKey.slice(2)).toHex(true)}` as Hex },
    ];
    const each = verifyEachWithKey(batch);
    expect(each).toEqual([true, false, true, false, false, false, false, false, true, false, false]);
    expect(each).toEqual(batch.map((x) => verifyWithKey(x.hash, x.signature, x.publicKey)));
    expect(verifyEachWithKey([])).toEqual([]);
  });
});

describe("the key tables' cache", { timeout: 30_000 }, () => {
  it("keeps KEY_TABLES keys' tables: one key more evicts the least recently checked, not all", async () => {
    const keys = Array.from({ length: KEY_TABLES + 1 }, (_, i) => privateKeyToAccount(keccak256(toHex(`lru ${i}`))));
    const signatures = await Promise.all(keys.map((k) => k.sign({ hash })));
    const check = (i: number) =>
      verifyWithKey(hash, signatures[i] as Hex, (keys[i] as (typeof keys)[number]).publicKey);
    for (let i = 0; i < KEY_TABLES; i++) expect(check(i)).toBe(true);
    expect(check(0)).toBe(true); // key 0 checked again: key 1 is now the least recently checked
    expect(check(KEY_TABLES)).toBe(true);
    const kept = keys.filter((k) => hasKeyTable(k.publicKey)).length;
    expect(kept).toBe(KEY_TABLES);
    expect(hasKeyTable((keys[1] as (typeof keys)[number]).publicKey)).toBe(false);
    expect(hasKeyTable((keys[0] as (typeof keys)[number]).publicKey)).toBe(true);
  });
});

describe("a check without the key's table", { timeout: 30_000 }, () => {
  it("answers as a check with it, and builds no table", async () => {
    const keys = Array.from({ length: 20 }, () => privateKeyToAccount(generatePrivateKey()));
    const digests = keys.map((_, i) => keccak256(toHex(`cold ${i}`)));
    const signatures = await Promise.all(keys.map((k, i) => k.sign({ hash: digests[i] as Hex })));
    const batch = keys.flatMap((k, i) => {
      const one = { hash: digests[i] as Hex, signature: signatures[i] as Hex, publicKey: k.publicKey };
      const next = keys[(i + 1) % keys.length] as (typeof keys)[number];
      return [
        one,
        { ...one, signature: flipV(one.signature) },
        { ...one, signature: highS(one.signature) },
        { ...one, hash: hash },
        { ...one, publicKey: next.publicKey },
      ];
    });
    const past = signatureWithRPastOrder(hash);
    batch.push({ hash, signature: past.signature, publicKey: past.publicKey as Hex });
    const cold = verifyEachWithKey(batch, false);
    expect(keys.filter((k) => hasKeyTable(k.publicKey))).toEqual([]);
    expect(cold.filter(Boolean)).toHaveLength(keys.length);
    expect(cold).toEqual(batch.map((_, i) => i < batch.length - 1 && i % 5 === 0));
    expect(verifyEachWithKey(batch, true)).toEqual(cold);
    expect(keys.every((k) => hasKeyTable(k.publicKey))).toBe(true);
  });

  it("agrees with noble on random scalars' keys, signed and not", async () => {
    for (let i = 0; i < 40; i++) {
      const key = privateKeyToAccount(generatePrivateKey());
      const digest = keccak256(toHex(`random ${i}`));
      const signature = await key.sign({ hash: digest });
      expect(verifyWithKey(digest, signature, key.publicKey, false)).toBe(true);
      expect(verifyWithKey(hash, signature, key.publicKey, false)).toBe(plainEcdsa(hash, signature, key.publicKey));
    }
  });
});
