import { describe, expect, it } from "vitest";
import { RelayError } from "../../src/errors";
import { callObject, unreachableRefusal } from "../../src/objects/unreachable";

const unreachable = { message: "The corridor is restarting; ask again shortly.", reason: "corridor_unreachable" };

/** An error as the runtime throws it for a Durable Object it cannot reach now. */
const runtimeError = (flag: "retryable" | "overloaded") =>
  Object.assign(new Error("Network connection lost."), { [flag]: true });

describe("callObject", () => {
  it.each(["retryable", "overloaded"] as const)(
    "answers an object that is %s with 503 not_leader and Retry-After",
    async (flag) => {
      const error = await callObject(() => Promise.reject(runtimeError(flag)), unreachable).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RelayError);
      expect(error).toMatchObject({
        status: 503,
        code: "not_leader",
        message: unreachable.message,
        extras: { reason: "corridor_unreachable", retryAfter: 2 },
      });
    },
  );

  it("answers an object reset while it held the call (a deploy, an eviction) with 503 not_leader, not a 500", async () => {
    // As workerd throws it to a caller whose object was reset mid-call: remote, neither retryable nor overloaded.
    const reset = () =>
      Object.assign(new Error("Durable Object reset because its code was updated."), {
        remote: true,
        durableObjectReset: true,
      });
    await expect(callObject(() => Promise.reject(reset()), unreachable)).rejects.toMatchObject({
      status: 503,
      code: "not_leader",
      extras: { reason: "corridor_unreachable", retryAfter: 2 },
    });
    const keeper = {
      ...unreachable,
      reset: { message: "Submit again with the same key.", reason: "keeper_restarted" },
    };
    await expect(callObject(() => Promise.reject(reset()), keeper)).rejects.toMatchObject({
      status: 503,
      code: "not_leader",
      message: "Submit again with the same key.",
      extras: { reason: "keeper_restarted", retryAfter: 2 },
    });
  });

  it("passes an answer through, and rethrows any other error as it was", async () => {
    expect(await callObject(async () => 42, unreachable)).toBe(42);
    const bug = new TypeError("not a function");
    await expect(callObject(() => Promise.reject(bug), unreachable)).rejects.toBe(bug);
  });
});

describe("unreachableRefusal", () => {
  it("is the 503 as a value, for an object that passes a corridor's answer on", () => {
    expect(unreachableRefusal(runtimeError("overloaded"), unreachable)).toEqual({
      kind: "refused",
      status: 503,
      code: "not_leader",
      message: unreachable.message,
      extras: { reason: "corridor_unreachable", retryAfter: 2 },
    });
  });

  it("is null for any other error, and for a thrown non-object", () => {
    expect(unreachableRefusal(new TypeError("not a function"), unreachable)).toBeNull();
    expect(unreachableRefusal(undefined, unreachable)).toBeNull();
  });
});
