import type { FastifyRequest } from 'fastify';
import { toUuid, toWireId } from '@platform/schemas';
import type { Engine, Engines } from '../engines';
import { KasmNotFoundError, KasmNotRunningError } from '../errors';
import type { KasmReads } from '../sessions';
import type { RequestAdmission } from './session-admission';

/** An admitted request's running session: its container on its engine, its workspace and owner. */
export interface RunningSession {
  /** The session's id as the wire writes it (32 hex digits). */
  kasmId: string;
  imageId: string;
  engine: Engine;
  containerId: string;
  userId: string;
  username: string;
}

export interface RunningSessionDeps {
  admit: RequestAdmission;
  reads: Pick<KasmReads, 'find'>;
  engines: Engines;
}

const SESSION_ID = /^[0-9a-f]{32}$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENDED = new Set(['destroyed', 'error']);

/**
 * The running session a request on the sessions origin is admitted to, for the features that
 * work on its container through the engine (files, sound): an ended session is 404 before its
 * grant is even looked at; then the grant decides (401, 403); a session not running is 409.
 */
export function createRunningSessions({ admit, reads, engines }: RunningSessionDeps) {
  return async (request: FastifyRequest, rawId: string): Promise<RunningSession> => {
    if (!SESSION_ID.test(rawId)) throw new KasmNotFoundError(`kasm_id ${rawId.slice(0, 64)}`);
    const id = toUuid(rawId);
    const row = await reads.find(id);
    if (!row || ENDED.has(row.status)) throw new KasmNotFoundError(`kasm_id ${toWireId(id)}`);
    await admit(request, rawId);
    if (row.status !== 'running' || !row.containerId || !row.userId)
      throw new KasmNotRunningError(`The session is ${row.status}`);
    return {
      kasmId: toWireId(id),
      imageId: row.imageId,
      engine: engines.forAgent(row.agent),
      containerId: row.containerId,
      userId: row.userId,
      username: row.user.username,
    };
  };
}
export type RunningSessions = ReturnType<typeof createRunningSessions>;
