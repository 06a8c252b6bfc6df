import type { FastifyBaseLogger } from 'fastify';
import { toWireId } from '@platform/schemas';
import { inSpan, recordFailure, type Span, type Tracer } from '@platform/tracing';
import { issueSessionCertificate, type KasmStatus } from '../domain';
import {
  EngineError,
  type Engines,
  type ExecSpec,
  ProfileRefusedError,
  sessionHost,
} from '../engines';
import type { LaunchPlan } from '../launch-plan';
import { launchSteps, type LaunchInput } from './container-plan';
import { waitUntilServing } from './session-ready';
import type { KasmWithOwners } from './kasm-owners';
import type { KasmsRepository } from './kasms.repository';
import { createLaunchTimeline, type LaunchPhase, type LaunchTimeline } from './launch-timeline';
import { settlePin, warnFirstUse } from './pinned-tls';
import type { SocketHop } from './socket-hop';

/** What a launch tells the metrics: each phase's duration, and how the launch ended. */
export interface LaunchObserver {
  phase(phase: LaunchPhase, seconds: number): void;
  outcome(outcome: 'running' | 'error' | 'superseded'): void;
}

export interface LauncherOptions {
  kasms: KasmsRepository;
  engines: Engines;
  log: FastifyBaseLogger;
  /** Names this process in leases. */
  owner: string;
  leaseMs: number;
  launchTimeoutMs: number;
  keepaliveMs: number;
  profiles: LaunchInput['profiles'];
  socketHop: SocketHop;
  observer?: LaunchObserver;
  /** A span for the launch and each of its phases, children of the request's span. */
  tracer: Tracer;
}

export interface LaunchRequest {
  environment: Record<string, string>;
  kasmUrl?: string;
}

class LaunchFailed extends Error {}
/** Another process moved the session on (a destroy, a sweep): this launch stops and cleans up. */
class Superseded extends Error {}

const tail = (text: string) => (text.length > 500 ? `…${text.slice(-500)}` : text).trim();

/**
 * Carries out launch plans on engines, in the background of the request that asked. Every step
 * moves the session on only from the status it expects while this process holds the lease, so
 * a destroy or a sweep elsewhere wins cleanly; whatever this launch made is removed when it fails.
 */
export function createSessionLauncher(options: LauncherOptions) {
  const { kasms, engines, log, owner, tracer } = options;
  const inFlight = new Map<string, Promise<void>>();
  let renewal: NodeJS.Timeout | undefined;

  function renewLeases() {
    const ids = [...inFlight.keys()];
    if (ids.length === 0) return;
    kasms
      .renewLeases(owner, ids, new Date(Date.now() + options.leaseMs))
      .catch((error: unknown) => log.warn({ err: error }, 'session lease renewal failed'));
  }

  async function move(
    id: string,
    from: KasmStatus,
    data: Parameters<KasmsRepository['transition']>[2],
  ) {
    if (!(await kasms.transition(id, [from], data, owner))) throw new Superseded();
  }

  const phase = <T>(name: LaunchPhase, work: () => Promise<T>, attributes = {}) =>
    inSpan(tracer, `launch ${name}`, work, { attributes });

  async function carryOut(
    row: KasmWithOwners,
    request: LaunchRequest,
    timeline: LaunchTimeline,
  ): Promise<void> {
    const deadline = Date.now() + options.launchTimeoutMs;
    // Its key exists only here and in the container: the session keeps the fingerprint.
    const certificate = issueSessionCertificate(`session-${toWireId(row.id)}`);
    const steps = launchSteps({
      plan: row.plan as unknown as LaunchPlan,
      containerSecret: row.containerSecret,
      environment: request.environment,
      kasmUrl: request.kasmUrl,
      profiles: options.profiles,
      socketHop: { socketsDir: options.socketHop.socketsDir, agentDockerUrl: row.agent.dockerUrl },
      certificate: certificate.pem,
    });
    if (!steps.ok) throw new LaunchFailed(steps.reason);
    if (steps.ignored.length > 0) {
      // Keys and reasons only: a value (an environment, a command) may hold a secret.
      log.warn({ kasmId: row.id, ignored: steps.ignored }, 'workspace config not honoured');
    }
    const engine = engines.forAgent(row.agent);

    // Each phase's beginning is stored with the move it comes with, so that a status shows it.
    const { image } = steps.container;
    await phase(
      'pull',
      async () => {
        await move(row.id, 'requested', {
          status: 'provisioning',
          launchTimeline: timeline.begin('pull'),
        });
        await engine.ensureImage(image);
      },
      { 'container.image.name': image },
    );
    const containerId = await phase('create', async () => {
      await move(row.id, 'provisioning', {
        launchTimeline: timeline.begin('create'),
        tlsIssuedSha256: certificate.fingerprint,
      });
      const { socketFolder } = steps.container;
      if (socketFolder) await options.socketHop.prepare(socketFolder);
      return engine.create(steps.container);
    });
    const hostPort = await phase('start', async () => {
      await move(row.id, 'provisioning', {
        status: 'starting',
        containerId,
        launchTimeline: timeline.begin('start'),
      });
      const published = await engine.start(containerId, steps.endpoint.port);
      const runStep = async (planned: ExecSpec) => {
        // `root` by name was withheld at planning; a name the container maps to uid or gid 0
        // (`toor`) is found only here, and runs as the image's user in the same way.
        const asRoot =
          !steps.rootExecAllowed &&
          !!planned.user &&
          (await engine.runsAsRoot(containerId, planned.user));
        if (asRoot)
          log.warn({ kasmId: row.id, user: planned.user }, 'start-up command user is root');
        const step = asRoot ? { ...planned, user: undefined } : planned;
        const result = await engine.exec(containerId, step);
        if (result.exitCode !== 0) {
          // The command's output may hold anything the container printed: the log has it, not the session.
          log.warn(
            { kasmId: row.id, agentId: row.agent.id, cmd: step.cmd, output: tail(result.output) },
            'session start-up command failed',
          );
          throw new LaunchFailed(
            `A start-up command of the workspace (exec_config) exited with ${result.exitCode}`,
          );
        }
      };
      const { firstLaunch } = steps;
      // The marker is looked for and made as the image's user, in the home it belongs to.
      const asImageUser = (cmd: string) =>
        engine.exec(containerId, { cmd, env: { MARKER: firstLaunch.marker } });
      if (firstLaunch.steps.length > 0 && (await asImageUser('test -e "$MARKER"')).exitCode !== 0) {
        for (const planned of firstLaunch.steps) await runStep(planned);
        await asImageUser('mkdir -p "$(dirname "$MARKER")" && touch "$MARKER"');
      }
      for (const planned of steps.exec) await runStep(planned);
      return published;
    });
    const pin = await phase('ready', async () => {
      await move(row.id, 'starting', { hostPort, launchTimeline: timeline.begin('ready') });
      const { port, scheme } = steps.endpoint;
      const answer = await waitUntilServing(sessionHost(row.agent), hostPort, scheme, deadline);
      if (!answer) {
        throw new LaunchFailed(`The session's server never answered on port ${port} (${scheme})`);
      }
      const settled = settlePin(certificate.fingerprint, null, answer.certificate);
      if ('refused' in settled) throw new LaunchFailed(settled.refused);
      if (settled.firstUse) warnFirstUse(log, row.id, settled.pin);
      return settled.pin;
    });
    const now = new Date();
    await move(row.id, 'starting', {
      status: 'running',
      startedAt: now,
      // A staged session (no user yet) waits until its staging expiry; a user's, a keepalive.
      expiresAt: new Date(
        row.userId === null
          ? row.hardExpiresAt.getTime()
          : Math.min(now.getTime() + options.keepaliveMs, row.hardExpiresAt.getTime()),
      ),
      leaseOwner: null,
      leaseUntil: null,
      launchTimeline: timeline.complete(),
      tlsPinSha256: pin,
    });
    options.observer?.outcome('running');
  }

  async function cleanUp(
    row: KasmWithOwners,
    error: unknown,
    timeline: LaunchTimeline,
  ): Promise<void> {
    await engines
      .forAgent(row.agent)
      .removeSession(toWireId(row.id))
      .catch((e: unknown) => log.warn({ err: e, kasmId: row.id }, 'session cleanup failed'));
    await options.socketHop
      .remove(row.id)
      .catch((e: unknown) =>
        log.warn({ err: e, kasmId: row.id }, 'session socket folder cleanup failed'),
      );
    if (error instanceof Superseded) return;
    // Only our own sentences reach the session (and its user's page); anything else stays in the log.
    const message =
      error instanceof LaunchFailed ||
      error instanceof EngineError ||
      error instanceof ProfileRefusedError
        ? error.message
        : 'The launch failed on the server (LAUNCH_FAILED)';
    log.warn(
      { kasmId: row.id, agentId: row.agent.id, reason: message, err: error },
      'session launch failed',
    );
    await kasms.transition(
      row.id,
      ['requested', 'provisioning', 'starting'],
      {
        status: 'error',
        statusMessage: message.slice(0, 2000),
        stoppedAt: new Date(),
        leaseOwner: null,
        leaseUntil: null,
        launchTimeline: timeline.fail(),
      },
      owner,
    );
  }

  async function run(row: KasmWithOwners, request: LaunchRequest, span: Span): Promise<void> {
    const limitS = options.launchTimeoutMs / 1000;
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new LaunchFailed(`The launch took longer than ${limitS} s`));
      }, options.launchTimeoutMs);
    });
    const timeline = createLaunchTimeline((phase, seconds) =>
      options.observer?.phase(phase, seconds),
    );
    const work = carryOut(row, request, timeline);
    try {
      await Promise.race([work, timeout]);
    } catch (error) {
      recordFailure(span, error);
      options.observer?.outcome(error instanceof Superseded ? 'superseded' : 'error');
      await cleanUp(row, error, timeline).catch((e: unknown) =>
        log.error({ err: e }, 'session cleanup failed'),
      );
      // A step still under way after a timeout may yet make a container: its next move fails
      // (the session is no longer ours), and what it made is removed then.
      if (timedOut) work.catch(() => cleanUp(row, new Superseded(), timeline));
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** Starts carrying out the session's plan; answers at once. */
    launch(row: KasmWithOwners, request: LaunchRequest): void {
      renewal ??= setInterval(renewLeases, Math.max(100, options.leaseMs / 3));
      renewal.unref();
      const attributes = {
        'workspace.session.id': toWireId(row.id),
        'workspace.agent.id': row.agent.id,
      };
      const done = inSpan(tracer, 'session launch', (span) => run(row, request, span), {
        attributes,
      }).finally(() => inFlight.delete(row.id));
      inFlight.set(row.id, done);
    },

    /** Waits for the launches under way (each is bounded by the launch timeout). */
    async close(): Promise<void> {
      await Promise.allSettled([...inFlight.values()]);
      clearInterval(renewal);
    },
  };
}
export type SessionLauncher = ReturnType<typeof createSessionLauncher>;
