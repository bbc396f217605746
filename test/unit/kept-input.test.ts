import { describe, expect, it } from "vitest";
import { FAILED_READ_RETRY_MS, KeptInput } from "../../src/chains/kept-input";

describe("KeptInput", () => {
  it("dates a value by the read that returned it, and reads again once it is everyMs old", async () => {
    let value = 1;
    const input = new KeptInput(async () => value++, 100);
    expect(input.current()).toBeNull();
    await input.refresh(50);
    expect(input.current()).toEqual({ value: 1, at: 50 });
    await input.refresh(149);
    expect(input.current()).toEqual({ value: 1, at: 50 });
    await input.refresh(150);
    expect(input.current()).toEqual({ value: 2, at: 150 });
  });

  it("runs one read at a time", async () => {
    let reads = 0;
    const input = new KeptInput(async () => ++reads, 100);
    await Promise.all([input.refresh(0), input.refresh(0), input.refresh(1)]);
    expect(reads).toBe(1);
  });

  it("tries a failed read again no sooner than FAILED_READ_RETRY_MS later, keeping what it held", async () => {
    let down = false;
    let reads = 0;
    const errors: unknown[] = [];
    const input = new KeptInput(
      async () => {
        reads++;
        if (down) throw new Error("rpc down");
        return reads;
      },
      100,
      (e) => errors.push(e),
    );
    await input.refresh(0);
    down = true;
    for (let now = 100; now < 100 + FAILED_READ_RETRY_MS; now += 10) await input.refresh(now);
    expect(reads).toBe(2);
    expect(errors).toHaveLength(1);
    expect(input.current()).toEqual({ value: 1, at: 0 });
    down = false;
    await input.refresh(100 + FAILED_READ_RETRY_MS);
    expect(reads).toBe(3);
    expect(input.current()).toEqual({ value: 3, at: 100 + FAILED_READ_RETRY_MS });
  });
});
