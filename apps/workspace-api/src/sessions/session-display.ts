import { toUuid } from '@platform/schemas';
import type { KeyGrant } from '../api-keys';
import { KasmNotFoundError, KasmNotRunningError } from '../errors';
import type { ActingRule } from './acting-for-user';
import { type DisplayStream, openDisplayStream } from './display-stream';
import type { KasmReads, KasmWithOwners } from './kasm-owners';
import { containerEndpoint } from './session-endpoint';
import type { SocketHop } from './socket-hop';

/** A running session's display that a caller was found allowed to drive or read. */
export interface ReachedDisplay {
  /** The session's id (uuid). */
  kasmId: string;
  /** Where its display is served now: a connection opened earlier elsewhere is another's. */
  address: string;
  /** Whose session it is, and of which workspace: what decides whether it is recorded. */
  owner: { userId: string | null; username: string; imageId: string };
  open(timeoutMs: number): Promise<DisplayStream>;
}

/**
 * The way to a session's display for a program (session-driver): the session must be live and
 * the caller's, as with every session operation (`user_id` of another user: 404; ended: 404),
 * and driving it acts as its user, so the caller holds what they hold (acting-for-user.ts,
 * as exec_command_kasm); it must be running to be reached.
 */
export function createSessionDisplays(deps: {
  reads: KasmReads;
  socketHop: SocketHop;
  mayActAs: ActingRule;
}) {
  const displayOf = (row: KasmWithOwners, hostPort: number): ReachedDisplay => {
    const endpoint = containerEndpoint(row, hostPort);
    return {
      kasmId: row.id,
      address: `${endpoint.origin}|${endpoint.pin}`,
      owner: { userId: row.userId, username: row.user.username, imageId: row.imageId },
      open: (timeoutMs) =>
        openDisplayStream(endpoint, { socketHop: deps.socketHop, kasmId: row.id }, timeoutMs),
    };
  };
  /** The display of a running session, for the service itself (its recorder): no caller to check. */
  async function reachAsService(kasmId: string): Promise<ReachedDisplay> {
    const row = await deps.reads.find(toUuid(kasmId));
    if (!row || row.status !== 'running' || !row.hostPort)
      throw new KasmNotRunningError(`The session is ${row?.status ?? 'gone'}`);
    return displayOf(row, row.hostPort);
  }
  return {
    reachAsService,
    async reach(
      kasmId: string,
      userId: string | undefined,
      grantor: KeyGrant | undefined,
    ): Promise<ReachedDisplay> {
      const row = await deps.reads.find(toUuid(kasmId));
      if (
        !row ||
        row.status === 'destroyed' ||
        (userId !== undefined && row.userId !== toUuid(userId))
      )
        throw new KasmNotFoundError(`kasm_id ${kasmId}${userId ? ` of user_id ${userId}` : ''}`);
      if (row.userId) await deps.mayActAs(row.userId, grantor);
      if (row.status !== 'running' || !row.hostPort)
        throw new KasmNotRunningError(`The session is ${row.status}`);
      return displayOf(row, row.hostPort);
    },
  };
}
export type SessionDisplays = ReturnType<typeof createSessionDisplays>;
