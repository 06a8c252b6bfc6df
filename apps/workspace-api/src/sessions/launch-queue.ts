import { LaunchQueueFullError } from '../errors';

export interface LaunchQueueLimits {
  /** Launches whose database work (staged claim or reservation) runs at once in this process. */
  concurrency: number;
  /** Launches that may wait for their turn; one more is refused at once. */
  maxWaiting: number;
  /** How long a launch may wait for its turn; then it is refused. */
  maxWaitMs: number;
}

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Launches take their turn here before touching the database. Each turn holds a pool connection
 * and, onto a busy agent, waits for that agent's lock; a burst larger than the pool used to wait
 * for connections and locks past DATABASE_TIMEOUT_MS and fail with 503 UNAVAILABLE. Waiting here
 * holds neither, in arrival order, bounded in length and time: only past those bounds is a launch
 * refused, with LAUNCH_QUEUE_FULL (503, retryable).
 */
export function createLaunchQueue(limits: LaunchQueueLimits) {
  let running = 0;
  const waiting: Waiter[] = [];

  function startNext() {
    while (running < limits.concurrency && waiting.length > 0) {
      const next = waiting.shift() as Waiter;
      clearTimeout(next.timer);
      running += 1;
      next.start();
    }
  }

  function turn(): Promise<void> {
    if (running < limits.concurrency && waiting.length === 0) {
      running += 1;
      return Promise.resolve();
    }
    if (waiting.length >= limits.maxWaiting) {
      return Promise.reject(
        new LaunchQueueFullError(
          `${waiting.length} launches are waiting already (LAUNCH_QUEUE_MAX); try again shortly`,
        ),
      );
    }
    return new Promise<void>((start, refuse) => {
      const waiter: Waiter = {
        start,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          refuse(
            new LaunchQueueFullError(
              `The launch waited ${limits.maxWaitMs / 1000} s for its turn (LAUNCH_QUEUE_WAIT_SECONDS); try again shortly`,
            ),
          );
        }, limits.maxWaitMs),
      };
      waiting.push(waiter);
    });
  }

  return {
    /** Runs `work` in its turn: at once when a turn is free, else after the launches before it. */
    async run<T>(work: () => Promise<T>): Promise<T> {
      await turn();
      try {
        return await work();
      } finally {
        running -= 1;
        startNext();
      }
    },
    /** Launches waiting for their turn now. */
    waiting: () => waiting.length,
  };
}
export type LaunchQueue = ReturnType<typeof createLaunchQueue>;
