/**
 * One key of an object's synchronous key-value storage, read once and then kept in memory beside it: the
 * object is the only writer of its storage, so what it wrote last is what the key holds. A read on every
 * quote or submission then costs nothing (docs/architecture.md, "Alarms").
 */
export class KeptValue<T> {
  private value: T | null;

  constructor(
    private readonly kv: SyncKvStorage,
    private readonly key: string,
  ) {
    this.value = kv.get<T>(key) ?? null;
  }

  get(): T | null {
    return this.value;
  }

  set(value: T): void {
    this.kv.put(this.key, value);
    this.value = value;
  }

  /** Deletes the key; nothing is written when it holds nothing already. */
  clear(): void {
    if (this.value === null) return;
    this.kv.delete(this.key);
    this.value = null;
  }
}
