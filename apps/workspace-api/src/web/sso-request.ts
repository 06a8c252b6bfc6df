import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { clientKey } from '@platform/rate-limit';
import type { SignInOrigin } from '../sso';

/** How long a browser may take at the provider before its sign-in is forgotten. */
export const PENDING_SECONDS = 600;

/** A provider's name in its routes' paths. */
export const ProviderName = Type.Object({
  name: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' }),
});

/** Where a sign-in comes from, for its throttle and its audit event. */
export const originOf = (request: FastifyRequest): SignInOrigin => ({
  address: clientKey(request.ip),
  clientIp: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});
