import { hashSecret, randomSecret, secretMatches } from '@platform/secrets';
import { toUuid, toWireId } from '@platform/schemas';
import { createExpiringCache } from '../domain';
import {
  KasmNotFoundError,
  KasmNotRunningError,
  ProxyAccessDeniedError,
  ProxyCredentialsMissingError,
} from '../errors';
import type { LaunchPlan } from '../launch-plan';
import { containerEndpoint, type KasmReads, type KasmsRepository } from '../sessions';
import { isStreamRole, type StreamRole } from './rfb-referee';
import { onSessionHost } from './session-origin';
import type { SessionOwner } from './session-owner-page';

/** Where the proxy sends a session's traffic, and the Basic header the container expects. */
export interface SessionTarget {
  origin: string;
  authorization: string;
  /** SHA-256 of the certificate the container must present over TLS (pinned-tls.ts). */
  pin: string | null;
  /** The session's owner: a browser signed in as someone else is refused. */
  /** Null while the session is staged: no browser may enter it. */
  userId: string | null;
  /** Its owner's username and its workspace: whose policy holds on its stream, and who is audited. */
  username: string;
  imageId: string;
}

/** An admitted request's target, with whose grant admitted it and in which role. */
export interface AdmittedTarget extends SessionTarget {
  grantId: string;
  role: StreamRole;
  /** A joiner's or watcher's platform user and name (null and '' for the owner, an anonymous joiner). */
  joinerId: string | null;
  joinerName: string;
}

/**
 * Spends a use of a session's share link for a joiner (sharing's, given to the proxy): their
 * grant made with `secretHash`, its id, end and role; a refused link throws (403, 404).
 */
export type ShareSpender = (
  kasmId: string,
  token: string,
  joiner: { signedInAs: string | null; secretHash: string },
) => Promise<{ grantId: string; expiresAt: Date }>;

/** A grant cookie's value and when the grant (and so the cookie) ends. */
export interface Grant {
  cookie: string;
  expiresAt: Date;
}

export interface AccessOptions {
  grantTtlMs: number;
}

// Grants and targets are read at most this often per process: a browser's burst of requests
// costs one lookup, and a destroyed session is refused within this long everywhere.
const CACHE_MS = 1000;
// Keyed by ids from requests: bounded, so that distinct ids cannot grow a process without end.
const MAX_CACHED = 10_000;

const ID = /^[0-9a-f]{32}$/i;
const notAllowed = () =>
  new ProxyAccessDeniedError('The session’s user may not enter it (locked, disabled or deleted)');
const notYours = () =>
  new ProxyAccessDeniedError(
    'This browser is signed in as another user than the session’s: sign out first',
  );

const DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Admits browsers to sessions: a connect token becomes a grant cookie, and the cookie admits. */
export function createSessionAccess(
  kasms: KasmsRepository,
  reads: KasmReads,
  options: AccessOptions,
  spendShare?: ShareSpender,
) {
  const cache = { ttlMs: CACHE_MS, maxEntries: MAX_CACHED };
  const targets = createExpiringCache<string, SessionTarget | Error>(cache);
  const grants = createExpiringCache<
    string,
    {
      kasmId: string;
      secretHash: string;
      expiresAt: Date;
      role: string;
      joinerId: string | null;
      joinerName: string;
    }
  >(cache);

  function hostChecked(row: { plan: unknown }, hostname: string): void {
    // A `$request_host$` zone's kasm_url is on whatever host its request came to, so every
    // host the platform is reached at is the session's host; other zones name theirs.
    const plan = row.plan as LaunchPlan;
    if (!plan.requestHostZone && !onSessionHost(hostname, plan.sessionUrl))
      throw new ProxyAccessDeniedError('Open the session at the address of its kasm_url');
  }

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
    const row = await reads.find(id);
    let target: SessionTarget | Error;
    if (!row) target = new KasmNotFoundError(`kasm_id ${toWireId(id)}`);
    else if (row.status !== 'running' || !row.hostPort) {
      target = new KasmNotRunningError(`The session is ${row.status}`);
    } else if (!row.user.active) {
      // Read with the session, in the same lookup: a missed revocation cannot keep access.
      target = notAllowed();
    } else {
      const { origin, authorization, pin } = containerEndpoint(row, row.hostPort);
      target = {
        origin,
        authorization,
        pin,
        userId: row.userId,
        username: row.user.username,
        imageId: row.imageId,
      };
    }
    targets.set(id, target);
    if (target instanceof Error) throw target;
    return target;
  }

  return {
    sessionId,

    /**
     * Spends a session's connect token for a new grant (`<grant id>.<secret>`). `signedInAs` is
     * the browser's platform user, if it is signed in: it may only enter its own sessions.
     * `hostname` is where the request arrived: grants are minted only on the session's host.
     */
    async exchange(
      rawId: string,
      token: string,
      request: { hostname: string; signedInAs: string | null },
    ): Promise<Grant> {
      const id = sessionId(rawId);
      const row = await kasms.find(id);
      if (!row) throw new KasmNotFoundError(`kasm_id ${rawId}`);
      if (!row.userId || !(await reads.ownerActive(row.userId))) throw notAllowed();
      hostChecked(row, request.hostname);
      if (request.signedInAs !== null && request.signedInAs !== row.userId) throw notYours();
      const secret = randomSecret(32);
      const expiresAt = new Date(
        Math.min(Date.now() + options.grantTtlMs, row.hardExpiresAt.getTime()),
      );
      const grantId = await kasms.spendToken(id, hashSecret(token), {
        secretHash: hashSecret(secret),
        spentHash: hashSecret(randomSecret(32)),
        expiresAt,
      });
      if (!grantId) {
        throw new ProxyAccessDeniedError(
          'The session link was used already or replaced by a newer one: open the session again for a new link',
        );
      }
      return { cookie: `${toWireId(grantId)}.${secret}`, expiresAt };
    },

    /**
     * Spends a share link (`?kasm_share=`) for a joiner's grant: the same cookie as the owner's,
     * its role the link's. Refused as sharing says (403, 404), or on another host than the
     * session's.
     */
    async exchangeShare(
      rawId: string,
      token: string,
      request: { hostname: string; signedInAs: string | null },
    ): Promise<Grant> {
      const id = sessionId(rawId);
      const row = await kasms.find(id);
      if (!row || !spendShare) throw new KasmNotFoundError(`kasm_id ${rawId}`);
      hostChecked(row, request.hostname);
      const secret = randomSecret(32);
      const { grantId, expiresAt } = await spendShare(id, token, {
        signedInAs: request.signedInAs,
        secretHash: hashSecret(secret),
      });
      return { cookie: `${toWireId(grantId)}.${secret}`, expiresAt };
    },

    /** Whose session it is, as the page a connect link leads a signed-out browser to names it. */
    async ownerOf(rawId: string): Promise<SessionOwner> {
      const row = await reads.find(sessionId(rawId));
      if (!row) throw new KasmNotFoundError(`kasm_id ${rawId}`);
      return { username: row.user.username, workspace: row.image.friendlyName };
    },

    /**
     * The target for a request carrying the grant cookie; 401 without one, 403 for another
     * session's, an expired one, or a browser signed in as another user than the session's.
     */
    async admit(
      rawId: string,
      cookie: string | undefined,
      signedInAs: string | null = null,
    ): Promise<AdmittedTarget> {
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
      if (grant.expiresAt.getTime() <= Date.now())
        throw new ProxyAccessDeniedError('The session cookie has expired: open the session again');
      const target = await targetOf(id);
      const role = isStreamRole(grant.role) ? grant.role : 'view';
      // A joiner's browser may be signed in as anyone: the link admitted them.
      if (role === 'owner' && signedInAs !== null && signedInAs !== target.userId) throw notYours();
      return { ...target, grantId, role, joinerId: grant.joinerId, joinerName: grant.joinerName };
    },

    /** Forgets a grant read in this process (its role changed, or it ended). */
    forgetGrant(grantId: string): void {
      grants.delete(toWireId(grantId));
    },

    /** Ends the session's grants in this process at once (it is being stopped). */
    revoke(rawId: string): void {
      const id = toUuid(rawId);
      targets.delete(id);
      grants.deleteWhere((grant) => grant.kasmId === id);
    },
  };
}
export type SessionAccess = ReturnType<typeof createSessionAccess>;
