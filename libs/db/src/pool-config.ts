import type { PoolConfig } from 'pg';

export interface PoolSettings {
  connectionString: string;
  maxConnections: number;
  /** How long a request may wait for a connection or a statement before it fails. */
  timeoutMs: number;
}

/** One pool configuration for every service: bounded size, and no request waits forever. */
export function poolConfig(settings: PoolSettings): PoolConfig {
  return {
    connectionString: settings.connectionString,
    max: settings.maxConnections,
    connectionTimeoutMillis: settings.timeoutMs,
    statement_timeout: settings.timeoutMs,
    query_timeout: settings.timeoutMs + 1_000,
    idleTimeoutMillis: 30_000,
  };
}
