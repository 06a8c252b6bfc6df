import Fastify from 'fastify';
import { waitFor } from '@platform/testing';
import { createWorkerLoop } from './worker-loop';

const eventually = (check: () => void) => waitFor(async () => check(), 30_000, 20);

const log = Fastify().log;
/** Far longer than any test may wait: a round that runs proves it did not wait for the timer. */
const NEVER_MS = 3_600_000;

/** A promise to hold a round on, opened by hand. */
function createGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('createWorkerLoop', () => {
  it('runs again at once while there is work, then waits the interval', async () => {
    const work = [3, 2, 0, 0];
    const rounds: number[] = [];
    const loop = createWorkerLoop({
      intervalMs: NEVER_MS,
      log,
      runOnce: async () => {
        const n = work.shift() ?? 0;
        rounds.push(n);
        return n;
      },
    });
    loop.start();
    await eventually(() => expect(rounds).toEqual([3, 2, 0]));
    loop.wake();
    await eventually(() => expect(rounds).toEqual([3, 2, 0, 0]));
    await loop.stop();
    expect(rounds).toEqual([3, 2, 0, 0]);
  });

  it('runs another round right after the current one when woken during it', async () => {
    const gate = createGate();
    let rounds = 0;
    const loop = createWorkerLoop({
      intervalMs: NEVER_MS,
      log,
      runOnce: async () => {
        rounds += 1;
        if (rounds === 1) await gate.opened;
        return 0;
      },
    });
    loop.start();
    await eventually(() => expect(rounds).toBe(1));
    // The work arrives while the first round is busy elsewhere: it must not wait an interval.
    loop.wake();
    gate.open();
    await eventually(() => expect(rounds).toBe(2));
    await loop.stop();
    expect(rounds).toBe(2);
  }, 60_000);

  it('stops after the round in progress has finished', async () => {
    const gate = createGate();
    let started = false;
    let finished = false;
    const loop = createWorkerLoop({
      intervalMs: 10,
      log,
      runOnce: async () => {
        started = true;
        await gate.opened;
        finished = true;
        return 1;
      },
    });
    loop.start();
    await eventually(() => expect(started).toBe(true));
    const stopped = loop.stop();
    gate.open();
    await stopped;
    expect(finished).toBe(true);
  });

  it('keeps going after a failing round', async () => {
    let calls = 0;
    const loop = createWorkerLoop({
      intervalMs: 10,
      log,
      runOnce: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
        return 0;
      },
    });
    loop.start();
    await eventually(() => expect(calls).toBeGreaterThan(2));
    await loop.stop();
  });

  it('can be started again after a stop', async () => {
    let calls = 0;
    const loop = createWorkerLoop({ intervalMs: NEVER_MS, log, runOnce: async () => ++calls && 0 });
    loop.start();
    await eventually(() => expect(calls).toBe(1));
    await loop.stop();
    loop.start();
    await eventually(() => expect(calls).toBe(2));
    await loop.stop();
    expect(calls).toBe(2);
  });
});
