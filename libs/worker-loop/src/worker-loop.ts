import type { FastifyBaseLogger } from 'fastify';
import type { RoundObserver } from '@platform/metrics';

export interface WorkerLoop {
  start(): void;
  /** Resolves once the round in progress, if any, has finished; no new one starts. */
  stop(): Promise<void>;
  /**
   * There is work now: ends the idle wait, or, when it comes during a round, has another round
   * run right after that one. A wake is never lost.
   */
  wake(): void;
}

/**
 * Runs `runOnce` over and over: again at once while it finds work (it answers how many items it
 * handled), after `intervalMs` when it found none or failed. A failing round is logged and the
 * loop goes on: the database may be back by the next one.
 */
export function createWorkerLoop(options: {
  intervalMs: number;
  runOnce: () => Promise<number>;
  log: FastifyBaseLogger;
  /** Told of each round: how late after its idle wait's end it began, how long it ran. */
  rounds?: RoundObserver;
}): WorkerLoop {
  let running = false;
  let current: Promise<void> | null = null;
  let endWait: (() => void) | null = null;
  // Set by wake(), cleared as a round starts: a wake during a round means work it may have missed.
  let woken = false;
  // When the round about to run was due: the end of an idle wait that timed out; otherwise now.
  let due: number | null = null;

  const idle = () =>
    new Promise<void>((resolve) => {
      const scheduled = Date.now() + options.intervalMs;
      const timer = setTimeout(() => {
        due = scheduled;
        done();
      }, options.intervalMs);
      timer.unref();
      function done() {
        clearTimeout(timer);
        endWait = null;
        resolve();
      }
      endWait = done;
    });

  async function loop() {
    while (running) {
      woken = false;
      const began = Date.now();
      const lateMs = began - (due ?? began);
      due = null;
      let handled = 0;
      try {
        handled = await options.runOnce();
      } catch (error) {
        options.log.error({ err: error }, 'worker round failed');
      }
      options.rounds?.({ lateMs, durationMs: Date.now() - began });
      if (running && handled === 0 && !woken) await idle();
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      const previous = current ?? Promise.resolve();
      current = previous.then(loop);
    },
    async stop() {
      running = false;
      endWait?.();
      await current;
      current = null;
    },
    wake() {
      woken = true;
      endWait?.();
    },
  };
}
