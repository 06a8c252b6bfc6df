import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { toWireId } from '@platform/schemas';
import { isViewPermission } from '../api-keys';
import type { AuditRecorder } from '../db';
import type { AuditContext, PendingAudit } from './audit-event';
import type { AuditTrail } from './audit-trail';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The type of target a write changes (user, group, …: a key of the trail's kinds), for its
     * before and after; false for an operation that changes nothing though its permission is not
     * a view (get_api_keys). Every operation whose permission is not `*.view` is recorded.
     */
    audit?: string | false;
    /** The operation a write is recorded as, when it is not the route's last path segment. */
    operation?: string;
    /**
     * True when the route's service records the success event itself, in the change's own
     * statement or transaction, through `request.audit` (with the snapshots that change reads):
     * then nothing is read around the handler.
     */
    auditInChange?: boolean;
  }
  interface FastifyRequest {
    auditPending: PendingAudit | null;
    /** This write's success event, for its service to record with the change; null for none. */
    audit: AuditRecorder | null;
  }
}

/** Where an API request came from; the console passes the same from its own requests. */
export function requestOrigin(request: FastifyRequest) {
  return { clientIp: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

function apiContext(request: FastifyRequest): AuditContext | null {
  const key = request.apiKey;
  if (!key) return null;
  return {
    actor: { kind: 'api_key', id: toWireId(key.id), name: key.name },
    channel: 'api',
    ...requestOrigin(request),
  };
}

function parsed(payload: unknown): unknown {
  if (typeof payload !== 'string') return null;
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A route's path parameters under the wire's names (`userId` → `user_id`). */
const wireParams = (params: unknown): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(isObject(params) ? params : {}).map(([name, value]) => [
      name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      value,
    ]),
  );

export interface AuditedWritesOptions {
  trail: AuditTrail;
  /** Who made a request and from where; null for one made by nobody known (nothing recorded). */
  contextOf: (request: FastifyRequest) => AuditContext | null;
}

/**
 * Records every write route of `app`'s scope. Each write gets a recorder (`request.audit`):
 * a route marked `auditInChange` hands it to its service, which records the success event in the
 * change's own statement or transaction, with the snapshots the change reads. For the others the
 * target (named by the path's parameters, else the body) is read before the handler (after
 * validation and authorization) and again once the answer is known, and the event written just
 * before the answer is sent. A write refused or failed is recorded before its answer is sent too,
 * when its caller is known (a refusal for want of a permission), without a snapshot.
 */
export function auditWrites(app: FastifyInstance, { trail, contextOf }: AuditedWritesOptions) {
  if (!app.hasRequestDecorator('auditPending')) app.decorateRequest('auditPending', null);
  if (!app.hasRequestDecorator('audit')) app.decorateRequest('audit', null);

  app.addHook('onRoute', (route) => {
    const permission = route.config?.permission;
    const type = route.config?.audit;
    if (!permission || isViewPermission(permission) || type === false) return;
    const operation = route.config?.operation ?? route.url.slice(route.url.lastIndexOf('/') + 1);
    const targetOf = (request: FastifyRequest) => {
      if (!type) return null;
      const params = wireParams(request.params);
      return trail.targetIn(type, Object.keys(params).length > 0 ? params : request.body);
    };

    const inChange = route.config?.auditInChange === true;

    const begin = async (request: FastifyRequest) => {
      const context = contextOf(request);
      if (!context) return;
      const target = targetOf(request);
      request.audit = trail.recorder(context, operation, target);
      if (!inChange) request.auditPending = await trail.begin(context, operation, target);
    };
    const finish = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      // Committed with its change: nothing is left to record.
      if (request.audit?.written) return payload;
      const context = contextOf(request);
      if (!context) return payload;
      const pending = request.auditPending ?? trail.unread(context, operation, targetOf(request));
      const status = reply.statusCode;
      const failed = status >= 400;
      const answer = failed || type ? (parsed(payload) as { code?: unknown } | null) : null;
      await trail.finish(pending, {
        result: status === 401 || status === 403 ? 'denied' : failed ? 'failed' : 'success',
        status,
        errorCode: failed && typeof answer?.code === 'string' ? answer.code : null,
        afterRef: !failed && type ? trail.refIn(type, answer) : undefined,
      });
      return payload;
    };
    route.preHandler = [...[route.preHandler ?? []].flat(), begin];
    route.onSend = [...[route.onSend ?? []].flat(), finish];
  });
}

/** Every write operation of the API, recorded against the key that made it. */
export const auditPlugin = fp(
  async (app: FastifyInstance, { trail }: { trail: AuditTrail }) =>
    auditWrites(app, { trail, contextOf: apiContext }),
  { name: 'audit', dependencies: ['auth'] },
);
