import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Bundles an app as its image does (`node tools/build-app.mjs <app>`); the generated Prisma client must exist. */
export function buildService(app: string): void {
  const result = spawnSync(process.execPath, ['tools/build-app.mjs', app], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`building ${app} failed:\n${result.stdout}${result.stderr}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface BuiltServer {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `node apps/<app>/dist/server.js` with `env` on a free port, and waits until it is ready. */
export async function startBuiltServer(
  app: string,
  env: Record<string, string>,
): Promise<BuiltServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'apps', app, 'dist', 'server.js')], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env, PORT: String(port) },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  // Generous: a loaded machine (CI runs the suite beside a CPU hog) starts a process slowly.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const ready = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, child, output: () => output, exited };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${app} did not become ready:\n${output}`);
}
