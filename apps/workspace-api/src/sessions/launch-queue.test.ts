import { createLaunchQueue } from './launch-queue';

/** Work that runs until `finish` is called; `started` says whether its turn came. */
function held() {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const work = {
    started: false,
    finish: () => finish(),
    run: async () => {
      work.started = true;
      await done;
    },
  };
  return work;
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the launch queue', () => {
  it('runs up to its concurrency at once and starts the waiting ones in arrival order', async () => {
    const queue = createLaunchQueue({ concurrency: 2, maxWaiting: 10, maxWaitMs: 60_000 });
    const works = Array.from({ length: 5 }, held);
    const runs = works.map((w) => queue.run(w.run));
    await settle();
    expect(works.map((w) => w.started)).toEqual([true, true, false, false, false]);
    expect(queue.waiting()).toBe(3);
    works[1].finish();
    await settle();
    expect(works.map((w) => w.started)).toEqual([true, true, true, false, false]);
    works[0].finish();
    await settle();
    expect(works.map((w) => w.started)).toEqual([true, true, true, true, false]);
    for (const w of works) w.finish();
    await Promise.all(runs);
    expect(queue.waiting()).toBe(0);
  });

  it('frees the turn of work that failed', async () => {
    const queue = createLaunchQueue({ concurrency: 1, maxWaiting: 10, maxWaitMs: 60_000 });
    await expect(queue.run(() => Promise.reject(new Error('placement failed')))).rejects.toThrow(
      'placement failed',
    );
    await expect(queue.run(async () => 'next')).resolves.toBe('next');
  });

  it('refuses one more than LAUNCH_QUEUE_MAX waiting with LAUNCH_QUEUE_FULL (503)', async () => {
    const queue = createLaunchQueue({ concurrency: 1, maxWaiting: 1, maxWaitMs: 60_000 });
    const first = held();
    const second = held();
    const runs = [queue.run(first.run), queue.run(second.run)];
    await expect(queue.run(async () => 'third')).rejects.toMatchObject({
      code: 'LAUNCH_QUEUE_FULL',
      statusCode: 503,
    });
    first.finish();
    second.finish();
    await Promise.all(runs);
  });

  it('refuses a launch that waited past LAUNCH_QUEUE_WAIT_SECONDS, and runs the rest', async () => {
    const queue = createLaunchQueue({ concurrency: 1, maxWaiting: 10, maxWaitMs: 50 });
    const first = held();
    const running = queue.run(first.run);
    await expect(queue.run(async () => 'late')).rejects.toMatchObject({
      code: 'LAUNCH_QUEUE_FULL',
      message: expect.stringContaining('waited 0.05 s'),
    });
    expect(queue.waiting()).toBe(0);
    first.finish();
    await running;
    await expect(queue.run(async () => 'after')).resolves.toBe('after');
  });

  it('numbers places in arrival order and tells whether a turn came within a moment', async () => {
    const queue = createLaunchQueue({ concurrency: 1, maxWaiting: 10, maxWaitMs: 60_000 });
    const first = queue.enter();
    const second = queue.enter();
    expect(second.number).toBeGreaterThan(first.number);
    await expect(first.within(0)).resolves.toBe(true);
    await expect(second.within(20)).resolves.toBe(false);
    first.leave();
    await expect(second.within(60_000)).resolves.toBe(true);
    second.leave();
    second.leave();
    await expect(queue.run(async () => 'free')).resolves.toBe('free');
  });

  it('frees the place of a launch that leaves before its turn', async () => {
    const queue = createLaunchQueue({ concurrency: 1, maxWaiting: 10, maxWaitMs: 60_000 });
    const first = queue.enter();
    const gone = queue.enter();
    const third = queue.enter();
    gone.leave();
    expect(queue.waiting()).toBe(1);
    first.leave();
    await expect(third.within(60_000)).resolves.toBe(true);
    third.leave();
  });
});
