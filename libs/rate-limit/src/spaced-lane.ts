import { createError, withRetryAfter } from '@platform/errors';
import { TooManyRequestsError } from './failure-throttle';

/** The client closed its connection before its turn; nobody receives the answer. */
export const ClientGoneError = createError(
  'CLIENT_CLOSED_REQUEST',
  'The client closed the connection before the answer',
  499,
);

interface Waiter {
  address: string;
  run: () => void;
  refuse: (error: Error) => void;
}
interface Lane {
  waiting: Waiter[];
  /** Addresses with an attempt waiting or running. */
  addresses: Set<string>;
  busy: boolean;
  /** When the next attempt may start. */
  nextAt: number;
  timer?: NodeJS.Timeout;
}

export interface SpacedLanes {
  /**
   * Runs `attempt` in `identity`'s lane: one attempt at a time, each starting at least
   * `intervalMs` after the one before, in order of arrival. One address has at most one attempt
   * waiting or running in a lane (a second is refused with 429), so a client is never more places
   * behind than there are other addresses waiting. An attempt whose `signal` aborts leaves unrun.
   */
  enter<T>(
    identity: string,
    address: string,
    attempt: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T>;
  /** Refuses everything waiting (the service is closing). */
  close(): void;
}

export function createSpacedLanes(intervalMs: number): SpacedLanes {
  const lanes = new Map<string, Lane>();

  function pump(identity: string, lane: Lane) {
    clearTimeout(lane.timer);
    lane.timer = undefined;
    if (lane.busy) return;
    const wait = lane.nextAt - Date.now();
    if (lane.waiting.length === 0) {
      // Kept only while it still spaces the next attempt.
      if (wait <= 0) lanes.delete(identity);
      else lane.timer = setTimeout(() => pump(identity, lane), wait).unref();
      return;
    }
    if (wait > 0) {
      lane.timer = setTimeout(() => pump(identity, lane), wait);
      return;
    }
    const waiter = lane.waiting.shift() as Waiter;
    lane.busy = true;
    lane.nextAt = Date.now() + intervalMs;
    waiter.run();
  }

  return {
    enter(identity, address, attempt, signal) {
      if (signal?.aborted) return Promise.reject(new ClientGoneError());
      let lane = lanes.get(identity);
      if (!lane)
        lanes.set(identity, (lane = { waiting: [], addresses: new Set(), busy: false, nextAt: 0 }));
      const current = lane;
      if (current.addresses.has(address)) {
        const seconds = Math.max(1, Math.ceil((current.waiting.length * intervalMs) / 1000));
        return Promise.reject(
          withRetryAfter(
            new TooManyRequestsError(
              `An attempt from this address is waiting its turn already; try again in ${seconds} s`,
            ),
            seconds,
          ),
        );
      }
      return new Promise((resolve, reject) => {
        const leave = () => {
          const at = current.waiting.indexOf(waiter);
          if (at === -1) return;
          current.waiting.splice(at, 1);
          current.addresses.delete(address);
          reject(new ClientGoneError());
          pump(identity, current);
        };
        const waiter: Waiter = {
          address,
          refuse: reject,
          run: () => {
            signal?.removeEventListener('abort', leave);
            attempt()
              .then(resolve, reject)
              .finally(() => {
                current.busy = false;
                current.addresses.delete(address);
                pump(identity, current);
              });
          },
        };
        signal?.addEventListener('abort', leave, { once: true });
        current.waiting.push(waiter);
        current.addresses.add(address);
        pump(identity, current);
      });
    },
    close() {
      for (const lane of lanes.values()) {
        clearTimeout(lane.timer);
        for (const waiter of lane.waiting.splice(0)) waiter.refuse(new ClientGoneError());
      }
      lanes.clear();
    },
  };
}
