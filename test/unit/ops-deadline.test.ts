import { describe, expect, it } from "vitest";
import { within } from "../../src/ops/deadline";

describe("within: a call bounded in time", () => {
  it("gives the value of a call that answers in time", async () => {
    const probed = await within(1_000, async () => 42);
    expect(probed).toMatchObject({ ok: true, value: 42 });
  });

  it("gives the error of a call that fails, without rejecting", async () => {
    const probed = await within(1_000, async () => {
      throw new Error("connection refused");
    });
    expect(probed).toMatchObject({ ok: false, error: "connection refused" });
  });

  it("stops waiting at the deadline, aborts the call's signal, and ignores its later failure", async () => {
    let aborted = false;
    const started = Date.now();
    const probed = await within(
      30,
      (signal) =>
        new Promise((_, reject) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            setTimeout(() => reject(new Error("late")), 5);
          });
        }),
    );
    expect(probed).toMatchObject({ ok: false, error: "timeout after 30 ms" });
    expect(Date.now() - started).toBeLessThan(500);
    expect(aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
});
