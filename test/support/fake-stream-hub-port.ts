import type { StreamEvent, StreamRead } from "../../src/streams/events";
import type { StreamHubPort } from "../../src/streams/hub";

/**
 * The stream hub's port (`StreamHubPort` of src/streams/hub.ts) in memory: subjects whose events the test
 * adds and ends, a clock it moves, a count of reads, and reads it can fail or hold back.
 */
export function fakeStreamHubPort() {
  let now = 1_000_000;
  const subjects = new Map<string, { events: StreamEvent[]; ended: boolean; wakeAt?: number }>();
  let reads = 0;
  let failing = false;
  let gate: Promise<void> | null = null;
  const port: StreamHubPort = {
    async read(topic): Promise<StreamRead | null> {
      reads++;
      if (gate) await gate;
      if (failing) throw new Error("D1 is down");
      const s = subjects.get(topic);
      return s ? { events: [...s.events], ended: s.ended, wakeAt: s.wakeAt ?? null } : null;
    },
    now: () => now,
  };
  const add = (topic: string, ...names: string[]) => {
    const s = subjects.get(topic) ?? { events: [], ended: false };
    for (const name of names) s.events.push({ id: s.events.length + 1, event: name, data: { n: s.events.length + 1 } });
    subjects.set(topic, s);
    return s;
  };
  return {
    port,
    /** Adds events named `names` to the subject of `topic`; the subject, to set its `wakeAt`. */
    add,
    end: (topic: string) => {
      const s = subjects.get(topic);
      if (s) s.ended = true;
    },
    tick: (ms: number) => (now += ms),
    now: () => now,
    reads: () => reads,
    fail: (on: boolean) => {
      failing = on;
    },
    /** Holds every read back until the returned function is called. */
    hold: () => {
      let release = () => {};
      gate = new Promise((r) => {
        release = r;
      });
      return () => {
        gate = null;
        release();
      };
    },
  };
}
