import type { FastifyBaseLogger } from 'fastify';
import type { Tracer } from '@platform/tracing';
import { enginePolicy, type Engines } from '../engines';
import type { InstallationSource } from '../installation';
import { createEngines } from './engines';

/**
 * Which engine addresses may be dialled (the policy), and the engines' clients: `engines` when
 * given (tests share one), else Docker's. Warns once when the policy hands hosts to a network.
 */
export function openEngines(
  config: Parameters<typeof enginePolicy>[0],
  {
    log,
    tracer,
    engines,
    installation,
  }: {
    log: FastifyBaseLogger;
    tracer: Tracer;
    engines?: Engines;
    installation: InstallationSource;
  },
) {
  const policy = enginePolicy(config);
  if (policy.allowInsecureTcp) {
    log.warn(
      'ENGINE_ALLOW_INSECURE_TCP is on: tcp:// agents without TLS are accepted, and anyone on their network owns those engines and hosts. Lab use only.',
    );
  }
  return { policy, engines: engines ?? createEngines({ policy, log, tracer, installation }) };
}
