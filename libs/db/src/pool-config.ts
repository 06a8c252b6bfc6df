import type { PoolConfig } from 'pg';
import { readTimeoutClient } from './read-timeout-client';

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
    // The server ends a statement after timeoutMs; the client stops waiting a second later, for a
    // server or network that does not answer at all (pg's own query_timeout: see the client).
    Client: readTimeoutClient(settings.timeoutMs + 1_000),
    idleTimeoutMillis: 30_000,
  };
}
