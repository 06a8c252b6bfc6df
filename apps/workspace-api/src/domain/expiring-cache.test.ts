import { createExpiringCache } from './expiring-cache';

// lru-cache takes a start time of 0 for "no time to live": a clock starts later than that.
const START = 1_000_000;

function cacheAt(maxEntries: number) {
  let time = START;
  const cache = createExpiringCache<string, number>({ ttlMs: 1000, maxEntries, now: () => time });
  return { cache, advance: (ms: number) => (time += ms) };
}

describe('createExpiringCache', () => {
  it('answers a value while it is fresh and forgets it once its time is up', () => {
    const { cache, advance } = cacheAt(10);
    cache.set('a', 1);
    advance(1000);
    expect(cache.get('a')).toBe(1);
    advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never holds more than maxEntries, however many distinct keys arrive', () => {
    const { cache } = cacheAt(100);
    for (let i = 0; i < 20_000; i += 1) cache.set(`id-${i}`, i);
    expect(cache.size).toBe(100);
    expect(cache.get('id-19999')).toBe(19_999);
    expect(cache.get('id-0')).toBeUndefined();
  });

  it('makes room by dropping the least recently used entry', () => {
    const { cache } = cacheAt(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([
      1,
      undefined,
      3,
      4,
    ]);
  });

  it('remembers a null answer, told apart from a miss, until its time is up', () => {
    let time = START;
    const cache = createExpiringCache<string, string | null>({
      ttlMs: 1000,
      maxEntries: 10,
      now: () => time,
    });
    cache.set('nobody', null);
    expect(cache.get('nobody')).toBeNull();
    expect(cache.get('unknown')).toBeUndefined();
    time += 1001;
    expect(cache.get('nobody')).toBeUndefined();
  });

  it('deleteWhere drops every entry whose value matches, and only those', () => {
    const { cache } = cacheAt(10);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.deleteWhere((value) => value % 2 === 1);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([
      undefined,
      2,
      undefined,
      1,
    ]);
  });

  it('renews an entry set again, and delete forgets it', () => {
    const { cache, advance } = cacheAt(10);
    cache.set('a', 1);
    advance(800);
    cache.set('a', 2);
    advance(800);
    expect(cache.get('a')).toBe(2);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
  });
});
