import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { bufferedDestination } from './request-log';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'request-log-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Reads `file` until `done` holds for its text, for at most `limitMs`. */
async function readUntil(file: string, done: (text: string) => boolean, limitMs = 30_000) {
  const end = Date.now() + limitMs;
  for (;;) {
    const text = await readFile(file, 'utf8');
    if (done(text) || Date.now() > end) return text;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('bufferedDestination', () => {
  it('holds a short line in memory, then writes it within the flush interval', async () => {
    const file = path.join(dir, 'quiet.log');
    const destination = bufferedDestination(openSync(file, 'w'));
    pino(destination).info('only line');
    // Buffered: nothing is written at the moment of logging.
    expect(await readFile(file, 'utf8')).toBe('');
    const text = await readUntil(file, (t) => t.includes('only line'));
    expect(text).toContain('"msg":"only line"');
    destination.end();
  });

  it('writes as soon as 8 KiB are buffered, every line whole and in order', async () => {
    const file = path.join(dir, 'busy.log');
    const destination = bufferedDestination(openSync(file, 'w'));
    const log = pino(destination);
    // Text beyond ASCII, so that a line's bytes and its characters differ in number.
    for (let n = 0; n < 200; n++) log.info({ n, name: 'Zoë 🙂' }, 'line');
    const read = await readUntil(file, (t) => t.split('\n').length > 100);
    // A write still under way may be seen in part: only what ends in a newline was written.
    const text = read.slice(0, read.lastIndexOf('\n') + 1);
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { n: number; name: string });
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.map((line) => line.n)).toEqual([...Array(lines.length).keys()]);
    expect(new Set(lines.map((line) => line.name))).toEqual(new Set(['Zoë 🙂']));
    destination.end();
  });

  it('stops flushing once destroyed, even before its close arrives', () => {
    // The interval is driven by hand, so that it fires in the window between destroy and close.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const destination = bufferedDestination(openSync(path.join(dir, 'destroyed.log'), 'w'));
      destination.destroy();
      expect(() => jest.advanceTimersByTime(5_000)).not.toThrow();
    } finally {
      jest.useRealTimers();
    }
  });

  it('writes what is buffered when flushed synchronously, as pino does at exit', async () => {
    const file = path.join(dir, 'exit.log');
    const destination = bufferedDestination(openSync(file, 'w'));
    pino(destination).info('last words');
    destination.flushSync();
    expect(await readFile(file, 'utf8')).toContain('"msg":"last words"');
    destination.end();
  });
});
