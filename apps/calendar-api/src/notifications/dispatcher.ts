import type { FastifyBaseLogger } from 'fastify';
import type { RoundObserver } from '@platform/metrics';
import { readTextPrefix, type OutboundFetch } from '@platform/outbound';
import type { Config } from '../config';
import type { Database } from '../db';
import { createWorkerLoop } from '@platform/worker-loop';
import { decideOutcome, parseRetryAfter, type Attempt } from './delivery-policy';
import { payloadFor } from './notification-payloads';
import {
  createNotificationsRepository,
  type ClaimedNotification,
  type Result,
} from './notifications.repository';
import type { WebhookTarget } from '../domain';

/** How a delivery attempt ended: delivered, to be tried again, or failed for good. */
export type DeliveryOutcome = 'delivered' | 'retried' | 'failed';

const BATCH_SIZE = 10;
/** Enough of a failed answer to say what went wrong; a target may send far more. */
const ERROR_BODY_BYTES = 2048;

/**
 * Delivers the outbox at least once to every configured target. Safe with several replicas:
 * rows are claimed with row locks and a lease in the database, never with a process-local flag.
 */
export function createDispatcher({
  db,
  config,
  targets,
  fetch,
  log,
  observe,
}: {
  db: Database;
  config: Config;
  targets: WebhookTarget[];
  /** Outbound HTTP that checks where it connects (see createOutboundFetch). */
  fetch: OutboundFetch;
  log: FastifyBaseLogger;
  /** Told of each attempt's outcome and of each round (the metrics). */
  observe?: { attempt: (target: string, outcome: DeliveryOutcome) => void; rounds: RoundObserver };
}) {
  const repository = createNotificationsRepository(db);
  const byName = new Map(targets.map((target) => [target.name, target]));
  const policy = {
    maxAttempts: config.NOTIFY_MAX_ATTEMPTS,
    baseMs: config.NOTIFY_BACKOFF_BASE_MS,
    maxMs: config.NOTIFY_BACKOFF_MAX_MS,
  };
  let stopping = new AbortController();

  async function post(target: WebhookTarget, row: ClaimedNotification) {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-notification-id': String(row.id) },
      body: JSON.stringify(payloadFor(target.format, row.content)),
      signal: AbortSignal.any([AbortSignal.timeout(config.NOTIFY_TIMEOUT_MS), stopping.signal]),
    });
    // Reading the body also frees the connection; its start says what went wrong.
    const text = await readTextPrefix(response, ERROR_BODY_BYTES);
    const attempt: Attempt = {
      kind: 'response',
      status: response.status,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), Date.now()),
    };
    const result: Result = {
      lastStatus: response.status,
      lastError: response.ok ? null : `HTTP ${response.status} ${text.slice(0, 300)}`.trim(),
    };
    return { attempt, result };
  }

  async function deliver(row: ClaimedNotification): Promise<void> {
    const target = byName.get(row.target);
    if (!target) return;
    let attempt: Attempt;
    let result: Result;
    try {
      ({ attempt, result } = await post(target, row));
    } catch (error) {
      if (stopping.signal.aborted) {
        await repository.release(row);
        return;
      }
      attempt = { kind: 'error' };
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      result = {
        lastStatus: null,
        lastError: [(error as Error).message, cause?.code ?? cause?.message]
          .filter(Boolean)
          .join(': '),
      };
    }
    const outcome = decideOutcome(attempt, row.attempts, policy);
    observe?.attempt(row.target, outcome.status === 'pending' ? 'retried' : outcome.status);
    const context = { notification: row.id, target: row.target, attempt: row.attempts, ...result };
    if (outcome.status === 'delivered') {
      await repository.delivered(row, result);
    } else if (outcome.status === 'failed') {
      log.warn(context, 'notification failed for good');
      await repository.failed(row, result);
    } else {
      log.info({ ...context, retryInMs: outcome.delayMs }, 'notification will be retried');
      await repository.retryAfter(row, outcome.delayMs, result);
    }
  }

  /** Claims up to a batch of due notifications and delivers them in parallel; answers how many. */
  async function runOnce(): Promise<number> {
    if (targets.length === 0) return 0;
    const rows = await repository.claim([...byName.keys()], BATCH_SIZE, config.NOTIFY_LEASE_MS);
    await Promise.all(rows.map(deliver));
    return rows.length;
  }

  const loop = createWorkerLoop({
    intervalMs: config.NOTIFY_INTERVAL_MS,
    runOnce,
    log,
    rounds: observe?.rounds,
  });
  return {
    runOnce,
    start: () => loop.start(),
    /** Aborts deliveries in flight and hands their rows back, so a restart loses nothing. */
    async stop() {
      stopping.abort();
      await loop.stop();
      stopping = new AbortController();
    },
    wake: () => loop.wake(),
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
