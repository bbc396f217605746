/** One entry's end: what ends (`id`) and when (ms). */
export interface End {
  id: string;
  until: number;
}

/** A binary min-heap of ends by `until`: what ends soonest is on top, found in O(1) and taken in O(log n). */
export class EndHeap {
  private items: End[] = [];

  size(): number {
    return this.items.length;
  }

  peek(): End | undefined {
    return this.items[0];
  }

  push(item: End): void {
    const { items } = this;
    items.push(item);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      const above = items[parent] as End;
      if (above.until <= item.until) break;
      items[i] = above;
      items[parent] = item;
      i = parent;
    }
  }

  pop(): End | undefined {
    const { items } = this;
    const top = items[0];
    const last = items.pop();
    if (!last || items.length === 0) return top;
    items[0] = last;
    for (let i = 0; ; ) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let least = i;
      if (l < items.length && (items[l] as End).until < (items[least] as End).until) least = l;
      if (r < items.length && (items[r] as End).until < (items[least] as End).until) least = r;
      if (least === i) return top;
      [items[i], items[least]] = [items[least] as End, items[i] as End];
      i = least;
    }
  }

  /** Replaces the entries with these. */
  rebuild(items: readonly End[]): void {
    this.items = [];
    for (const item of items) this.push(item);
  }
}
