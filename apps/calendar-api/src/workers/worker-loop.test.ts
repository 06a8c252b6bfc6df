import Fastify from 'fastify';
import { createWorkerLoop } from './worker-loop';

const log = Fastify().log;
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createWorkerLoop', () => {
  it('runs again at once while there is work, then waits the interval', async () => {
    const work = [3, 2, 0, 0];
    const rounds: number[] = [];
    const loop = createWorkerLoop({
      intervalMs: 10_000,
      log,
      runOnce: async () => {
        const n = work.shift() ?? 0;
        rounds.push(n);
        return n;
      },
    });
    loop.start();
    await tick(50);
    expect(rounds).toEqual([3, 2, 0]);
    loop.wake();
    await tick(20);
    expect(rounds).toEqual([3, 2, 0, 0]);
    await loop.stop();
  });

  it('stops after the round in progress has finished', async () => {
    let finished = false;
    const loop = createWorkerLoop({
      intervalMs: 10,
      log,
      runOnce: async () => {
        await tick(50);
        finished = true;
        return 1;
      },
    });
    loop.start();
    await tick(10);
    await loop.stop();
    expect(finished).toBe(true);
  });

  it('keeps going after a failing round', async () => {
    let calls = 0;
    const loop = createWorkerLoop({
      intervalMs: 5,
      log,
      runOnce: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
        return 0;
      },
    });
    loop.start();
    await tick(60);
    await loop.stop();
    expect(calls).toBeGreaterThan(2);
  });

  it('can be started again after a stop', async () => {
    let calls = 0;
    const loop = createWorkerLoop({ intervalMs: 10_000, log, runOnce: async () => ++calls && 0 });
    loop.start();
    await tick(10);
    await loop.stop();
    loop.start();
    await tick(10);
    await loop.stop();
    expect(calls).toBe(2);
  });
});
