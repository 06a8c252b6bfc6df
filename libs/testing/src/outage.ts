import type { ControlledPostgres } from './controlled-postgres';
import { formatCounts } from './load';

export interface Write {
  status: number;
  /** What the write stored, to look for afterwards when it was acknowledged. */
  key: string;
}

export interface OutageOptions {
  pg: ControlledPostgres;
  /** http://127.0.0.1:<port> of the running app. */
  baseUrl: string;
  concurrency: number;
  write: (sequence: number) => Promise<Write>;
  /** Load before the first outage, length of each outage, load after each return. */
  phaseMs: { before: number; outage: number; after: number };
  outages: number;
}

type Phase = 'before' | 'outage' | 'after';

export interface OutageReport {
  requests: number;
  byPhase: Record<Phase, Record<string, number>>;
  /** Failures without an HTTP answer (the process crashed, or a connection broke). */
  errors: Record<string, number>;
  /** The slowest answer while the database was away. */
  maxOutageLatencyMs: number;
  readyDuringOutage: Record<string, number>;
  readyAfter: Record<string, number>;
  /** Per outage: from the database answering again to the first acknowledged write. */
  recoveryMs: number[];
  acknowledged: string[];
}

// LONG_TESTS=1: three outages of 5 s in 40 s of load; otherwise one of 1.5 s in a few seconds.
const LONG = process.env.LONG_TESTS === '1';
export const OUTAGE_PLAN = {
  phaseMs: LONG
    ? { before: 5000, outage: 5000, after: 5000 }
    : { before: 800, outage: 1500, after: 800 },
  outages: LONG ? 3 : 1,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes through the app from `concurrency` clients while the database is stopped and started
 * `outages` times. Records every answer by phase, the readiness seen, how long service took to
 * come back, and the keys of every acknowledged (2xx) write, for the ledger check.
 */
export async function runOutage(options: OutageOptions): Promise<OutageReport> {
  const report: OutageReport = {
    requests: 0,
    byPhase: { before: {}, outage: {}, after: {} },
    errors: {},
    maxOutageLatencyMs: 0,
    readyDuringOutage: {},
    readyAfter: {},
    recoveryMs: [],
    acknowledged: [],
  };
  let phase: Phase = 'before';
  let done = false;
  let sequence = 0;
  let lastAcknowledgedAt = 0;

  const worker = async () => {
    while (!done) {
      const started = performance.now();
      const during = phase;
      try {
        const { status, key } = await options.write(sequence++);
        report.byPhase[during][status] = (report.byPhase[during][status] ?? 0) + 1;
        if (status >= 200 && status < 300) {
          report.acknowledged.push(key);
          lastAcknowledgedAt = performance.now();
        }
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
        report.errors[code] = (report.errors[code] ?? 0) + 1;
      }
      report.requests += 1;
      if (during === 'outage') {
        report.maxOutageLatencyMs = Math.max(
          report.maxOutageLatencyMs,
          Math.round(performance.now() - started),
        );
      }
      // While refused, a client backs off a little, as any sensible one does.
      if (during === 'outage') await sleep(20);
    }
  };

  const probeReady = async (into: Record<string, number>) => {
    const status = await fetch(`${options.baseUrl}/health/ready`).then(
      (r) => String(r.status),
      () => 'no answer',
    );
    into[status] = (into[status] ?? 0) + 1;
  };

  const workers = Promise.all(Array.from({ length: options.concurrency }, worker));
  try {
    const warm = Date.now() + 10_000;
    while (report.acknowledged.length === 0 && Date.now() < warm) await sleep(10);
    await sleep(options.phaseMs.before);
    for (let i = 0; i < options.outages; i += 1) {
      await options.pg.stop();
      phase = 'outage';
      const outageEnds = Date.now() + options.phaseMs.outage;
      while (Date.now() < outageEnds) {
        await probeReady(report.readyDuringOutage);
        await sleep(100);
      }
      phase = 'after';
      await options.pg.start();
      const back = performance.now();
      const deadline = Date.now() + 30_000;
      while (lastAcknowledgedAt < back && Date.now() < deadline) await sleep(10);
      report.recoveryMs.push(
        lastAcknowledgedAt >= back ? Math.round(lastAcknowledgedAt - back) : Infinity,
      );
      await sleep(options.phaseMs.after);
      await probeReady(report.readyAfter);
    }
  } finally {
    done = true;
    await workers;
  }
  return report;
}

export function formatOutage(report: OutageReport, outageMs: number): string {
  return [
    `${report.recoveryMs.length} database outage(s) of ${outageMs} ms under load: ${report.requests} requests`,
    `  before: ${formatCounts(report.byPhase.before)}`,
    `  during: ${formatCounts(report.byPhase.outage)} (slowest answer ${report.maxOutageLatencyMs} ms); /health/ready ${formatCounts(report.readyDuringOutage)}`,
    `  after:  ${formatCounts(report.byPhase.after)}; /health/ready ${formatCounts(report.readyAfter)}`,
    `  first acknowledged write after the database returned: ${report.recoveryMs.map((ms) => `${ms} ms`).join(', ')}`,
    `  errors without an answer: ${formatCounts(report.errors)}; acknowledged writes: ${report.acknowledged.length}`,
  ].join('\n');
}

export interface OutageExpectations {
  /** The status of an acknowledged write (200 or 201). */
  success: string;
  outages: number;
  /** The service's DATABASE_TIMEOUT_MS: no answer during an outage may take much longer. */
  timeoutMs: number;
  /** Every key the database holds after the run. */
  stored: Set<string>;
}

/**
 * The outage contract: only the success status and 503, fast failures while the database is
 * away, readiness that follows it, recovery within seconds, and no acknowledged write lost.
 */
export function expectOutageSurvived(report: OutageReport, expected: OutageExpectations): void {
  expect(report.errors).toEqual({});
  for (const phase of Object.values(report.byPhase)) {
    expect(Object.keys(phase).filter((s) => s !== expected.success && s !== '503')).toEqual([]);
  }
  expect(report.byPhase.outage['503']).toBeGreaterThan(0);
  // Bounded by the database timeout, with room for a loaded machine (CI runs beside a CPU hog).
  expect(report.maxOutageLatencyMs).toBeLessThan(expected.timeoutMs + 10_000);
  expect(Object.keys(report.readyDuringOutage)).toEqual(['503']);
  expect(report.readyAfter).toEqual({ 200: expected.outages });
  for (const ms of report.recoveryMs) expect(ms).toBeLessThan(30_000);
  expect(report.byPhase.after[expected.success]).toBeGreaterThan(0);
  expect(report.acknowledged.filter((key) => !expected.stored.has(key))).toEqual([]);
  expect(report.acknowledged.length).toBeGreaterThan(10);
}
