/**
 * Runs tasks so that two sharing a key never overlap, in the order they arrived; tasks with no key in
 * common run concurrently. A task takes all its keys at once, so two tasks cannot wait on each other.
 */
export class KeyedLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
    const before = keys.flatMap((k) => {
      const tail = this.tails.get(k);
      return tail ? [tail] : [];
    });
    let release: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const k of keys) this.tails.set(k, done);
    try {
      await Promise.all(before);
      return await task();
    } finally {
      release();
      for (const k of keys) if (this.tails.get(k) === done) this.tails.delete(k);
    }
  }
}
