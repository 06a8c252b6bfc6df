import { toTimestamp, toWireId } from '@platform/schemas';
import { InvalidCursorError } from '../errors';
import type { AuditEventRow, AuditRepository, AuditSelection } from './audit.repository';
import type { AuditEventResponse, GetAuditLogBody } from './audit.schemas';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WIRE_OR_DASHED_ID =
  /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/** Ids are stored in their wire form; a filter may give the dashed one. */
const asStoredId = (id: string | undefined) =>
  id !== undefined && WIRE_OR_DASHED_ID.test(id) ? toWireId(id) : id;

function encodeCursor(row: AuditEventRow): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const createdAt = new Date(at);
    if (typeof at === 'string' && typeof id === 'string' && UUID.test(id) && !isNaN(+createdAt)) {
      return { createdAt, id };
    }
  } catch {
    // Falls through: any unreadable cursor is the client's mistake.
  }
  throw new InvalidCursorError();
}

export function toAuditEventResponse(row: AuditEventRow): AuditEventResponse {
  return {
    event_id: toWireId(row.id),
    created: toTimestamp(row.createdAt),
    actor: {
      kind: row.actorKind as AuditEventResponse['actor']['kind'],
      id: row.actorId,
      name: row.actorName,
    },
    channel: row.channel as AuditEventResponse['channel'],
    operation: row.operation,
    target: row.targetType === null ? null : { type: row.targetType, id: row.targetId },
    client_ip: row.clientIp,
    user_agent: row.userAgent,
    result: row.result as AuditEventResponse['result'],
    status: row.status,
    error_code: row.errorCode,
    before: row.before as AuditEventResponse['before'],
    after: row.after as AuditEventResponse['after'],
  };
}

/** get_audit_log: the filters all hold together; newest first; by page number or cursor. */
export function createAuditLog(events: AuditRepository) {
  return {
    async page(query: GetAuditLogBody) {
      const selection: AuditSelection = {
        actorKind: query.actor_kind,
        actorId: asStoredId(query.actor_id),
        operation: query.operation,
        targetType: query.target_type,
        targetId: asStoredId(query.target_id),
        channel: query.channel,
        result: query.result,
        since: query.since === undefined ? undefined : new Date(query.since),
        until: query.until === undefined ? undefined : new Date(query.until),
      };
      const after = query.cursor ? decodeCursor(query.cursor) : undefined;
      const { rows, total } = await events.page({
        selection,
        offset: query.page * query.page_size,
        // One more than the page tells whether another follows.
        limit: query.page_size + 1,
        after,
      });
      const shown = rows.slice(0, query.page_size);
      const more = rows.length > query.page_size;
      return {
        events: shown.map(toAuditEventResponse),
        total,
        page: after ? 0 : query.page,
        page_size: query.page_size,
        next_cursor: more ? encodeCursor(shown[shown.length - 1]) : null,
      };
    },
  };
}
export type AuditLog = ReturnType<typeof createAuditLog>;
