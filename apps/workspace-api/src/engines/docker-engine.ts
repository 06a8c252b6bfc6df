import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import { pack } from 'tar-stream';
import {
  EngineError,
  SESSION_LABEL,
  type ContainerFile,
  type ContainerSpec,
  type Engine,
  type ExecResult,
  type ExecSpec,
} from './engine';
import { prepareProfile } from './docker-profile';

export interface DockerAddress {
  /** unix:///path/docker.sock or tcp://host:port */
  url: string;
  tls?: { caPath: string; certPath: string; keyPath: string };
}

// Debian's engine (20.10) speaks 1.41 at most; newer engines still accept it.
const API_VERSION = 'v1.41';
const INFO_TIMEOUT_MS = 10_000;
const EXEC_OUTPUT_LIMIT = 1_048_576;

function connect({ url, tls }: DockerAddress): Docker {
  const parsed = new URL(url);
  if (parsed.protocol === 'unix:')
    return new Docker({ socketPath: parsed.pathname, version: API_VERSION });
  if (parsed.protocol !== 'tcp:') throw new EngineError(`Unsupported engine address ${url}`);
  const material = tls && {
    ca: readFileSync(tls.caPath),
    cert: readFileSync(tls.certPath),
    key: readFileSync(tls.keyPath),
  };
  return new Docker({
    host: parsed.hostname,
    port: Number(parsed.port || (material ? 2376 : 2375)),
    protocol: material ? 'https' : 'http',
    version: API_VERSION,
    ...material,
  });
}

/** The engine's own words where it gave some, else the connection failure's code. */
function describe(error: unknown): string {
  const e = error as {
    json?: { message?: string };
    reason?: string;
    code?: string;
    message?: string;
  };
  return e.json?.message ?? e.code ?? e.reason ?? e.message ?? String(error);
}
const statusOf = (error: unknown) => (error as { statusCode?: number }).statusCode;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EngineError(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function tarOf(files: readonly ContainerFile[]): Promise<Buffer> {
  const archive = pack();
  for (const file of files) {
    archive.entry(
      { name: file.path.replace(/^\/+/, ''), mode: file.executable ? 0o755 : 0o644 },
      file.content,
    );
  }
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function collectExec(docker: Docker, stream: NodeJS.ReadableStream): Promise<string> {
  const out = new PassThrough();
  let output = '';
  out.on('data', (chunk: Buffer) => {
    if (output.length < EXEC_OUTPUT_LIMIT) output += chunk.toString('utf8');
  });
  docker.modem.demuxStream(stream, out, out);
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  return output.slice(0, EXEC_OUTPUT_LIMIT);
}

export function createDockerEngine(address: DockerAddress): Engine {
  const docker = connect(address);
  const publishOn = new URL(address.url).protocol === 'unix:' ? '127.0.0.1' : '0.0.0.0';
  const fail = (what: string) => (error: unknown) => {
    throw new EngineError(`${what}: ${describe(error)}`);
  };

  return {
    async info() {
      const info = await withTimeout(
        docker.info(),
        INFO_TIMEOUT_MS,
        `The engine at ${address.url}`,
      ).catch(fail(`The engine at ${address.url} does not answer`));
      return { cores: info.NCPU, memory: info.MemTotal };
    },

    async ensureImage(image) {
      const present = await docker
        .getImage(image)
        .inspect()
        .then(() => true)
        .catch((error: unknown) =>
          statusOf(error) === 404 ? false : fail('Image check failed')(error),
        );
      if (present) return;
      try {
        const stream = await docker.pull(image);
        await new Promise<void>((resolve, reject) =>
          docker.modem.followProgress(stream, (error) => (error ? reject(error) : resolve())),
        );
      } catch (error) {
        throw new EngineError(
          `Image ${image} is not on the agent and could not be pulled: ${describe(error)}`,
        );
      }
    },

    async create(spec: ContainerSpec) {
      const port = `${spec.sessionPort}/tcp`;
      // A bind given as Mounts is never created by the engine (as root, through links): only
      // the folder prepareProfile made is mounted.
      const profile = spec.profile && {
        Type: 'bind' as const,
        Source: await prepareProfile(docker, spec.sessionId, spec.image, spec.profile),
        Target: spec.profile.home,
      };
      const container = await docker
        .createContainer({
          name: `session-${spec.sessionId}`,
          Image: spec.image,
          Hostname: spec.hostname,
          Env: Object.entries(spec.env).map(([key, value]) => `${key}=${value}`),
          Labels: { [SESSION_LABEL]: spec.sessionId },
          ExposedPorts: { [port]: {} },
          HostConfig: {
            NanoCpus: Math.round(spec.cores * 1e9),
            Memory: spec.memory,
            ShmSize: spec.shmSizeBytes,
            Mounts: profile ? [profile] : undefined,
            PortBindings: { [port]: [{ HostIp: publishOn, HostPort: '' }] },
            Init: true,
          },
        })
        .catch(fail('The container could not be created'));
      if (spec.files.length > 0) {
        await container
          .putArchive(await tarOf(spec.files), { path: '/' })
          .catch(fail('The file mappings could not be written'));
      }
      return container.id;
    },

    async start(containerId, sessionPort) {
      const container = docker.getContainer(containerId);
      await container.start().catch(fail('The container could not be started'));
      const inspected = await container.inspect().catch(fail('The container vanished'));
      const binding = inspected.NetworkSettings.Ports?.[`${sessionPort}/tcp`]?.[0];
      if (!binding) throw new EngineError(`Port ${sessionPort} of the container is not published`);
      return Number(binding.HostPort);
    },

    async exec(containerId, command: ExecSpec): Promise<ExecResult> {
      const container = docker.getContainer(containerId);
      const exec = await container
        .exec({
          Cmd: ['/bin/sh', '-c', command.cmd],
          Env: Object.entries(command.env ?? {}).map(([key, value]) => `${key}=${value}`),
          WorkingDir: command.workdir || undefined,
          User: command.user || undefined,
          Privileged: command.privileged ?? false,
          AttachStdout: true,
          AttachStderr: true,
        })
        .catch(fail('The command could not be run'));
      const stream = await exec
        .start({ hijack: true, stdin: false })
        .catch(fail('The command could not be run'));
      const output = await collectExec(docker, stream);
      const { ExitCode } = await exec.inspect().catch(fail('The command vanished'));
      return { exitCode: ExitCode ?? -1, output };
    },

    async removeSession(sessionId) {
      const containers = await docker
        .listContainers({ all: true, filters: { label: [`${SESSION_LABEL}=${sessionId}`] } })
        .catch(fail('The containers could not be listed'));
      for (const { Id } of containers) {
        await docker
          .getContainer(Id)
          .remove({ force: true })
          // 404: gone already; 409: another replica's removal is under way.
          .catch((error: unknown) =>
            [404, 409].includes(statusOf(error) ?? 0)
              ? undefined
              : fail('The container could not be removed')(error),
          );
      }
    },

    async listSessions() {
      const containers = await docker
        .listContainers({ all: true, filters: { label: [SESSION_LABEL] } })
        .catch(fail('The containers could not be listed'));
      return containers.map((c) => ({
        sessionId: c.Labels[SESSION_LABEL],
        containerId: c.Id,
        running: c.State === 'running',
      }));
    },
  };
}
