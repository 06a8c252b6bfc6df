import { readFileSync } from 'node:fs';
import type Docker from 'dockerode';
import type { Tracer } from '@platform/tracing';
import { tarOf } from './docker-files';
import { connectionFailure, describeDockerError, statusOf } from './docker-errors';
import {
  EngineError,
  type EngineFailure,
  SESSION_LABEL,
  type ContainerSpec,
  type Engine,
  type EngineTarget,
  type TlsPaths,
} from '../engines';
import type { InstallationSource } from '../installation';
import { ownedBy, sessionLabels } from './docker-labels';
import { prepareProfile } from './docker-profile';
import { containerRunsAsRoot } from './docker-user';
import { runExec } from './docker-exec';
import { runExecInput, runExecOutput, runExecRead } from './docker-streams';
import { startsAsRoot } from './profile-user';
import {
  createSessionNetwork,
  listSessionNetworks,
  removeSessionNetworks,
} from './docker-session-network';
import { hopMount, startHopServer } from './docker-socket-hop';
import { traceDockerCalls } from './docker-tracing';

// Debian's engine (20.10) speaks 1.41 at most; newer engines still accept it.
const API_VERSION = 'v1.41';
const INFO_TIMEOUT_MS = 10_000;
/** How long a stopped workspace has to end its programs before the engine kills them. */
const STOP_GRACE_SECONDS = 10;

function readTls(tls: TlsPaths) {
  try {
    return {
      ca: readFileSync(tls.caPath),
      cert: readFileSync(tls.certPath),
      key: readFileSync(tls.keyPath),
    };
  } catch (error) {
    throw new EngineError('ENGINE_TLS_FILES_UNREADABLE', describeDockerError(error));
  }
}

/**
 * A client for a checked address (engine-address.ts). With TLS the engine's certificate is
 * verified against the agent's CA (Node's default, never turned off) and ours is presented.
 */
function connect(target: EngineTarget): Docker {
  // Loaded with the first engine, not at start: dockerode and its dependencies hold about 20 MiB
  // that a service without agents never needs (idle RSS, bench/README.md).
  const Docker = require('dockerode') as typeof import('dockerode');
  if (target.kind === 'unix')
    return new Docker({ socketPath: target.socketPath, version: API_VERSION });
  const base = { host: target.host, port: target.port, version: API_VERSION };
  if (!target.tls) return new Docker({ ...base, protocol: 'http' });
  return new Docker({ ...base, protocol: 'https', ...readTls(target.tls) });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EngineError('ENGINE_TIMEOUT', `${what} ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createDockerEngine(
  target: EngineTarget,
  tracer: Tracer,
  installation: InstallationSource,
): Engine {
  const docker = connect(target);
  traceDockerCalls(docker, tracer, target.kind === 'unix' ? target.socketPath : target.host);
  const publishOn = target.kind === 'unix' ? '127.0.0.1' : '0.0.0.0';
  const fail = (failure: EngineFailure) => (error: unknown) => {
    throw error instanceof EngineError
      ? error
      : new EngineError(failure, describeDockerError(error));
  };

  return {
    async info() {
      const info = await withTimeout(docker.info(), INFO_TIMEOUT_MS, 'info').catch(
        (error: unknown) =>
          fail(connectionFailure(error, target.kind === 'tcp' && target.tls !== null))(error),
      );
      return { cores: info.NCPU, memory: info.MemTotal };
    },

    async ensureImage(image) {
      const present = await docker
        .getImage(image)
        .inspect()
        .then(() => true)
        .catch((error: unknown) =>
          statusOf(error) === 404 ? false : fail('ENGINE_IMAGE_UNAVAILABLE')(error),
        );
      if (present) return;
      try {
        const stream = await docker.pull(image);
        await new Promise<void>((resolve, reject) =>
          docker.modem.followProgress(stream, (error) => (error ? reject(error) : resolve())),
        );
      } catch (error) {
        throw new EngineError(
          'ENGINE_IMAGE_UNAVAILABLE',
          `${image}: ${describeDockerError(error)}`,
        );
      }
    },

    async create(spec: ContainerSpec) {
      const port = `${spec.sessionPort}/tcp`;
      // A bind given as Mounts is never created by the engine (as root, through links): only
      // the folder prepareProfile made is mounted.
      const labels = await sessionLabels(spec.sessionId, installation);
      const profile = spec.profile && {
        Type: 'bind' as const,
        Source: await prepareProfile(docker, spec.sessionId, spec.image, spec.profile, labels),
        Target: spec.profile.home,
      };
      const image = await docker
        .getImage(spec.image)
        .inspect()
        .catch(fail('ENGINE_CREATE_REFUSED'));
      const mounts = [profile, hopMount(image, spec.socketFolder)].filter((m) => !!m);
      const network = await createSessionNetwork(docker, spec.sessionId, labels);
      const { fences } = spec;
      const capAdd = startsAsRoot(image.Config?.User ?? '') ? fences.rootCapAdd : fences.capAdd;
      const container = await docker
        .createContainer({
          name: `session-${spec.sessionId}`,
          Image: spec.image,
          Hostname: spec.hostname,
          Env: Object.entries(spec.env).map(([key, value]) => `${key}=${value}`),
          Labels: labels,
          ExposedPorts: { [port]: {} },
          HostConfig: {
            NanoCpus: Math.round(spec.cores * 1e9),
            Memory: spec.memory,
            ShmSize: spec.shmSizeBytes,
            Mounts: mounts.length > 0 ? mounts : undefined,
            PortBindings: { [port]: [{ HostIp: publishOn, HostPort: '' }] },
            Init: true,
            NetworkMode: network,
            CapDrop: ['ALL'],
            CapAdd: capAdd.length > 0 ? [...capAdd] : undefined,
            SecurityOpt: fences.noNewPrivileges ? ['no-new-privileges'] : undefined,
            PidsLimit: fences.pidsLimit,
          },
        })
        .catch(fail('ENGINE_CREATE_REFUSED'));
      if (spec.files.length > 0) {
        await container
          .putArchive(await tarOf(spec.files), { path: '/' })
          .catch(fail('ENGINE_FILES_REFUSED'));
      }
      return container.id;
    },

    async start(containerId, sessionPort) {
      const container = docker.getContainer(containerId);
      await container.start().catch(fail('ENGINE_START_REFUSED'));
      const inspected = await container.inspect().catch(fail('ENGINE_START_REFUSED'));
      const binding = inspected.NetworkSettings.Ports?.[`${sessionPort}/tcp`]?.[0];
      if (!binding) throw new EngineError('ENGINE_PORT_MISSING', `port ${sessionPort}`);
      await startHopServer(container, inspected).catch(fail('ENGINE_START_REFUSED'));
      return Number(binding.HostPort);
    },

    exec: (containerId, command) =>
      runExec(docker, containerId, command, fail('ENGINE_EXEC_REFUSED')),

    execInput: (containerId, command, input) =>
      runExecInput(docker, containerId, command, input, fail('ENGINE_EXEC_REFUSED')),

    execOutput: (containerId, command) =>
      runExecOutput(docker, containerId, command, fail('ENGINE_EXEC_REFUSED')),

    execRead: (containerId, command) =>
      runExecRead(docker, containerId, command, fail('ENGINE_EXEC_REFUSED')),

    runsAsRoot: (containerId, user) =>
      containerRunsAsRoot(docker.getContainer(containerId), user).catch(
        fail('ENGINE_EXEC_REFUSED'),
      ),

    async stop(containerId) {
      // 304: stopped already. The workspace's init passes SIGTERM on; its programs end cleanly.
      await docker
        .getContainer(containerId)
        .stop({ t: STOP_GRACE_SECONDS })
        .catch((error: unknown) =>
          statusOf(error) === 304 ? undefined : fail('ENGINE_STOP_REFUSED')(error),
        );
    },

    async pause(containerId) {
      await docker.getContainer(containerId).pause().catch(fail('ENGINE_PAUSE_REFUSED'));
    },

    async unpause(containerId) {
      await docker.getContainer(containerId).unpause().catch(fail('ENGINE_PAUSE_REFUSED'));
    },

    async removeSession(sessionId) {
      const containers = await docker
        .listContainers({ all: true, filters: { label: [`${SESSION_LABEL}=${sessionId}`] } })
        .catch(fail('ENGINE_LIST_REFUSED'));
      for (const { Id } of containers) {
        await docker
          .getContainer(Id)
          .remove({ force: true })
          // 404: gone already; 409: another replica's removal is under way.
          .catch((error: unknown) =>
            [404, 409].includes(statusOf(error) ?? 0)
              ? undefined
              : fail('ENGINE_REMOVE_REFUSED')(error),
          );
      }
      await removeSessionNetworks(docker, sessionId);
    },

    async listSessions() {
      const containers = await docker
        .listContainers({ all: true, filters: { label: [SESSION_LABEL] } })
        .catch(fail('ENGINE_LIST_REFUSED'));
      const installationId = await installation.id();
      return containers
        .filter((c) => ownedBy(c.Labels, installationId))
        .map((c) => ({
          sessionId: c.Labels[SESSION_LABEL],
          containerId: c.Id,
          running: c.State === 'running',
        }));
    },

    listSessionNetworks: () => listSessionNetworks(docker, installation),
  };
}
