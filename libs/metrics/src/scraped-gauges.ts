import type { FastifyBaseLogger } from 'fastify';
import { Gauge, type Registry } from 'prom-client';

export interface ScrapedGaugesOptions<Row, L extends string> {
  registry: Registry;
  log: FastifyBaseLogger;
  /** The rows, read at each scrape (one cheap query). */
  read: () => Promise<Row[]>;
  labelNames: readonly L[];
  labels: (row: Row) => Record<L, string>;
  gauges: { name: string; help: string; value: (row: Row) => number }[];
}

/**
 * Gauges filled from the database at each scrape. The registry collects its metrics side by
 * side, so the gauges share one read while it runs; a failed read leaves them empty for that
 * scrape (logged), and /metrics still answers with everything else while the database is away.
 */
export function scrapedGauges<Row, L extends string>(options: ScrapedGaugesOptions<Row, L>) {
  let pending: Promise<Row[]> | null = null;
  const read = () =>
    (pending ??= options.read().finally(() => {
      pending = null;
    }));
  for (const { name, help, value } of options.gauges) {
    new Gauge<L>({
      name,
      help,
      labelNames: options.labelNames,
      registers: [options.registry],
      async collect() {
        this.reset();
        try {
          for (const row of await read()) this.set(options.labels(row), value(row));
        } catch (error) {
          options.log.warn({ err: error, metric: name }, 'metric collection failed');
        }
      },
    });
  }
}
