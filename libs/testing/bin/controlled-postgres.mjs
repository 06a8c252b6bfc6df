// A PostgreSQL that a test can stop and start: runs the project's embedded server (ESM only, so
// in a process of its own rather than inside Jest), in a fresh data folder on a free port.
// Protocol: JSON lines on stdout ({"event":"ready","url":...}, "stopped", "started", "exited");
// commands on stdin, one a line: stop, start, exit. Closing stdin counts as exit.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

/** @type {typeof import('../../../tools/local-postgres.cjs')} */
const { embeddedServer, isListening } = createRequire(import.meta.url)(
  '../../../tools/local-postgres.cjs',
);

/**
 * @param {string} event
 * @param {Record<string, unknown>} [extra]
 */
const send = (event, extra = {}) =>
  process.stdout.write(`${JSON.stringify({ event, ...extra })}\n`);

/** @returns {Promise<number>} */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'controlled-pg-'));
const port = await freePort();
/** @type {Awaited<ReturnType<typeof embeddedServer>> | undefined} */
let pg;

let exiting = false;
async function exit() {
  if (exiting) return;
  exiting = true;
  await pg?.stop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
  send('exited');
  process.exit(0);
}

try {
  pg = await embeddedServer({ dir, port });
  await pg.start();
} catch (error) {
  send('failed', { message: String(/** @type {Error | undefined} */ (error)?.message ?? error) });
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}
send('ready', { url: pg.url, port });

const commands = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
commands.on('line', (line) => {
  queue = queue.then(async () => {
    const command = line.trim();
    if (command === 'stop') {
      await pg.stop();
      // As root, the server runs under `su`, which may exit before the postmaster is gone.
      while (await isListening(port)) await new Promise((resolve) => setTimeout(resolve, 20));
      send('stopped');
    } else if (command === 'start') {
      await pg.start();
      send('started');
    } else if (command === 'exit') {
      await exit();
    }
  });
});
commands.on('close', () => {
  queue = queue.then(exit);
});
process.on('SIGTERM', () => void exit());
