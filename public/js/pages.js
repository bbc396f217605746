/**
 * Reading lists that the relay pages by `nextCursor` (docs/api.md, "Lists"). Pure: unit-tested in Node.
 */

/**
 * The first `count` pages of a list paged by `nextCursor` (docs/api.md, "Lists"), their items in order: a
 * view read again on a timer reads as many pages as its reader has opened with More. `last` is the last
 * page read, for what a list says beside its items.
 *
 * @template T, P
 * @param {(cursor: string | null) => Promise<P & {items: T[], nextCursor: string | null}>} read
 * @param {number} count
 * @returns {Promise<{items: T[], nextCursor: string | null, last: P & {items: T[], nextCursor: string | null}}>}
 */
export async function readPages(read, count) {
  const items = [];
  let last = await read(null);
  items.push(...last.items);
  for (let pages = 1; pages < count && last.nextCursor !== null; pages++) {
    last = await read(last.nextCursor);
    items.push(...last.items);
  }
  return { items, nextCursor: last.nextCursor, last };
}
