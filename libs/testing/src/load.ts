export interface Outcome {
  status: number;
}

export interface LoadReport {
  requests: number;
  byStatus: Record<string, number>;
  /** Failures without an HTTP answer, by error code. */
  errors: Record<string, number>;
  maxLatencyMs: number;
  p99LatencyMs: number;
}

/**
 * Runs `request` from `concurrency` workers until `stop()` says so, and counts what came back.
 * `request` gets a unique sequence number, for a ledger of what was acknowledged.
 */
export async function runLoad(options: {
  concurrency: number;
  stop: () => boolean;
  request: (sequence: number) => Promise<Outcome>;
}): Promise<LoadReport> {
  const report: LoadReport = {
    requests: 0,
    byStatus: {},
    errors: {},
    maxLatencyMs: 0,
    p99LatencyMs: 0,
  };
  const latencies: number[] = [];
  let sequence = 0;
  const worker = async () => {
    while (!options.stop()) {
      const started = performance.now();
      try {
        const { status } = await options.request(sequence++);
        report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        const code = cause ?? (error as { code?: string }).code ?? (error as Error).name;
        report.errors[code] = (report.errors[code] ?? 0) + 1;
      }
      report.requests += 1;
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  latencies.sort((a, b) => a - b);
  report.maxLatencyMs = Math.round(latencies[latencies.length - 1] ?? 0);
  report.p99LatencyMs = Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0);
  return report;
}

export const formatCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([key, n]) => `${key}×${n}`)
    .join(' ') || 'none';

/** Resolves when `check` passes, polling; rejects with its last error after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T>,
  timeoutMs: number,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
