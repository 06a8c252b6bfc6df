import { Client, type QueryResult } from 'pg';

type Callback = (error: Error | null, result?: QueryResult) => void;
const pgQuery = Client.prototype.query as (this: Client, ...args: unknown[]) => unknown;

/** The message of pg's own read timeout, which `@platform/errors` maps to 503 as an outage. */
export const READ_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * pg's Client with a read timeout of its own: a query the server has not answered within
 * `timeoutMs` fails with "Query read timeout", as with pg's `query_timeout`, and the pool then
 * drops the connection.
 *
 * Why not `query_timeout`: pg implements it, and its promise form of `query`, by replacing the
 * query's callback after the query is made. Measured on a day's listing (274 rows), every result
 * then outlived the next young-generation collections: 1.7 MB promoted to the old generation at
 * each scavenge instead of 60 KB, and a third more CPU per request
 * (docs/decisions/0008-read-timeout-client.md).
 * Here each query gets its callback once, when it is made, and a promise caller gets one around it.
 */
export function readTimeoutClient(timeoutMs: number): typeof Client {
  class ReadTimeoutClient extends Client {}
  // pg's overloads (text or config; values or not; callback or promise) in one function.
  function query(this: Client, config: unknown, values?: unknown, callback?: unknown): unknown {
    if (typeof (config as { submit?: unknown }).submit === 'function') {
      return pgQuery.call(this, config, values, callback);
    }
    const [args, done] = (
      typeof values === 'function' ? [undefined, values] : [values, callback]
    ) as [unknown, Callback | undefined];
    if (done === undefined) {
      return new Promise((resolve, reject) => {
        query.call(this, config, args, ((error, result) =>
          error ? reject(error) : resolve(result)) satisfies Callback);
      });
    }
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      done(new Error(READ_TIMEOUT_MESSAGE));
    }, timeoutMs);
    return pgQuery.call(this, config, args, ((error, result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(error, result);
    }) satisfies Callback);
  }
  ReadTimeoutClient.prototype.query = query as Client['query'];
  return ReadTimeoutClient;
}
