import { formatBytes, formatProgress, progressPrinter } from './progress';

const url = 'https://example.com/reg/1.0/list.json';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1.0 kB'],
    [12_345, '12.3 kB'],
    [5_242_880, '5.2 MB'],
  ])('writes %i as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('formatProgress', () => {
  it('describes a fetch starting, running with and without a known size, and done', () => {
    expect(formatProgress({ url, received: 0, total: null, done: false })).toBe(
      `fetching ${url} ...`,
    );
    expect(formatProgress({ url, received: 12_300, total: 20_000, done: false })).toBe(
      `fetching ${url}  12.3 kB of 20.0 kB (61%)`,
    );
    expect(formatProgress({ url, received: 12_300, total: null, done: false })).toBe(
      `fetching ${url}  12.3 kB`,
    );
    expect(formatProgress({ url, received: 20_000, total: 20_000, done: true })).toBe(
      `fetched  ${url}  20.0 kB`,
    );
  });
});

describe('progressPrinter', () => {
  const events = [
    { url, received: 0, total: 2000, done: false },
    { url, received: 1000, total: 2000, done: false },
    { url, received: 2000, total: 2000, done: true },
  ];

  it('rewrites one line in place on a terminal', () => {
    const written: string[] = [];
    const print = progressPrinter({ isTTY: true, write: (s: string) => written.push(s) });
    events.forEach(print);
    expect(written).toHaveLength(3);
    for (const line of written) expect(line.startsWith('\r\x1b[K')).toBe(true);
    expect(written[2].endsWith('\n')).toBe(true);
  });

  it('prints only finished fetches elsewhere', () => {
    const written: string[] = [];
    events.forEach(progressPrinter({ write: (s: string) => written.push(s) }));
    expect(written).toEqual([`fetched  ${url}  2.0 kB\n`]);
  });
});
