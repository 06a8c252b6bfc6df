import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';

/** Where the tests' Redis answers, if anywhere. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether something answers at the Redis URL's host and port (tests that need Redis skip otherwise). */
export function redisReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname);
    socket.setTimeout(500, () => socket.destroy());
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

export interface ReplicaScenario {
  /** Starts two replicas of the service with `redisEnv` (REDIS_URL, a fresh key prefix) added. */
  start: (redisEnv: Record<string, string>) => Promise<{
    replicas: [FastifyInstance, FastifyInstance];
    close: () => Promise<void>;
  }>;
  /** A request that fails authentication. */
  request: InjectOptions;
  attempts: number;
}

/**
 * The statuses of `attempts` failing requests sent alternately to two replicas sharing the tests'
 * Redis; null when no Redis answers there (the test then skips).
 */
export async function statusesAcrossReplicas(scenario: ReplicaScenario): Promise<number[] | null> {
  if (!(await redisReachable(TEST_REDIS_URL))) return null;
  const prefix = `test-${randomBytes(6).toString('hex')}:`;
  const { replicas, close } = await scenario.start({
    REDIS_URL: TEST_REDIS_URL,
    RATE_LIMIT_KEY_PREFIX: prefix,
  });
  try {
    await Promise.all(replicas.map((app) => app.ready()));
    const statuses: number[] = [];
    for (let i = 0; i < scenario.attempts; i += 1) {
      statuses.push((await replicas[i % 2].inject(scenario.request)).statusCode);
    }
    return statuses;
  } finally {
    await close();
  }
}

/** A throttle tight enough to reach in a test: LIMIT failures per pair, ADDRESS_LIMIT per address. */
const LIMIT = 5;
const ADDRESS_LIMIT = 12;
export const TEST_THROTTLE = {
  LIMIT,
  ADDRESS_LIMIT,
  env: { AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_ADDRESS_LIMIT: String(ADDRESS_LIMIT) },
};
