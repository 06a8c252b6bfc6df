// Extraction alone, in this process: the calendar-api's pure extraction module, bundled from
// source with esbuild, timed on a long message after a warm-up.
import path from 'node:path';
import { bundle } from './bundle.mjs';
import { APPS_ROOT } from './paths.mjs';
import { longMessage } from './messages.mjs';

export async function measureExtraction({ lines = 500, iterations = 300, warmup = 50 } = {}) {
  /** @type {typeof import('../../apps/calendar-api/src/extraction/index.ts')} */
  const { extractEvents } = await bundle(
    path.join(APPS_ROOT, 'apps/calendar-api/src/extraction/index.ts'),
    'extraction',
  );
  const messages = Array.from({ length: 20 }, (_, i) => longMessage(lines, i * 40));
  const run = (/** @type {number} */ i) =>
    extractEvents({
      text: messages[i % messages.length],
      referenceDate: '2025-01-06',
      period: null,
    });
  for (let i = 0; i < warmup; i++) run(i);
  /** @type {number[]} */
  const times = [];
  let events = 0;
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    events += run(i).events.length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
    p50Ms: times[Math.floor(times.length / 2)],
    p99Ms: times[Math.ceil(times.length * 0.99) - 1],
    eventsPerMessage: events / iterations,
  };
}
