import { inSpan, noTracer, type Tracer } from '@platform/tracing';
import { createDockerEngine } from './docker-engine';
import {
  checkEngineAddress,
  EngineError,
  type Engine,
  type EngineAddress,
  type EngineAgent,
  type EnginePolicy,
  type Engines,
} from '../engines';
import type { InstallationSource } from '../installation';

/** Where engine failures are written in full (Fastify's pino logger, or any with its warn). */
export interface EngineLog {
  warn(fields: object, message: string): void;
}

/**
 * Writes each failure's engine-side detail to the log, with the agent (callers see only the
 * plain reason), and traces each call of a traced operation as a span, the agent named on it.
 */
function watched(engine: Engine, agent: EngineAgent, log: EngineLog, tracer: Tracer): Engine {
  const attributes = {
    'workspace.agent.id': agent.id ?? '',
    'workspace.agent.hostname': agent.hostname ?? '',
  };
  const watch =
    <A extends unknown[], R>(call: string, method: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      inSpan(tracer, `engine ${call}`, () => method(...args), {
        attributes,
        childOnly: true,
      }).catch((error: unknown) => {
        if (error instanceof EngineError) {
          log.warn(
            {
              agentId: agent.id,
              agentHostname: agent.hostname,
              dockerUrl: agent.dockerUrl,
              call,
              failure: error.failure,
              engineDetail: error.detail,
            },
            'engine call failed',
          );
        }
        throw error;
      });
  return {
    info: watch('info', engine.info),
    ensureImage: watch('ensureImage', engine.ensureImage),
    create: watch('create', engine.create),
    start: watch('start', engine.start),
    exec: watch('exec', engine.exec),
    execInput: watch('execInput', engine.execInput),
    execOutput: watch('execOutput', engine.execOutput),
    execRead: watch('execRead', engine.execRead),
    runsAsRoot: watch('runsAsRoot', engine.runsAsRoot),
    stop: watch('stop', engine.stop),
    pause: watch('pause', engine.pause),
    unpause: watch('unpause', engine.unpause),
    removeSession: watch('removeSession', engine.removeSession),
    listSessions: watch('listSessions', engine.listSessions),
    listSessionNetworks: watch('listSessionNetworks', engine.listSessionNetworks),
  };
}

/** An engine that fails every call the same way (an address the policy refuses, unreadable TLS files). */
function failing(error: EngineError): Engine {
  const fail = () => Promise.reject(error);
  return {
    info: fail,
    ensureImage: fail,
    create: fail,
    start: fail,
    exec: fail,
    execInput: fail,
    execOutput: fail,
    execRead: fail,
    runsAsRoot: fail,
    stop: fail,
    pause: fail,
    unpause: fail,
    removeSession: fail,
    listSessions: fail,
    listSessionNetworks: fail,
  };
}

/**
 * One engine client per address, made on first use. Addresses are checked against the policy
 * here too, so that a row stored before a rule existed is refused rather than dialled.
 */
export function createEngines({
  policy,
  log,
  installation,
  tracer = noTracer,
}: {
  policy: EnginePolicy;
  log: EngineLog;
  /** This installation's identity, which labels what it creates (installation/). */
  installation: InstallationSource;
  /** Traces engine calls, and the Engine API calls under them. */
  tracer?: Tracer;
}): Engines {
  const clients = new Map<string, Engine>();

  function client(address: EngineAddress): Engine {
    if (!address.dockerUrl) return failing(new EngineError('ENGINE_NO_ADDRESS'));
    const checked = checkEngineAddress(address, policy);
    if (!checked.ok || !checked.target) {
      const detail = checked.ok
        ? ''
        : checked.problems.map((p) => `${p.field} ${p.message}`).join('; ');
      return failing(new EngineError('ENGINE_ADDRESS_REFUSED', detail));
    }
    const key = [
      address.dockerUrl,
      address.tlsCaPath,
      address.tlsCertPath,
      address.tlsKeyPath,
    ].join('|');
    let engine = clients.get(key);
    if (!engine) {
      try {
        engine = createDockerEngine(checked.target, tracer, installation);
      } catch (error) {
        // Unreadable TLS files: not cached, so that fixing them needs no restart.
        if (error instanceof EngineError) return failing(error);
        throw error;
      }
      clients.set(key, engine);
    }
    return engine;
  }

  return {
    forAgent: (agent: EngineAgent): Engine => watched(client(agent), agent, log, tracer),
  };
}
