import http from 'node:http';
import net from 'node:net';
import { Client } from 'pg';
import { startBuiltServer } from './built-server';
import { waitFor } from './load';

export interface ShutdownScenario {
  service: 'workspace-api' | 'calendar-api';
  /** The service's environment (DATABASE_URL at least). */
  env: Record<string, string>;
  databaseUrl: string;
  /** Locked while the requests arrive, so that every one waits inside the server. */
  table: string;
  /** A write storing `name`, and the SQL that counts the stored "in flight %" names. */
  write: (name: string) => { path: string; body: object };
  countStoredSql: string;
  inFlight: number;
}

export interface ShutdownReport {
  statuses: (number | string)[];
  /** What a request sent after SIGTERM got: a status, or the connection error. */
  late: number | string;
  exit: { code: number | null; signal: NodeJS.Signals | null };
  /** From the moment the held requests could finish to the process's exit. */
  exitMs: number;
  stored: number;
}

type Answer = { status: number } | { error: string };

/** Whether a TCP connection to the server's port is refused (its listener closed). */
function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** One request on a connection of its own (kept alive with `agent`), so that none waits behind another. */
function post(url: string, body: object, agent: http.Agent | false = false): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
    req.end(JSON.stringify(body));
  });
}

const outcome = (answer: Answer) => ('status' in answer ? answer.status : answer.error);

/**
 * Starts the built service, holds `inFlight` writes inside it (half on kept-alive connections),
 * sends SIGTERM, tries one more request, then lets the held writes finish and waits for the exit.
 * Prints what happened so the figures can be quoted.
 */
export async function runShutdownUnderLoad(scenario: ShutdownScenario): Promise<ShutdownReport> {
  // Arrivals are logged at debug (the info line is written when a request completes).
  const server = await startBuiltServer(scenario.service, { LOG_LEVEL: 'debug', ...scenario.env });
  const lock = new Client({ connectionString: scenario.databaseUrl });
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: scenario.inFlight });
  try {
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query(`LOCK TABLE ${scenario.table} IN EXCLUSIVE MODE`);
    // The writes' arrivals, counted in the log (buffered: a line may come up to a second late,
    // so earlier lines, such as the readiness checks', are told apart by their URL).
    const { path: writePath } = scenario.write('');
    const requests = () =>
      server
        .output()
        .split('\n')
        .filter(
          (line) => line.includes('incoming request') && line.includes(`"url":"${writePath}"`),
        ).length;
    const before = requests();
    const send = (name: string, agent: http.Agent | false) => {
      const { path, body } = scenario.write(name);
      return post(`${server.url}${path}`, body, agent);
    };
    const inFlight = Array.from({ length: scenario.inFlight }, (_, i) =>
      send(`in flight ${i}`, i % 2 ? keepAlive : false),
    );
    await waitFor(async () => {
      if (requests() !== before + scenario.inFlight) throw new Error('requests still arriving');
    }, 10_000);

    server.child.kill('SIGTERM');
    // The listener closes a moment after the signal (the close hooks run first); how long that
    // takes depends on the machine, so wait for it rather than guess. The held writes are
    // still in flight throughout: the server stops accepting before they finish.
    await waitFor(async () => {
      if (!server.output().includes('shutting down')) throw new Error('not shutting down yet');
      if (!(await refused(server.url))) throw new Error('still accepting connections');
    }, 30_000);
    const late = outcome(await send('too late', false));

    await new Promise((resolve) => setTimeout(resolve, 300));
    await lock.query('COMMIT');
    const released = Date.now();
    const statuses = (await Promise.all(inFlight)).map(outcome);
    const exit = await server.exited;
    const exitMs = Date.now() - released;
    const { rows } = await lock.query<{ count: string }>(scenario.countStoredSql);
    const report = { statuses, late, exit, exitMs, stored: Number(rows[0].count) };
    process.stdout.write(
      `${scenario.service} SIGTERM: ${scenario.inFlight} requests in flight answered ` +
        `${[...new Set(statuses)].join(', ')}; a new request got ${late}; exit code ${exit.code} ` +
        `${exitMs} ms after the last one could finish\n`,
    );
    return report;
  } finally {
    keepAlive.destroy();
    server.child.kill('SIGKILL');
    await lock.end().catch(() => undefined);
  }
}
