import type { FastifyRequest } from 'fastify';
import { toWireId } from '@platform/schemas';
import { requestOrigin, type AuditTrail } from '../audit';
import { ProxyAccessDeniedError, ProxyOriginRejectedError } from '../errors';
import { originMatchesHost, type RequestAdmission } from '../session-proxy';
import type { SessionsService } from '../sessions';

export interface SessionControlsDeps {
  admit: RequestAdmission;
  sessions: Pick<SessionsService, 'find' | 'destroy' | 'sleepOrWake'>;
  audit: Pick<AuditTrail, 'around'>;
}

/** What the page shows of its session: where it stands and when it ends. */
export interface SessionState {
  status: string;
  expiresAt: Date;
}

/**
 * What the session page may do to its own session, for the holder of its grant (its owner's
 * browser): read when it ends, put it to sleep (stop), end it (destroy). A change must come
 * from a page of the session's own host (its Origin), as the proxy asks of a WebSocket, and is
 * audited as its owner's, like the API's stop_kasm and destroy_kasm.
 */
export function createSessionControls({ admit, sessions, audit }: SessionControlsDeps) {
  async function owned(request: FastifyRequest, kasmId: string) {
    const { userId } = await admit(request, kasmId);
    // Admitted, so the session runs and has its user: a staged one admits no browser.
    if (!userId) throw new ProxyAccessDeniedError('The session has no user yet');
    return { row: await sessions.find(kasmId, userId), userId: toWireId(userId) };
  }

  async function change(
    request: FastifyRequest,
    kasmId: string,
    operation: 'stop_kasm' | 'destroy_kasm',
    work: (userId: string) => Promise<unknown>,
  ): Promise<void> {
    if (!originMatchesHost(request.headers.origin, request.host))
      throw new ProxyOriginRejectedError();
    const { row, userId } = await owned(request, kasmId);
    await audit.around(
      {
        actor: { kind: 'user', id: userId, username: row.user.username },
        channel: 'session',
        ...requestOrigin(request),
      },
      operation,
      { type: 'session', ref: { kasm_id: toWireId(row.id) } },
      () => work(userId),
    );
  }

  return {
    async state(request: FastifyRequest, kasmId: string): Promise<SessionState> {
      const { row } = await owned(request, kasmId);
      return { status: row.status, expiresAt: row.expiresAt };
    },

    sleep: (request: FastifyRequest, kasmId: string) =>
      change(request, kasmId, 'stop_kasm', (userId) =>
        sessions.sleepOrWake('stop', kasmId, userId),
      ),

    end: (request: FastifyRequest, kasmId: string) =>
      change(request, kasmId, 'destroy_kasm', (userId) => sessions.destroy(kasmId, userId)),
  };
}
export type SessionControls = ReturnType<typeof createSessionControls>;
