import { finished, PassThrough, type Duplex, type Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { ExecOutput, ExecRead, ExecResult, ExecSpec } from '../engines';
import { demultiplexed } from './docker-demux';
import { collect } from './docker-exec';

/**
 * Starts `command` through the container's `/bin/sh` with stdout and stderr attached, and stdin
 * when `stdin` says so.
 */
async function startExec(
  docker: Docker,
  containerId: string,
  command: ExecSpec,
  fail: (error: unknown) => never,
  stdin: boolean,
) {
  const env = Object.entries(command.env ?? {}).map(([key, value]) => `${key}=${value}`);
  const exec = await docker
    .getContainer(containerId)
    .exec({
      Cmd: ['/bin/sh', '-c', command.cmd],
      Env: env,
      WorkingDir: command.workdir || undefined,
      User: command.user || undefined,
      AttachStdin: stdin,
      AttachStdout: true,
      AttachStderr: true,
    })
    .catch(fail);
  const stream = (await exec.start({ hijack: true, stdin }).catch(fail)) as Duplex;
  return { exec, stream };
}

/**
 * Runs `command` through the container's `/bin/sh` with `input` as its stdin. The engine's
 * hijacked connection is half-closed when `input` ends, or fails (a client that went away): the
 * command then sees the end of its input after the bytes that reached it, and ends by itself.
 */
export async function runExecInput(
  docker: Docker,
  containerId: string,
  command: ExecSpec,
  input: Readable,
  fail: (error: unknown) => never,
): Promise<ExecResult> {
  const { exec, stream } = await startExec(docker, containerId, command, fail, true);
  const run = collect(docker, stream);
  // Also when `input` ended or failed before the exec started (a body refused at once).
  const stopEnding = finished(input, () => stream.end());
  input.pipe(stream);
  try {
    await run.ended;
  } finally {
    stopEnding();
    input.unpipe(stream);
  }
  const { ExitCode } = await exec.inspect().catch(fail);
  return { exitCode: ExitCode ?? -1, output: run.output() };
}

const STDERR_LIMIT = 1024;
/** How long a command has to end once its input closed before its connection is cut. */
const STOP_GRACE_MS = 5_000;

/**
 * Starts `command` through the container's `/bin/sh` with its stdin open and streams its stdout
 * (demultiplexed from the engine's connection) as it comes. stop() closes its stdin, on which
 * the command must end (the engine closes it too when the connection drops, whatever ended this
 * process); the connection is cut after a grace either way.
 */
export async function runExecOutput(
  docker: Docker,
  containerId: string,
  command: ExecSpec,
  fail: (error: unknown) => never,
): Promise<ExecOutput> {
  const { exec, stream } = await startExec(docker, containerId, command, fail, true);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let errors = '';
  stderr.on('data', (chunk: Buffer) => {
    if (errors.length < STDERR_LIMIT) errors += chunk.toString('utf8');
  });
  docker.modem.demuxStream(stream, stdout, stderr);
  const closed = new Promise<void>((resolve) => {
    stream
      .once('end', resolve)
      .once('close', resolve)
      .once('error', () => resolve());
  });
  void closed.then(() => stdout.end());
  const ended = closed.then(async () => {
    const { ExitCode } = await exec.inspect().catch(() => ({ ExitCode: null }));
    return { exitCode: ExitCode ?? -1, stderr: errors.slice(0, STDERR_LIMIT) };
  });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve) => {
      const cut = setTimeout(() => stream.destroy(), STOP_GRACE_MS);
      void closed.then(() => {
        clearTimeout(cut);
        stream.destroy();
        resolve();
      });
      stream.end();
    }));
  return { stdout, ended, stop };
}

/**
 * Runs `command` through the container's `/bin/sh` with no stdin and hands back its stdout as it
 * comes, read from the engine only as fast as it is consumed: a download never piles up here.
 */
export async function runExecRead(
  docker: Docker,
  containerId: string,
  command: ExecSpec,
  fail: (error: unknown) => never,
): Promise<ExecRead> {
  const { exec, stream } = await startExec(docker, containerId, command, fail, false);
  const { stdout, stderr } = demultiplexed(stream);
  const closed = new Promise<void>((resolve) => finished(stream, () => resolve()));
  const ended = closed.then(async () => {
    const { ExitCode } = await exec.inspect().catch(() => ({ ExitCode: null }));
    return { exitCode: ExitCode ?? -1, stderr: stderr() };
  });
  return { stdout, ended };
}
