import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A registry of its own for one app instance, with Node's process metrics (CPU, memory, event
 * loop delay, GC). Never prom-client's global one: tests build many apps in one process.
 */
export function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
