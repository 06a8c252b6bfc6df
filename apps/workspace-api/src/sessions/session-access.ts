import { hashSecret, randomSecret, secretMatches } from '@platform/secrets';
import { toUuid, toWireId } from '@platform/schemas';
import { createExpiringCache } from '../domain/expiring-cache';
import { sessionHost } from '../engines/engines';
import {
  KasmNotFoundError,
  KasmNotRunningError,
  ProxyAccessDeniedError,
  ProxyCredentialsMissingError,
} from '../errors';
import type { LaunchPlan } from '../launch-plan/launch-plan';
import { endpointOf } from './container-plan';
import type { KasmsRepository } from './kasms.repository';

/** Where the proxy sends a session's traffic, and the Basic header the container expects. */
export interface SessionTarget {
  origin: string;
  authorization: string;
}

// Grants and targets are read at most this often per process: a browser's burst of requests
// costs one lookup, and a destroyed session is refused within this long everywhere.
const CACHE_MS = 1000;
// Keyed by ids from requests: bounded, so that distinct ids cannot grow a process without end.
const MAX_CACHED = 10_000;

const ID = /^[0-9a-f]{32}$/i;
const DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Admits browsers to sessions: a connect token becomes a grant cookie, and the cookie admits. */
export function createSessionAccess(kasms: KasmsRepository) {
  const cache = { ttlMs: CACHE_MS, maxEntries: MAX_CACHED };
  const targets = createExpiringCache<string, SessionTarget | Error>(cache);
  const grants = createExpiringCache<string, { kasmId: string; secretHash: string }>(cache);

  function sessionId(raw: string): string {
    if (!ID.test(raw) && !DASHED.test(raw))
      throw new KasmNotFoundError(`kasm_id ${raw.slice(0, 64)}`);
    return toUuid(raw);
  }

  async function targetOf(id: string): Promise<SessionTarget> {
    const cached = targets.get(id);
    if (cached) {
      if (cached instanceof Error) throw cached;
      return cached;
    }
    const row = await kasms.find(id);
    let target: SessionTarget | Error;
    if (!row) target = new KasmNotFoundError(`kasm_id ${toWireId(id)}`);
    else if (row.status !== 'running' || !row.hostPort) {
      target = new KasmNotRunningError(`The session is ${row.status}`);
    } else {
      const plan = row.plan as unknown as LaunchPlan;
      const endpoint = endpointOf(plan.image.runConfig);
      const scheme = typeof endpoint === 'string' ? 'https' : endpoint.scheme;
      target = {
        origin: `${scheme}://${sessionHost(row.agent)}:${row.hostPort}`,
        authorization: `Basic ${Buffer.from(`kasm_user:${row.containerSecret}`).toString('base64')}`,
      };
    }
    targets.set(id, target);
    if (target instanceof Error) throw target;
    return target;
  }

  return {
    sessionId,

    /** A valid connect token for a live session: a new grant, as `<grant id>.<secret>`. */
    async exchange(rawId: string, token: string): Promise<string> {
      const id = sessionId(rawId);
      const row = await kasms.find(id);
      if (!row) throw new KasmNotFoundError(`kasm_id ${rawId}`);
      if (!secretMatches(token, row.tokenHash))
        throw new ProxyAccessDeniedError('The session link is not valid (any more)');
      const secret = randomSecret(32);
      const grantId = await kasms.createGrant(id, hashSecret(secret));
      return `${toWireId(grantId)}.${secret}`;
    },

    /** The target for a request carrying the grant cookie; 401 without one, 403 for another's. */
    async admit(rawId: string, cookie: string | undefined): Promise<SessionTarget> {
      const id = sessionId(rawId);
      if (!cookie)
        throw new ProxyCredentialsMissingError('Open the session through its kasm_url first');
      const [grantId, secret] = cookie.split('.', 2);
      if (!secret || !ID.test(grantId))
        throw new ProxyAccessDeniedError('The session cookie is not valid');
      let grant = grants.get(grantId);
      if (!grant) {
        const row = await kasms.findGrant(toUuid(grantId));
        if (!row) throw new ProxyAccessDeniedError('The session cookie is not valid');
        grant = row;
        grants.set(grantId, grant);
      }
      if (grant.kasmId !== id || !secretMatches(secret, grant.secretHash)) {
        throw new ProxyAccessDeniedError('The session cookie is not valid for this session');
      }
      return targetOf(id);
    },

    /** Forgets what this process cached of a session (after it is destroyed here). */
    forget(rawId: string): void {
      targets.delete(toUuid(rawId));
    },
  };
}
export type SessionAccess = ReturnType<typeof createSessionAccess>;
