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

/** A launch's place in the queue. */
export interface QueuePlace {
  /** Its number in this process's queue: a later launch has a higher one. */
  number: number;
  /** Settles when the launch may start its database work; rejects past the wait bound. */
  turn: Promise<void>;
  /** True when the turn came within `ms` (or at once), false when it is still waited for. */
  within(ms: number): Promise<boolean>;
  /** Gives the place up: the turn once it came, or the wait before (idempotent). */
  leave(): void;
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
  let numbered = 0;
  const waiting: Waiter[] = [];

  function startNext() {
    while (running < limits.concurrency && waiting.length > 0) {
      const next = waiting.shift() as Waiter;
      clearTimeout(next.timer);
      running += 1;
      next.start();
    }
  }

  function remove(waiter: Waiter) {
    const at = waiting.indexOf(waiter);
    if (at >= 0) waiting.splice(at, 1);
    clearTimeout(waiter.timer);
  }

  /** A place in the queue; LAUNCH_QUEUE_FULL at once when LAUNCH_QUEUE_MAX wait already. */
  function enter(): QueuePlace {
    const number = ++numbered;
    let state: 'waiting' | 'started' | 'left' = 'waiting';
    let waiter: Waiter | undefined;
    const started = () => void (state = state === 'left' ? state : 'started');
    let turn: Promise<void>;
    if (running < limits.concurrency && waiting.length === 0) {
      running += 1;
      started();
      turn = Promise.resolve();
    } else if (waiting.length >= limits.maxWaiting) {
      throw new LaunchQueueFullError(
        `${waiting.length} launches are waiting already (LAUNCH_QUEUE_MAX); try again shortly`,
      );
    } else {
      turn = new Promise<void>((start, refuse) => {
        const mine: Waiter = {
          start: () => {
            started();
            start();
          },
          timer: setTimeout(() => {
            remove(mine);
            state = 'left';
            refuse(
              new LaunchQueueFullError(
                `The launch waited ${limits.maxWaitMs / 1000} s for its turn (LAUNCH_QUEUE_WAIT_SECONDS); try again shortly`,
              ),
            );
          }, limits.maxWaitMs),
        };
        waiter = mine;
        waiting.push(mine);
      });
    }
    return {
      number,
      turn,
      within: (ms) => {
        let timer: NodeJS.Timeout | undefined;
        const moment = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), ms);
        });
        return Promise.race([turn.then(() => true), moment]).finally(() => clearTimeout(timer));
      },
      leave: () => {
        if (state === 'started') {
          running -= 1;
          startNext();
        } else if (state === 'waiting' && waiter) {
          remove(waiter);
        }
        state = 'left';
      },
    };
  }

  return {
    enter,
    /** Runs `work` in its turn: at once when a turn is free, else after the launches before it. */
    async run<T>(work: () => Promise<T>): Promise<T> {
      const place = enter();
      await place.turn;
      try {
        return await work();
      } finally {
        place.leave();
      }
    },
    /** Launches waiting for their turn now. */
    waiting: () => waiting.length,
  };
}
export type LaunchQueue = ReturnType<typeof createLaunchQueue>;
