import type { FastifyRequest } from 'fastify';
import { createExpiringCache, sessionCookieName } from '../domain';
import { GRANT_COOKIE } from './proxy-cookies';
import { ProxyAccessDeniedError } from '../errors';
import type { AdmittedTarget, SessionAccess } from './session-access';
import type { ClosableSocket, SessionSockets } from './session-sockets';

/** The platform user a login session token belongs to, or null (web page's sign-in). */
export type SignedInUser = (token: string) => Promise<string | null>;

/**
 * The platform user a request's browser is signed in as, or null. A page's burst of requests
 * (assets, the stream) costs one lookup of its login a second; a stale answer only narrows what
 * the browser may enter. An unknown or ended login session is no sign-in: the grant alone decides.
 */
export function createSignedInAs(signedInUser: SignedInUser) {
  const signedIn = createExpiringCache<string, string | null>({
    ttlMs: 1000,
    maxEntries: 10_000,
  });
  return async (request: FastifyRequest): Promise<string | null> => {
    const token = request.cookies[sessionCookieName(request)];
    if (!token || token.length > 200) return null;
    let user = signedIn.get(token);
    if (user === undefined) signedIn.set(token, (user = await signedInUser(token)));
    return user;
  };
}

/**
 * Admits a request on the sessions origin to `kasmId` by its grant cookie, as the proxy does
 * (session-access.ts): 401 without one, 403 for another session's or another user's, and 403
 * for a joiner's grant: what is admitted this way (files, sound, sleep and end, sharing) is the
 * owner's alone. The request's cookies must be parsed (@fastify/cookie).
 */
export function createRequestAdmission(
  access: SessionAccess,
  signedInUser: SignedInUser,
  /** False: a joiner's grant is admitted too (their page asks what it may do). */
  ownerOnly = true,
) {
  const signedInAs = createSignedInAs(signedInUser);
  return async (request: FastifyRequest, kasmId: string): Promise<AdmittedTarget> => {
    const target = await access.admit(
      kasmId,
      request.cookies[GRANT_COOKIE],
      await signedInAs(request),
    );
    if (ownerOnly && target.role !== 'owner')
      throw new ProxyAccessDeniedError('Only the session’s owner may do this; you joined it');
    return target;
  };
}
export type RequestAdmission = ReturnType<typeof createRequestAdmission>;

/**
 * Holds an admitted request's WebSocket among the grant's open sockets (session-sockets.ts): it
 * is closed when the session stops, the grant ends or the browser's sign-in changes (or `allowed`,
 * checked as often, answers false), and a grant holds only so many. False, holding nothing, when
 * the grant holds its limit already.
 */
export function createSocketHold(
  access: SessionAccess,
  sockets: SessionSockets,
  signedInAs: (request: FastifyRequest) => Promise<string | null>,
) {
  return (
    request: FastifyRequest,
    kasmId: string,
    socket: ClosableSocket,
    allowed: () => Promise<boolean> = async () => true,
    onRecheck?: (target: AdmittedTarget) => void,
  ): boolean => {
    const grant = request.cookies[GRANT_COOKIE];
    // Admitted, so the cookie is `<grant id>.<secret>`: its sockets count against the grant.
    const owner = { kasmId, grantId: String(grant).split('.', 1)[0] };
    return sockets.track(socket, owner, async () => {
      onRecheck?.(await access.admit(kasmId, grant, await signedInAs(request)));
      return allowed();
    });
  };
}
export type SocketHold = ReturnType<typeof createSocketHold>;
