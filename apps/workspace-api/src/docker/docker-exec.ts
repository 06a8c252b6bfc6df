import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { ExecResult, ExecSpec } from '../engines';

const EXEC_OUTPUT_LIMIT = 1_048_576;
/** The exit code of a command ended at its time limit, as coreutils' `timeout` answers. */
export const EXEC_TIMED_OUT = 124;
/** Each command's processes carry it (children inherit it), so that they can be found to end. */
const MARK = 'WORKSPACE_EXEC_ID';
/** How long the output may still take once the command's processes were killed. */
const KILL_GRACE_MS = 5_000;

/**
 * Kills, inside the container, every process carrying the command's mark in its environment: the
 * command and whatever it started. Only `sh`, `tr` and `grep` are needed, which
 * busybox, Debian and Ubuntu (Kasm's images) all have; the engine's own view of PIDs is the
 * host's, which a remote engine's client cannot use.
 */
function killScript(mark: string): string {
  return [
    'for p in /proc/[0-9]*; do',
    `  tr '\\000' '\\n' < "$p/environ" 2>/dev/null | grep -qx '${MARK}=${mark}' && kill -KILL "\${p#/proc/}" 2>/dev/null`,
    'done; true',
  ].join('\n');
}

/**
 * Kills the processes of the command started with `mark`, as the user the command ran as (and as
 * privileged as it was); resolves once done. Not as root: sessions run with every capability
 * dropped, so the container's root may neither read another user's environment nor kill their
 * processes.
 */
export async function killMarked(
  docker: Docker,
  container: Docker.Container,
  mark: string,
  fail: (error: unknown) => never,
  as: Pick<ExecSpec, 'user' | 'privileged'> = {},
): Promise<void> {
  const killer = await container
    .exec({
      Cmd: ['/bin/sh', '-c', killScript(mark)],
      User: as.user || undefined,
      Privileged: as.privileged ?? false,
      AttachStdout: true,
    })
    .catch(fail);
  const killing = await killer.start({ hijack: true, stdin: false }).catch(fail);
  await collect(docker, killing).ended;
}

/** A fresh mark and the environment that carries it (with the command's own variables). */
export function markedEnv(env: Record<string, string> = {}) {
  const mark = randomBytes(16).toString('hex');
  const lines = Object.entries(env).map(([key, value]) => `${key}=${value}`);
  return { mark, env: [...lines, `${MARK}=${mark}`] };
}

export function collect(docker: Docker, stream: NodeJS.ReadableStream) {
  const out = new PassThrough();
  let output = '';
  out.on('data', (chunk: Buffer) => {
    if (output.length < EXEC_OUTPUT_LIMIT) output += chunk.toString('utf8');
  });
  docker.modem.demuxStream(stream, out, out);
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  return { ended, output: () => output.slice(0, EXEC_OUTPUT_LIMIT) };
}

/** Whether `done` settles within `ms` ('done') or not ('late'); the timer goes either way. */
async function within(done: Promise<void>, ms: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    return await Promise.race([done.then(() => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `command` through the container's `/bin/sh`. With a time limit, a command still running
 * at its end is killed with its children, and answers EXEC_TIMED_OUT with the output so far.
 */
export async function runExec(
  docker: Docker,
  containerId: string,
  command: ExecSpec,
  fail: (error: unknown) => never,
): Promise<ExecResult> {
  const container = docker.getContainer(containerId);
  const { mark, env } = markedEnv(command.env);
  const exec = await container
    .exec({
      Cmd: ['/bin/sh', '-c', command.cmd],
      Env: env,
      WorkingDir: command.workdir || undefined,
      User: command.user || undefined,
      Privileged: command.privileged ?? false,
      AttachStdout: true,
      AttachStderr: true,
    })
    .catch(fail);
  const stream = await exec.start({ hijack: true, stdin: false }).catch(fail);
  const run = collect(docker, stream);
  const limit = command.timeoutMs;
  const late = limit !== undefined && (await within(run.ended, limit)) === 'late';
  if (!late) {
    await run.ended;
    const { ExitCode } = await exec.inspect().catch(fail);
    return { exitCode: ExitCode ?? -1, output: run.output() };
  }
  await killMarked(docker, container, mark, fail, command);
  if ((await within(run.ended, KILL_GRACE_MS)) === 'late') {
    (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
  }
  return { exitCode: EXEC_TIMED_OUT, output: run.output(), timedOut: true };
}
