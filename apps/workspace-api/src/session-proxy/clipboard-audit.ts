import { toWireId } from '@platform/schemas';
import type { AuditContext, AuditTrail } from '../audit';
import type { ClipboardRefusal } from './rfb-cut-text';

/** At most one event per session, direction and reason in this long; the others are counted. */
export const CLIPBOARD_AUDIT_WINDOW_MS = 60_000;

/** Whose stream it was: the session's user, and where the browser's request came from. */
export interface StreamOrigin {
  kasmId: string;
  userId: string;
  username: string;
  clientIp: string | null;
  userAgent: string | null;
}

/**
 * Records refused clipboard transfers (channel session, operation clipboard_refused: direction,
 * size when known, reason, never the text) without letting a flood of them fill the audit
 * trail: the first of a session, direction and reason is recorded at once, the others of the next
 * minute as one event with their count (and the last's size and reason) when the minute ends.
 */
export function createClipboardAudit(
  audit: Pick<AuditTrail, 'record'>,
  windowMs = CLIPBOARD_AUDIT_WINDOW_MS,
) {
  const open = new Map<string, { later: number; last: ClipboardRefusal | null }>();
  const record = (origin: StreamOrigin, refusal: ClipboardRefusal, count: number) => {
    const context: AuditContext = {
      actor: { kind: 'user', id: toWireId(origin.userId), username: origin.username },
      channel: 'session',
      clientIp: origin.clientIp,
      userAgent: origin.userAgent,
    };
    void audit.record(
      context,
      {
        operation: 'clipboard_refused',
        target: { type: 'kasm', id: toWireId(origin.kasmId) },
        before: null,
        after: { ...refusal, count },
      },
      { result: 'denied', status: 403, errorCode: 'CLIPBOARD_REFUSED' },
    );
  };
  return (origin: StreamOrigin, refusal: ClipboardRefusal): void => {
    const key = `${toWireId(origin.kasmId)}:${refusal.direction}:${refusal.reason}`;
    const window = open.get(key);
    if (window) {
      window.later++;
      window.last = refusal;
      return;
    }
    const started = { later: 0, last: null as ClipboardRefusal | null };
    open.set(key, started);
    record(origin, refusal, 1);
    setTimeout(() => {
      open.delete(key);
      if (started.last) record(origin, started.last, started.later);
    }, windowMs).unref();
  };
}
export type ClipboardAudit = ReturnType<typeof createClipboardAudit>;
