import { spawn } from 'node:child_process';

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
}

/** Runs a command to its end; resolves with its stdout, rejects with the tail of its output. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<string> {
  const { env = {}, cwd, timeoutMs = 10 * 60_000 } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk), (output += chunk)));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else {
        const why = signal
          ? `was killed (${signal}) after ${timeoutMs / 1000} s`
          : `exited ${code}`;
        reject(new Error(`${command} ${args.join(' ')} ${why}:\n${output.slice(-6000)}`));
      }
    });
  });
}

/** The engine the image tests drive: set by their global setup. */
export function dockerHost(): string {
  const host = process.env.DOCKER_HOST;
  if (!host)
    throw new Error('DOCKER_HOST is not set: the image tests run through their global setup');
  return host;
}

/**
 * The docker CLI against the test engine. The classic builder: this engine (20.10) predates
 * the CLI's BuildKit defaults, and `--network=host` builds need no buildx.
 */
export const docker = (args: string[], options: RunOptions = {}) =>
  run('docker', args, {
    ...options,
    env: { DOCKER_HOST: dockerHost(), DOCKER_BUILDKIT: '0', ...options.env },
  });

export async function inspect<T = Record<string, unknown>>(id: string): Promise<T> {
  const [first] = JSON.parse(await docker(['inspect', id])) as T[];
  return first;
}

export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
}
