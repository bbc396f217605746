import { describe, expect, it } from "vitest";
import { splitSamples } from "../../bench/perf-parts";

const sample = (...frames: string[]) => ["workerd ", ...frames.map((f) => `\t         4b454c2 ${f}`)].join("\n");

describe("bench:perf's split of perf samples", () => {
  it("counts each sample once, in the first part its stack passes through, leaf frame included", () => {
    const script = [
      sample("Builtins_BigIntModulusNoThrow", "workerd::api::HibernatableWebSocketCustomEvent::run"),
      sample("fsync", "sqlite3_step", "workerd::tracing::TailStreamTarget::report"),
      sample("sqlite3_step", "workerd::api::SqlStorage::exec"),
      sample("4b454c2", "kj::_::waitImpl"),
    ].join("\n\n");
    expect(splitSamples(script)).toEqual([
      { part: "BigInt arithmetic (secp256k1, amounts)", share: 0.25 },
      { part: "local observability (wrangler dev's collector)", share: 0.25 },
      { part: "SQLite: object storage and local D1 (fsync included)", share: 0.25 },
      { part: "the rest: JavaScript, the event loop, the kernel", share: 0.25 },
    ]);
  });
});
