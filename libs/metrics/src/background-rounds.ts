import { Histogram, type Registry } from 'prom-client';

/** What a background loop reports of each round: how late it began, how long it ran. */
export type RoundObserver = (round: { lateMs: number; durationMs: number }) => void;

const BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * The lateness and duration of background rounds (the session worker, the notification
 * dispatcher): a loop whose rounds start late is starved (a busy event loop, a slow database,
 * a round that overran), which the event loop delay alone does not show.
 */
export function backgroundRounds(registry: Registry): (loop: string) => RoundObserver {
  const lateness = new Histogram({
    name: 'background_round_lateness_seconds',
    help: 'How long after its scheduled time a background round began',
    labelNames: ['loop'],
    buckets: BUCKETS,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'background_round_duration_seconds',
    help: 'How long a background round ran',
    labelNames: ['loop'],
    buckets: BUCKETS,
    registers: [registry],
  });
  return (loop) =>
    ({ lateMs, durationMs }) => {
      lateness.observe({ loop }, Math.max(0, lateMs) / 1000);
      duration.observe({ loop }, durationMs / 1000);
    };
}
