/**
 * `run` as its callers ask for it: each call resolves with a run that started after the call, so it sees
 * what came before it. A call while a run is under way waits for it, and the calls that waited share the
 * next run.
 */
export function runsAfterCall<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const start = (): Promise<T> => {
    running = run().finally(() => {
      running = null;
    });
    return running;
  };
  return () => {
    if (!running) return start();
    const after = running.then(
      () => undefined,
      () => undefined,
    );
    next ??= after.then(() => {
      next = null;
      return start();
    });
    return next;
  };
}
