import { createExpiringCache } from './expiring-cache';

function cacheAt(maxEntries: number) {
  let time = 0;
  const cache = createExpiringCache<string, number>({ ttlMs: 1000, maxEntries, now: () => time });
  return { cache, advance: (ms: number) => (time += ms) };
}

describe('createExpiringCache', () => {
  it('answers a value while it is fresh and forgets it once its time is up', () => {
    const { cache, advance } = cacheAt(10);
    cache.set('a', 1);
    advance(999);
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

  it('makes room by dropping expired entries before live ones, then the oldest', () => {
    const { cache, advance } = cacheAt(3);
    cache.set('old', 1);
    advance(600);
    cache.set('a', 2);
    cache.set('b', 3);
    advance(500);
    cache.set('c', 4);
    expect([cache.get('old'), cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([
      undefined,
      2,
      3,
      4,
    ]);
    cache.set('d', 5);
    expect([cache.get('a'), cache.get('b'), cache.get('d')]).toEqual([undefined, 3, 5]);
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
