import { errorText } from "../log";

/** What a bounded call gave: its value, or why not (an error, or the deadline), and how long it took. */
export type Probed<T> = { ok: true; value: T; ms: number } | { ok: false; error: string; ms: number };

/**
 * Runs `run` for at most `ms`: past it, the answer is `timeout` and the call is aborted through the
 * signal (a fetch stops; an object call is left to finish on its own). Never rejects, so one slow or
 * failing part cannot hang or fail what asked for several (docs/operations.md, "Health").
 */
export async function within<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<Probed<T>> {
  const started = Date.now();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve("timeout");
    }, ms);
  });
  try {
    const running = run(controller.signal);
    // Past the deadline nobody awaits it any more: its failure then is nobody's to report.
    running.catch(() => {});
    const value = await Promise.race([running, deadline]);
    const took = Date.now() - started;
    return value === "timeout"
      ? { ok: false, error: `timeout after ${ms} ms`, ms: took }
      : { ok: true, value, ms: took };
  } catch (e) {
    return { ok: false, error: errorText(e), ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}
